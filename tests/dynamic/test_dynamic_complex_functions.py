"""Complex tan, tanh, expm1, log1p, rsqrt and atan2 on `?`-long complex tensors.

Expanded as IREE 3.13's ConvertComplexToStandardPass expands them (float math on the parts;
atan2 through complex mul, add, sqrt, div and log, which expand in turn), so one module
computes them at every length. Compared with numpy (complex64: rtol 1e-5; atan2 as its
definition `-i log((x + iy) / sqrt(x^2 + y^2))` in complex128, numpy having no complex
atan2) on random values, and with the real IREE on those and on zeros, ones, infinities,
NaNs and huge values, where both apply MLIR's special cases.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAM = str(Path(__file__).parent / "programs" / "complex_functions_dx.mlir")
SIZES = [1, 3, 7, 64, 65, 131]
"""Lengths below, at and across the 64-element elementwise tile."""
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}
NAMES = ("tan", "tanh", "expm1", "log1p", "rsqrt", "atan2")

needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)


@pytest.fixture(scope="module")
def module():
    return ireelab.compile(PROGRAM)


def _random(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x, y = (rng.standard_normal(n) + 1j * rng.standard_normal(n) for _ in range(2))
    return x.astype(np.complex64), y.astype(np.complex64)


def _numpy(x: np.ndarray, y: np.ndarray) -> list[np.ndarray]:
    a, b = x.astype(np.complex128), y.astype(np.complex128)
    atan2 = -1j * np.log((b + 1j * a) / np.sqrt(b * b + a * a))
    results = [np.tan(a), np.tanh(a), np.expm1(a), np.log1p(a), 1 / np.sqrt(a), atan2]
    return [r.astype(np.complex64) for r in results]


def test_every_length_matches_numpy(module):
    for n in SIZES:
        x, y = _random(n, n)
        got = module.f(x, y)
        for name, g, w in zip(NAMES, got, _numpy(x, y), strict=True):
            assert g.shape == (n,) and g.dtype == w.dtype, name
            np.testing.assert_allclose(g, w, err_msg=name, **TOLERANCE)


def test_small_and_large_arguments_match_numpy(module):
    # near 0 expm1 and log1p keep their accuracy; tanh and tan saturate without overflow
    x = np.array(
        [1e-4 + 1e-4j, 1e-6 - 2e-6j, 0.3 + 0.7j, 30 + 1j, -30 + 1j, 0.5 + 40j], np.complex64
    )
    y = np.array([1, -1, 2j, 1 + 1j, -2, 0.5], np.complex64)
    got, want = module.f(x, y), _numpy(x, y)
    for name in ("tanh", "tan", "expm1", "log1p"):
        i = NAMES.index(name)
        np.testing.assert_allclose(got[i], want[i], err_msg=name, **TOLERANCE)


def test_codegen_leaves_only_pairs_built_and_read(module):
    records = [r.name for r in module.trace]
    after = module.trace[records.index("ConvertComplexToStandardPass")].ir
    left = set(re.findall(r"complex\.\w+", after))
    assert left <= {"complex.create", "complex.re", "complex.im"}
    for op in ("math.expm1", "math.log1p", "math.rsqrt", "math.fma", "math.atan2"):
        assert op in after


SPECIAL_X = np.array(
    [0, -0.0, 1, -1, 1j, -1j, 30 + 1j, -30 + 1j, 100 + 0.5j, complex(np.inf, 0),
     complex(-np.inf, 1), complex(1, np.inf), complex(np.inf, np.inf), complex(np.nan, 0),
     complex(0, np.nan), 1e30 + 1e30j, 0.7 + 0.9j],
    np.complex64,
)  # fmt: skip
SPECIAL_Y = np.array(
    [1, 0, 0, -1, 0, 1j, 1 + 1j, -2, 0.5, 1, 1, np.inf, 0, 1, 1, 1e30, -0.3 + 0.2j],
    np.complex64,
)
"""Zeros of both signs, ones, units on both axes, large real parts (tanh's saturation),
infinities and NaNs in either part, a huge value, and one ordinary point."""


@pytest.mark.iree
@needs_iree
def test_results_match_iree_at_every_length_and_at_special_values(module):
    """Equal to IREE's everywhere but where IREE's own polynomial math differs from libm
    (the expansions are the same): its atan2 is NaN at (0, 0) and (inf, inf), so log1p(-1)
    and log1p(inf + inf i) have a NaN imaginary part there (0 and pi/4 here, numpy's); its
    sin and cos are NaN at 1e30, so tan and tanh of 1e30 + 1e30i have a NaN part there."""
    import ireelab.iree

    theirs = ireelab.iree.compile(PROGRAM, trace=False)
    for n in SIZES:
        x, y = _random(n, 100 + n)
        for name, g, w in zip(NAMES, module.f(x, y), theirs.invoke_all("f", x, y), strict=True):
            np.testing.assert_allclose(g, w, err_msg=name, **TOLERANCE)
    got = module.f(SPECIAL_X, SPECIAL_Y)
    want = list(theirs.invoke_all("f", SPECIAL_X, SPECIAL_Y))
    huge = SPECIAL_X == np.complex64(1e30 + 1e30j)
    atan2_nan = (SPECIAL_X == -1) | (SPECIAL_X == complex(np.inf, np.inf))
    differs = {"tan": huge, "tanh": huge, "log1p": atan2_nan}
    for name, g, w in zip(NAMES, got, want, strict=True):
        mask = differs.get(name, np.zeros(len(g), bool))
        assert np.isnan(w[mask]).all(), name  # where IREE's math differs, it is NaN
        np.testing.assert_allclose(g[~mask], w[~mask], equal_nan=True, err_msg=name, **TOLERANCE)
    log1p = got[NAMES.index("log1p")]
    np.testing.assert_allclose(log1p[atan2_nan].imag, [0, np.pi / 4], rtol=1e-6)
