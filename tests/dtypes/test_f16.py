"""f16 end to end: numba has no half type, so `ExpandF16OpToF32Pass` computes each f16 op in f32
and rounds it back, and the kernels keep f16 buffers as their bits (`f16_storage.py`). Checked
against numpy eager (which rounds every f16 op once, as IEEE half arithmetic does) and the real
IREE 3.13: exactly for the IEEE-defined ops and conversions, within one f16 ulp for exp / tanh
(each compiler evaluates them in f32 its own way before rounding), and within the stated
accumulation bound for reductions and matmuls."""

from __future__ import annotations

import numpy as np
import pytest

from ireelab import eager

from .programs import F16_APPROXIMATE, f16_program

SIZE = 16


def _inputs() -> tuple[np.ndarray, ...]:
    special = [0.0, -0.0, 1.0, -1.0, 65504.0, 6.1e-5, 1e-7, np.inf, -np.inf, np.nan]
    rng = np.random.default_rng(7)
    x = np.array(special + list(rng.uniform(-8, 8, SIZE - len(special))), np.float16)
    y = np.array([1.0, 0.0, 3.0, -1.0, 2.0, 3.0, -5.0, 1.0, 2.0, 1.0] + [1.5] * 6, np.float16)
    y[10:] = rng.uniform(-4, 4, SIZE - 10).astype(np.float16)
    n = np.array([0, 1, -1, 2049, 65504, 65520, 70000, -3, 5, 7, 9, 11, 13, 15, 17, 19], np.int32)
    w = np.array(rng.uniform(-100, 100, SIZE), np.float32)
    w[:4] = [1.0009765625, 1.00048828125, 65519.0, 1e-8]  # ties to even, overflow, underflow
    return x, y, n, w


@pytest.fixture(scope="module")
def case(ireelab_module):
    program = f16_program(SIZE)
    module = ireelab_module(program.source())
    args = _inputs()
    with np.errstate(all="ignore"):
        ours = getattr(module, program.function)(*args)
    return program, args, dict(zip(program.names, ours, strict=True))


def _check(name: str, got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype, name
    if name not in F16_APPROXIMATE:
        np.testing.assert_array_equal(got, want, err_msg=name)
        return
    finite = np.isfinite(want)
    np.testing.assert_array_equal(got[~finite], want[~finite], err_msg=name)
    ulp = np.spacing(np.abs(want[finite]).astype(np.float16)).astype(np.float32)
    error = np.abs(got[finite].astype(np.float32) - want[finite].astype(np.float32))
    assert (error <= ulp).all(), (name, got, want)


def test_matches_numpy_eager(case):
    program, args, ours = case
    with np.errstate(all="ignore"):
        reference = eager.evaluate(program.source(), program.function, *args)
    for name, want in zip(program.names, reference, strict=True):
        _check(name, ours[name], np.asarray(want))


def test_matches_real_iree(case, iree_call):
    program, args, ours = case
    theirs = iree_call(program.source(), program.function, *args)
    for name, want in zip(program.names, theirs, strict=True):
        _check(name, ours[name], want)


def test_f16_values_are_half_precision(case):
    """Spot checks that do not rely on another implementation: 1 + 2^-10 is an f16, 1 + 2^-11
    ties to even (1.0), 65519 rounds to 65504 and 65520 to inf (the overflow threshold), f16's
    smallest subnormal is 2^-24."""
    _, _, ours = case
    assert ours["truncf"][0] == np.float16(1.0009765625)
    assert ours["truncf"][1] == np.float16(1.0)
    assert ours["truncf"][2] == np.float16(65504.0)
    assert ours["truncf"][3] == 0  # 1e-8 is under half the smallest subnormal
    assert np.isposinf(ours["sitofp"][5]) and ours["sitofp"][4] == 65504
    assert ours["addf"][4] == np.float16(65504.0) + np.float16(2.0)  # overflow to inf


REDUCTION = """
func.func @row_sums(%x: tensor<4x64xf16>) -> tensor<4xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                        affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf16>) outs(%init : tensor<4xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %s = arith.addf %acc, %in : f16
    linalg.yield %s : f16
  } -> tensor<4xf16>
  return %r : tensor<4xf16>
}
"""

MATMULS = """
func.func @matmul_f16(%a: tensor<4x32xf16>, %b: tensor<32x8xf16>) -> tensor<4x8xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x8xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
  %r = linalg.matmul ins(%a, %b : tensor<4x32xf16>, tensor<32x8xf16>)
                     outs(%init : tensor<4x8xf16>) -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}
func.func @matmul_f16_f32(%a: tensor<4x32xf16>, %b: tensor<32x8xf16>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x32xf16>, tensor<32x8xf16>)
                     outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
"""


def _accumulation_bound(terms: np.ndarray, axis: int) -> np.ndarray:
    """|error| of a sum of n terms, each partial sum rounded to f16 (unit roundoff 2^-11):
    at most n * 2^-11 * sum|terms| (the textbook bound, for any summation order)."""
    n = terms.shape[axis]
    return n * 2.0**-11 * np.abs(terms).sum(axis=axis)


def test_f16_reduction_within_accumulation_bound(ireelab_module, iree_call):
    x = np.random.default_rng(11).uniform(-2, 2, (4, 64)).astype(np.float16)
    exact = x.astype(np.float64).sum(axis=1)
    bound = _accumulation_bound(x.astype(np.float64), axis=1)
    ours = ireelab_module(REDUCTION).row_sums(x)
    assert ours.dtype == np.float16
    assert (np.abs(ours.astype(np.float64) - exact) <= bound).all()
    theirs = iree_call(REDUCTION, "row_sums", x)[0]
    assert (np.abs(ours.astype(np.float64) - theirs.astype(np.float64)) <= 2 * bound).all()


def test_f16_matmuls(ireelab_module, iree_call):
    rng = np.random.default_rng(5)
    a = rng.uniform(-1, 1, (4, 32)).astype(np.float16)
    b = rng.uniform(-1, 1, (32, 8)).astype(np.float16)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    products = a.astype(np.float64)[:, :, None] * b.astype(np.float64)[None, :, :]
    module = ireelab_module(MATMULS)
    half = module.matmul_f16(a, b)
    assert half.dtype == np.float16
    assert (np.abs(half - exact) <= _accumulation_bound(products, axis=1) * 2).all()
    single = module.matmul_f16_f32(a, b)  # f16 loads, f32 accumulation (extf in the body)
    assert single.dtype == np.float32
    np.testing.assert_allclose(single, exact, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(single, iree_call(MATMULS, "matmul_f16_f32", a, b)[0], atol=1e-5)
    theirs = iree_call(MATMULS, "matmul_f16", a, b)[0]
    assert (np.abs(half - theirs.astype(np.float64)) <= _accumulation_bound(products, 1) * 2).all()
