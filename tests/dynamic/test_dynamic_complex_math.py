"""Complex exp, log, pow, sqrt, sin, cos, sign and angle on `?`-long complex tensors.

IREE's CPU codegen expands complex elementary functions to float math on the two parts
(ConvertComplexToStandardPass, MLIR's patterns); ireelab does the same, so one module
computes them at every length. Compared with numpy (complex64: rtol 1e-5) on random values,
and with the real IREE on those and on zeros, ones, infinities and values on the negative
real axis (the branch cut), where both apply MLIR's special cases.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAM = str(Path(__file__).parent / "programs" / "complex_math_dx.mlir")
SIZES = [1, 3, 7, 64, 65, 131]
"""Lengths below, at and across the 64-element elementwise tile."""
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}

needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)


@pytest.fixture(scope="module")
def module():
    return ireelab.compile(PROGRAM)


def _random(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x, y = (rng.standard_normal(n) + 1j * rng.standard_normal(n) for _ in range(2))
    return x.astype(np.complex64), (0.5 * y).astype(np.complex64)


def _numpy(x: np.ndarray, y: np.ndarray) -> list[np.ndarray]:
    with np.errstate(all="ignore"):
        return [
            np.exp(x),
            np.log(x),
            x**y,
            np.sqrt(x),
            np.sin(x) + np.cos(y),
            x / np.abs(x),
            np.angle(x).astype(np.float32),
        ]


def test_every_length_matches_numpy(module):
    for n in SIZES:
        x, y = _random(n, n)
        got = module.f(x, y)
        for g, w in zip(got, _numpy(x, y), strict=True):
            assert g.shape == (n,) and g.dtype == w.dtype
            np.testing.assert_allclose(g, w, **TOLERANCE)


def test_codegen_leaves_only_pairs_built_and_read(module):
    records = [r.name for r in module.trace]
    after = module.trace[records.index("ConvertComplexToStandardPass")].ir
    left = set(re.findall(r"complex\.\w+", after))
    assert left <= {"complex.create", "complex.re", "complex.im"}
    assert "math.atan2" in after and "math.powf" in after


SPECIAL = np.array(
    [0, 1, -1, -2 + 0j, -2 - 0j, 1j, -1j, np.inf, -np.inf, complex(np.inf, 1), 3 - 4j],
    np.complex64,
)
EXPONENTS = np.array([0, 2, 0.5, 0.5 + 1j, -1, 0, 1 + 1j, 2, -1, 1, 0.25j], np.complex64)
"""Zeros, ones, the negative real axis from both sides, infinities; exponents 0, real, and
complex."""


@pytest.mark.iree
@needs_iree
def test_results_match_iree_at_every_length_and_at_special_values(module):
    """Equal to IREE's everywhere but at one point: arg(0) = atan2(0, 0) is 0 for ireelab
    (C's and numpy's atan2), NaN for IREE 3.13 (its polynomial atan2), so log(0)'s imaginary
    part and angle(0) are held to numpy there."""
    import ireelab.iree

    theirs = ireelab.iree.compile(PROGRAM, trace=False)
    for n in SIZES:
        x, y = _random(n, 100 + n)
        for g, w in zip(module.f(x, y), theirs.invoke_all("f", x, y), strict=True):
            np.testing.assert_allclose(g, w, **TOLERANCE)
    got, want = module.f(SPECIAL, EXPONENTS), list(theirs.invoke_all("f", SPECIAL, EXPONENTS))
    origin = SPECIAL == 0
    assert np.isnan(want[1][origin].imag).all() and np.isnan(want[6][origin]).all()
    want[1] = np.where(origin, want[1].real + 0j, want[1])
    want[6] = np.where(origin, np.float32(0), want[6])
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, equal_nan=True, **TOLERANCE)
