"""`linalg.index` keeps counting the right loop when Flow rewrites the loops around it.

Two passes renumbered a generic's loops without its `linalg.index` ops: FoldUnitExtentDimsPass
(a 1x1x4x6 resize kernel kept `linalg.index 2` on a 2-loop op, and CollapseDimensionsPass then
failed with `KeyError: 2` on ONNX resize and conv-transpose node tests) and elementwise fusion
through a transposing map (the producer's index counted the consumer's loops in the wrong
order: a silent miscompile). Each program is compared with numpy (exact: integer-valued f32).
"""

from __future__ import annotations

import numpy as np
import pytest
from onnx_node_import import import_to_input_phase, load_node_test, needs_onnx_import

import ireelab

# The resize pattern: unit outer loops, the kernel reads the two inner loops' indices.
UNIT_LOOPS_READ_BY_INDEX = """
func.func @f(%a: tensor<1x1x4x6xf32>) -> tensor<1x1x4x6xf32> {
  %c10 = arith.constant 10 : index
  %e = tensor.empty() : tensor<1x1x4x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a : tensor<1x1x4x6xf32>) outs(%e : tensor<1x1x4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %k = arith.muli %i, %c10 : index
    %s = arith.addi %k, %j : index
    %t = arith.addi %s, %n : index
    %v = arith.index_cast %t : index to i64
    %f = arith.sitofp %v : i64 to f32
    %y = arith.addf %f, %x : f32
    linalg.yield %y : f32
  } -> tensor<1x1x4x6xf32>
  return %r : tensor<1x1x4x6xf32>
}
"""

# A producer that writes 10*i + j over 2x3, read transposed by an elementwise consumer.
INDEX_PRODUCER_READ_TRANSPOSED = """
func.func @f(%a: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %c10 = arith.constant 10 : index
  %e = tensor.empty() : tensor<2x3xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<2x3xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.muli %i, %c10 : index
    %s = arith.addi %k, %j : index
    %v = arith.index_cast %s : index to i64
    %f = arith.sitofp %v : i64 to f32
    linalg.yield %f : f32
  } -> tensor<2x3xf32>
  %e2 = tensor.empty() : tensor<3x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %a : tensor<2x3xf32>, tensor<3x2xf32>) outs(%e2 : tensor<3x2xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
"""


def _ten_i_plus_j(rows: int, cols: int) -> np.ndarray:
    return (10 * np.arange(rows)[:, None] + np.arange(cols)[None, :]).astype(np.float32)


def test_unit_loops_dropped_under_linalg_index():
    module = ireelab.compile(UNIT_LOOPS_READ_BY_INDEX, device="local-sync")
    a = np.random.default_rng(0).integers(-5, 5, size=(1, 1, 4, 6)).astype(np.float32)
    np.testing.assert_array_equal(module.f(a), a + _ten_i_plus_j(4, 6))
    flow = ireelab.compile(UNIT_LOOPS_READ_BY_INDEX, compile_to="flow").ir()
    # The kernel runs over the collapsed 24 elements and recovers i and j from the index.
    assert "elementwise_24_f32" in flow
    assert "linalg.index 2" not in flow and "linalg.index 3" not in flow


def test_index_producer_fused_through_a_transpose():
    module = ireelab.compile(INDEX_PRODUCER_READ_TRANSPOSED, device="local-sync")
    a = np.random.default_rng(1).integers(-5, 5, size=(3, 2)).astype(np.float32)
    np.testing.assert_array_equal(module.f(a), a + _ten_i_plus_j(2, 3).T)
    flow = ireelab.compile(INDEX_PRODUCER_READ_TRANSPOSED, compile_to="flow").ir()
    assert flow.count("flow.dispatch @") == 1  # still fused into one dispatch


@needs_onnx_import
@pytest.mark.parametrize("name", ["test_convtranspose", "test_convtranspose_dilations"])
def test_onnx_conv_transpose_compiles_and_matches(name, tmp_path):
    model, inputs, expected = load_node_test(name)
    module = ireelab.compile(str(import_to_input_phase(model, tmp_path, name)))
    got = getattr(module, name)(*inputs)
    np.testing.assert_allclose(got, expected[0], rtol=1e-5, atol=1e-5)


@needs_onnx_import
def test_onnx_resize_compiles_and_matches(tmp_path):
    """Resize's host-side scale check (`cf.assert` on an f32 compare) goes with IREE's
    StripDebugOpsPass, so the program compiles and matches ONNX's expected output."""
    name = "test_resize_upsample_scales_nearest"
    model, inputs, expected = load_node_test(name)
    module = ireelab.compile(str(import_to_input_phase(model, tmp_path, name)))
    got = getattr(module, name)(*inputs)
    np.testing.assert_array_equal(got, expected[0])  # nearest: copied values, exact
