"""Golden tests of the GlobalOptimization passes that shape partitioning, one section per pass:
DetachElementwiseFromNamedOps, GeneralizeLinalgNamedOps, FoldUnitExtentDims,
ConvertBatchMatmulToMatmul, PropagateLinalgTranspose."""

from __future__ import annotations

import re

from flow_helpers import run

DETACH = """
func.func @acc(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
"""


def test_detach_accumulating_matmul() -> None:
    # C += A*B becomes fill(0) + matmul, then an elementwise add of the old C.
    text = str(run(DETACH, ["detach_elementwise_from_named_ops:DetachElementwiseFromNamedOpsPass"]))
    assert "linalg.fill" in text
    assert "outs(%c" not in text.split("linalg.matmul")[1].split("\n")[0]
    assert "arith.addf" in text.split("linalg.matmul")[1]


def test_detach_leaves_filled_matmul() -> None:
    # A matmul into a fill is already in the form dispatch formation wants.
    program = DETACH.replace("outs(%c : tensor<4x2xf32>)", "outs(%f : tensor<4x2xf32>)").replace(
        "  %r =",
        "  %z = arith.constant 0.0 : f32\n  %e = tensor.empty() : tensor<4x2xf32>\n"
        "  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>\n  %r =",
    )
    text = str(
        run(program, ["detach_elementwise_from_named_ops:DetachElementwiseFromNamedOpsPass"])
    )
    assert text.count("linalg.generic") == 0


def test_detach_sizes_the_zero_accumulator_by_its_dims() -> None:
    # A `?` accumulator (ONNX's conv bias broadcast over a `?` batch): the zero fill that
    # replaces it is a `tensor.empty` of its size, never a `?` type with no size operand.
    program = DETACH.replace("4x8", "?x8").replace("4x2", "?x2")
    text = str(
        run(program, ["detach_elementwise_from_named_ops:DetachElementwiseFromNamedOpsPass"])
    )
    assert "tensor.empty() : tensor<?x2xf32>" not in text
    (empty,) = [line for line in text.splitlines() if "tensor.empty" in line]
    assert re.search(r"tensor\.dim %c, %\w+ : tensor<\?x2xf32>", text)
    assert re.search(r"tensor\.empty\(%\w+\) : tensor<\?x2xf32>", empty)


GENERALIZE = """
func.func @g(%x: tensor<1x8x8x4xf32>, %k: tensor<3x3x4x4xf32>, %t: tensor<4x6xf32>, %m: tensor<6x4xf32>) -> (tensor<1x6x6x4xf32>, tensor<6x4xf32>, tensor<4x4xf32>) {
  %e = tensor.empty() : tensor<1x6x6x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %k : tensor<1x8x8x4xf32>, tensor<3x3x4x4xf32>) outs(%e : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %e2 = tensor.empty() : tensor<6x4xf32>
  %tr = linalg.transpose ins(%t : tensor<4x6xf32>) outs(%e2 : tensor<6x4xf32>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<4x4xf32>
  %mm = linalg.matmul ins(%t, %m : tensor<4x6xf32>, tensor<6x4xf32>) outs(%e3 : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %c, %tr, %mm : tensor<1x6x6x4xf32>, tensor<6x4xf32>, tensor<4x4xf32>
}
"""


def test_generalize_conv_and_transpose_not_matmul() -> None:
    # Convolutions and transposes become generics; contractions stay named (IREE's default).
    text = str(run(GENERALIZE, ["generalize_linalg_named_ops:GeneralizeLinalgNamedOpsPass"]))
    assert "linalg.conv_2d_nhwc_hwcf" not in text and "linalg.transpose" not in text
    assert "linalg.matmul" in text
    assert "(d0, (d1 + d4), (d2 + d5), d6)" in text
    assert text.count("linalg.generic") == 2


def test_fold_unit_extent_dims_drops_batch() -> None:
    # The batch-1 conv generic loses its unit loop; its input is collapsed to 3-D.
    text = str(
        run(
            GENERALIZE,
            [
                "generalize_linalg_named_ops:GeneralizeLinalgNamedOpsPass",
                "fold_unit_extent_dims:FoldUnitExtentDimsPass",
            ],
        )
    )
    collapse = text.replace(" : i64", "")  # xDSL prints typed indices in reassociations
    assert (
        "tensor.collapse_shape %x [[0, 1], [2], [3]] : tensor<1x8x8x4xf32> into tensor<8x8x4xf32>"
        in collapse
    )
    assert "((d0 + d3), (d1 + d4), d5)" in text
    assert "tensor.expand_shape" in text


BATCH_BROADCAST = """
func.func @bb(%a: tensor<4x8x16xf32>, %w: tensor<16x32xf32>) -> tensor<4x8x32xf32> {
  %z = arith.constant 0.0 : f32
  %eb = tensor.empty() : tensor<4x16x32xf32>
  %b = linalg.broadcast ins(%w : tensor<16x32xf32>) outs(%eb : tensor<4x16x32xf32>) dimensions = [0]
  %e = tensor.empty() : tensor<4x8x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<4x8x16xf32>, tensor<4x16x32xf32>) outs(%f : tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  return %r : tensor<4x8x32xf32>
}
"""


def test_batch_matmul_of_broadcast_weight_is_matmul() -> None:
    text = str(
        run(BATCH_BROADCAST, ["convert_batch_matmul_to_matmul:ConvertBatchMatmulToMatmulPass"])
    )
    assert "linalg.batch_matmul" not in text
    assert "linalg.matmul ins" in text and "tensor<32x16xf32>, tensor<16x32xf32>" in text


def test_batch_matmul_without_broadcast_stays() -> None:
    program = BATCH_BROADCAST.replace("ins(%a, %b :", "ins(%a, %eb :")
    text = str(run(program, ["convert_batch_matmul_to_matmul:ConvertBatchMatmulToMatmulPass"]))
    assert "linalg.batch_matmul" in text


TRANSPOSE = """
func.func @t(%a: tensor<8x4xf32>, %b: tensor<8x4xf32>, %c: tensor<4x8xf32>) -> (tensor<4x4xf32>, tensor<4x8xf32>) {
  %z = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<4x8xf32>
  %ta = linalg.transpose ins(%a : tensor<8x4xf32>) outs(%et : tensor<4x8xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm = linalg.matmul ins(%ta, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %tb = linalg.transpose ins(%b : tensor<8x4xf32>) outs(%et : tensor<4x8xf32>) permutation = [1, 0]
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%tb, %c : tensor<4x8xf32>, tensor<4x8xf32>) outs(%et : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %mm, %s : tensor<4x4xf32>, tensor<4x8xf32>
}
"""


def test_transpose_folds_into_matmul_and_generic() -> None:
    text = str(run(TRANSPOSE, ["propagate_linalg_transpose:PropagateLinalgTransposePass"]))
    assert "linalg.transpose" not in text
    # matmul_transpose_a, as IREE 3.13 prints it
    assert "linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>" in text
    assert "ins(%a, %b" in text
    # the add reads %b through a transposed map
    assert "affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>" in text
    assert "ins(%b, %c" in text
