"""`linalg.matmul` on i8 x i8 -> i32: the named op's body sign-extends both operands before the
multiply-accumulate (`arith.extsi` to i32), runs on the loop path (the BLAS micro-kernel is
float only), and must be exact: compared with numpy's int32 matmul, numpy eager and the real
IREE, with operands at the i8 extremes so every product and the sums use the full range."""

from __future__ import annotations

import numpy as np
import pytest

from ireelab import eager

MATMUL = """
func.func @matmul_i8(%a: tensor<6x40xi8>, %b: tensor<40x5xi8>) -> tensor<6x5xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<6x5xi32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<6x5xi32>) -> tensor<6x5xi32>
  %r = linalg.matmul ins(%a, %b : tensor<6x40xi8>, tensor<40x5xi8>)
                     outs(%init : tensor<6x5xi32>) -> tensor<6x5xi32>
  return %r : tensor<6x5xi32>
}
"""


@pytest.fixture(scope="module")
def operands() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(8)
    a = rng.integers(-128, 128, (6, 40)).astype(np.int8)
    b = rng.integers(-128, 128, (40, 5)).astype(np.int8)
    a[0, :] = -128  # row 0 x column 0: 40 * 16384, the largest sum
    b[:, 0] = -128
    a[1, :] = 127  # 127 * -128: the most negative products
    return a, b


def test_exact_against_numpy(ireelab_module, operands):
    a, b = operands
    got = ireelab_module(MATMUL).matmul_i8(a, b)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, a.astype(np.int32) @ b.astype(np.int32))
    assert got[0, 0] == 40 * 128 * 128


def test_eager_and_iree_agree(ireelab_module, iree_call, operands):
    a, b = operands
    got = ireelab_module(MATMUL).matmul_i8(a, b)
    np.testing.assert_array_equal(got, eager.evaluate(MATMUL, "matmul_i8", a, b)[0])
    np.testing.assert_array_equal(got, iree_call(MATMUL, "matmul_i8", a, b)[0])


def test_dispatch_named_as_iree_names_it(ireelab_module):
    exports = ireelab_module(MATMUL).trace
    final = exports.stage("flow")[-1].ir
    assert "@matmul_i8_dispatch_0_matmul_6x5x40_i8xi8xi32" in final


def test_loops_sign_extend_before_multiplying(ireelab_module):
    """The matmul's scalar body in the loop IR: both i8 loads sign-extended, then muli and
    addi on i32 (what `linalg.matmul` means for mixed element types)."""
    trace = ireelab_module(MATMUL).trace
    record = next(r for r in trace if r.name == "ConvertLinalgToLoopsPass")
    ops = [
        line.split(" = ")[1].split(" ")[0] for line in record.ir.splitlines() if " = arith." in line
    ]
    body = ops[ops.index("arith.extsi") :][:4]
    assert body == ["arith.extsi", "arith.extsi", "arith.muli", "arith.addi"]
    assert record.ir.count(": i8 to i32") == 2
