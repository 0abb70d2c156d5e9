"""`--iree-llvmcpu-reassociate-fp-reductions` (`ConvertToNumbaPass`'s option): on by default,
as at IREE's -O2, kernels may reorder an f32 sum; off, a reduction gives the bits of the
sequential loop, which IREE's `associative_reordering.mlir` relies on."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

import ireelab

N = 4096
SUM_OF_SQUARES = f"""
func.func @sum_sq(%x: tensor<{N}xf32>) -> tensor<f32> {{
  %zero = arith.constant -0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                       iterator_types = ["reduction"]}}
      ins(%x : tensor<{N}xf32>) outs(%init : tensor<f32>) {{
  ^bb0(%a: f32, %acc: f32):
    %m = arith.mulf %a, %a : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  }} -> tensor<f32>
  return %r : tensor<f32>
}}
"""


def _data() -> np.ndarray:
    # magnitudes spread over six decades, so the order of the additions shows in the bits
    rng = np.random.default_rng(7)
    return (rng.standard_normal(N) * 10.0 ** rng.integers(-3, 3, N)).astype(np.float32)


def _sequential_sum_of_squares(x: np.ndarray) -> np.float32:
    # np.cumsum adds in order (np.sum is pairwise); each product is rounded to f32 first
    return np.cumsum(x * x, dtype=np.float32)[-1]


def test_off_keeps_the_loop_order_bit_for_bit():
    module = ireelab.compile(SUM_OF_SQUARES, reassociate_fp_reductions=False)
    x = _data()
    got = np.asarray(module.sum_sq(x))
    assert got.tobytes() == np.float32(_sequential_sum_of_squares(x)).tobytes()


def test_off_drops_reassoc_from_the_kernels_jit_options():
    # neither side contracts a multiply and an add into an FMA: IREE rounds the product first
    phase = "executable-targets"
    off = ireelab.compile(SUM_OF_SQUARES, phase, reassociate_fp_reductions=False).ir()
    on = ireelab.compile(SUM_OF_SQUARES, phase).ir()
    assert "fastmath={'nsz', 'arcp'}" in off and "reassoc" not in off
    assert "fastmath={'reassoc', 'nsz', 'arcp'}" in on and "contract" not in on + off


def test_on_is_the_default_and_still_close_to_numpy():
    module = ireelab.compile(SUM_OF_SQUARES)
    x = _data()
    got = np.asarray(module.sum_sq(x))
    want = np.sum(x.astype(np.float64) ** 2)
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_compile_tool_takes_irees_flag(tmp_path):
    source = tmp_path / "sum.mlir"
    source.write_text(SUM_OF_SQUARES)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "ireelab.tools.compile",
            str(source),
            "--iree-llvmcpu-reassociate-fp-reductions=false",
            "--compile-to=executable-targets",
        ],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert "fastmath={'nsz', 'arcp'}" in out.stdout
