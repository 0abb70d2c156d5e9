"""Integer semantics end to end: every integer op of issue 3 on i8, i32 and i64, through
`ireelab.compile` and the numba kernels, checked bit for bit against numpy eager and the real
IREE 3.13 on the same inputs: wraparound, `divsi` truncation (and floor / ceil division),
unsigned division / shifts / max / comparisons, `select`, `extsi` / `extui` / `trunci`,
`sitofp` / `uitofp` / `fptosi`, `absi`, and i1 read as -1 by signed ops."""

from __future__ import annotations

import numpy as np
import pytest

from ireelab import eager

from .programs import integer_program

TYPES = {"i8": np.int8, "i32": np.int32, "i64": np.int64}
DTYPES = {**TYPES, "i1": np.bool_, "f32": np.float32}


def _inputs(t: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Edge values first (extremes, -1, 0, odd negatives), then seeded random ones. Divisors are
    never 0 and `min / -1` never occurs: both are undefined behaviour in MLIR."""
    dtype = np.dtype(TYPES[t])
    info = np.iinfo(dtype)
    edges = [info.max, info.min, -7, 7, -1, 0, 1, -128 // 3, info.min + 1, info.max - 1]
    divisors = [2, 3, 2, -2, info.max, -3, -1, 5, -1, info.min]
    rng = np.random.default_rng(3)
    count = 16 - len(edges)
    x = np.array(edges + list(rng.integers(info.min, info.max, count)), dtype)
    y = rng.integers(info.min, info.max, count)
    y = np.array(divisors + [v if v != 0 else 1 for v in y], dtype)
    s = np.array(rng.integers(0, dtype.itemsize * 8, 16), dtype)
    return x, y, s


@pytest.fixture(scope="module", params=list(TYPES))
def case(request, ireelab_module):
    t = request.param
    program = integer_program(t)
    module = ireelab_module(program.source())
    args = _inputs(t)
    ours = getattr(module, program.function)(*args)
    return program, args, list(ours)


def test_results_have_the_declared_element_types(case):
    program, _, ours = case
    expected = {r.name: r.element for r in program.groups_in_order()}
    for name, value in zip(program.names, ours, strict=True):
        assert value.dtype == DTYPES[expected[name]], name


def test_matches_numpy_eager(case):
    program, args, ours = case
    reference = eager.evaluate(program.source(), program.function, *args)
    for name, got, want in zip(program.names, ours, reference, strict=True):
        np.testing.assert_array_equal(got, want, err_msg=name)


def test_matches_real_iree(case, iree_call):
    program, args, ours = case
    theirs = iree_call(program.source(), program.function, *args)
    for name, got, want in zip(program.names, ours, theirs, strict=True):
        np.testing.assert_array_equal(got, want, err_msg=name)
