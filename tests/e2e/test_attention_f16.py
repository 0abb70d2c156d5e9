"""f16 `iree_linalg_ext.attention` / `online_attention` on numba-cpu, computed as IREE's CPU
lowering does (f16 inputs, f32 scores and accumulators, q * scale and p rounded to f16; see
`codegen/attention_to_loops.py`), against numpy in f64 and against the real IREE.

Tolerance, absolute 2e-3 on outputs that are weighted means of values in [-1, 1]: the
reference skips the two f16 roundings IREE makes, q * scale * log2(e) (relative 2^-11 on each
term of a score, |score| < 3 here, so under 1.5e-3 on a weight's exponent) and p before the
p @ v matmul (relative 2^-11, about 5e-4, on each weight, so under 5e-4 on the mean); IREE
itself rounds p against each key block's max, ireelab against the running max. Measured:
under 1e-4 from numpy, for ireelab and IREE alike.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest

ATOL = 2e-3
RNG = np.random.default_rng(17)

MAPS = """affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>,
      affine_map<(d0, d1, d2, d3, d4) -> ()>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>"""

ATTENTION = f"""
func.func @attention(%q: tensor<2x3x8xf16>, %k: tensor<2x9x8xf16>, %v: tensor<2x9x4xf16>, %m: tensor<2x3x9xf16>) -> tensor<2x3x4xf32> {{
  %scale = arith.constant 0.353553 : f16
  %init = tensor.empty() : tensor<2x3x4xf32>
  %o = "iree_linalg_ext.attention"(%q, %k, %v, %scale, %m, %init) <{{indexing_maps = [{MAPS}]}}> ({{
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  }}) : (tensor<2x3x8xf16>, tensor<2x9x8xf16>, tensor<2x9x4xf16>, f16, tensor<2x3x9xf16>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %o : tensor<2x3x4xf32>
}}
"""

# IREE 3.13 reads the indexing maps as properties: both programs are in the generic form.

# one online step from the identity outs, then acc / sum: attention without a mask
ONLINE = """
func.func @online(%q: tensor<3x8xf16>, %k: tensor<9x8xf16>, %v: tensor<9x4xf16>) -> tensor<3x4xf32> {
  %scale = arith.constant 0.353553 : f16
  %acc0 = tensor.empty() : tensor<3x4xf32>
  %row0 = tensor.empty() : tensor<3xf32>
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%acc0 : tensor<3x4xf32>) -> tensor<3x4xf32>
  %max = linalg.fill ins(%lowest : f32) outs(%row0 : tensor<3xf32>) -> tensor<3xf32>
  %sum = linalg.fill ins(%zero : f32) outs(%row0 : tensor<3xf32>) -> tensor<3xf32>
  %r:3 = "iree_linalg_ext.online_attention"(%q, %k, %v, %scale, %acc, %max, %sum) <{indexing_maps = [
      affine_map<(d1, d2, d3, d4) -> (d1, d2)>,
      affine_map<(d1, d2, d3, d4) -> (d3, d2)>,
      affine_map<(d1, d2, d3, d4) -> (d3, d4)>,
      affine_map<(d1, d2, d3, d4) -> ()>,
      affine_map<(d1, d2, d3, d4) -> (d1, d4)>,
      affine_map<(d1, d2, d3, d4) -> (d1)>,
      affine_map<(d1, d2, d3, d4) -> (d1)>]}> ({
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  }) : (tensor<3x8xf16>, tensor<9x8xf16>, tensor<9x4xf16>, f16, tensor<3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3x4xf32>, tensor<3xf32>, tensor<3xf32>)
  %e = tensor.empty() : tensor<3x4xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r#0, %r#2 : tensor<3x4xf32>, tensor<3xf32>) outs(%e : tensor<3x4xf32>) {
    ^bb0(%a: f32, %s: f32, %_: f32):
      %d = arith.divf %a, %s : f32
      linalg.yield %d : f32
  } -> tensor<3x4xf32>
  return %o : tensor<3x4xf32>
}
"""


def _half(*shape: int) -> np.ndarray:
    return RNG.uniform(-1, 1, shape).astype(np.float16)


def _attention(q, k, v, mask=None) -> np.ndarray:
    """softmax(q @ k^T * scale + mask) @ v in f64 from the f16 inputs (scale as f16)."""
    q, k, v = (x.astype(np.float64) for x in (q, k, v))
    s = q @ np.swapaxes(k, -1, -2) * float(np.float16(0.353553))
    if mask is not None:
        s = s + mask.astype(np.float64)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    return (w / w.sum(axis=-1, keepdims=True)) @ v


def _attention_case():
    q, k, v, m = _half(2, 3, 8), _half(2, 9, 8), _half(2, 9, 4), _half(2, 3, 9)
    return (q, k, v, m), _attention(q, k, v, m)


def _online_case():
    q, k, v = _half(3, 8), _half(9, 8), _half(9, 4)
    return (q, k, v), _attention(q, k, v)


CASES = {"attention": (ATTENTION, _attention_case), "online": (ONLINE, _online_case)}


@pytest.mark.parametrize("name", list(CASES))
def test_matches_numpy(compile_cached, name: str) -> None:
    source, make_case = CASES[name]
    args, expected = make_case()
    got = getattr(compile_cached(source), name)(*args)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=0, atol=ATOL)


@pytest.mark.iree
@pytest.mark.skipif(shutil.which("iree-compile") is None, reason="IREE not installed")
@pytest.mark.parametrize("name", list(CASES))
def test_matches_the_real_iree(compile_cached, name: str) -> None:
    from ireelab.iree import compile as iree_compile

    source, make_case = CASES[name]
    args, _ = make_case()
    ours = getattr(compile_cached(source), name)(*args)
    theirs = np.asarray(getattr(iree_compile(source, trace=False), name)(*args))
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=ATOL)


def test_f16_accumulators_are_refused_with_a_located_error() -> None:
    import ireelab
    from ireelab.diagnostics import CompileError

    source = ATTENTION.replace("x4xf32", "x4xf16")
    with pytest.raises(CompileError, match=r"f16 accumulators is not supported by numba-cpu"):
        ireelab.compile(source)
