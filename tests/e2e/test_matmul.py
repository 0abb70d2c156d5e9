"""The founding note's matmul end to end, at the shapes issue 2 names, against numpy.

Tolerance: f32 results of a K-long dot product; rtol 1e-5 and atol 1e-5 * K cover the
difference between summation orders (ireelab's loops vs numpy's BLAS).
"""

from __future__ import annotations

import numpy as np
import pytest

MATMUL = """
func.func @matmul(%lhs: tensor<{m}x{k}xf32>, %rhs: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<{m}x{n}xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %2 = linalg.matmul ins(%lhs, %rhs : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%1 : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %2 : tensor<{m}x{n}xf32>
}}
"""


@pytest.mark.parametrize("m,k,n", [(2, 4, 2), (1, 1, 1), (33, 17, 65), (128, 256, 64)])
def test_matmul_matches_numpy(compile_cached, m, k, n):
    mod = compile_cached(MATMUL.format(m=m, k=k, n=n))
    rng = np.random.default_rng(m * 1000 + k)
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((k, n), dtype=np.float32)
    result = mod.matmul(a, b)
    assert result.shape == (m, n) and result.dtype == np.float32
    np.testing.assert_allclose(result, a @ b, rtol=1e-5, atol=1e-5 * k)


def test_seed_matmul_exact_small_integers(compile_cached, reference_dir):
    """The note's 2x4x2 program on small integers is exact in f32."""
    mod = compile_cached((reference_dir / "programs" / "a0_matmul_tiny.mlir").read_text())
    a = np.arange(8, dtype=np.float32).reshape(2, 4)
    b = np.arange(8, dtype=np.float32).reshape(4, 2)
    np.testing.assert_array_equal(mod.matmul(a, b), a @ b)


def test_local_task_and_local_sync_agree_bit_for_bit(compile_cached):
    source = MATMUL.format(m=33, k=17, n=65)
    rng = np.random.default_rng(7)
    a = rng.standard_normal((33, 17), dtype=np.float32)
    b = rng.standard_normal((17, 65), dtype=np.float32)
    sync = compile_cached(source).matmul(a, b, device="local-sync")
    task = compile_cached(source).matmul(a, b, device="local-task")
    np.testing.assert_array_equal(sync, task)
