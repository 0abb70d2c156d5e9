"""`CanonicalizerPass` walks once for its folds (`WalkedOps`): each fold is handed the ops of
its kinds in walk order, subclasses included, until a fold changes the IR; after that the
folds walk again themselves."""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.linalg.ops import TransposeOp

from ireelab.compiler.input.common import WalkedOps
from ireelab.compiler.source import parse_source

SOURCE = """
func.func @f(%a: tensor<4x8xf32>, %i: index) -> (tensor<8x4xf32>, index, tensor<2x8xf32>) {
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  %d = tensor.dim %a, %i : tensor<4x8xf32>
  %s = tensor.extract_slice %a[0, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
  %e2 = tensor.empty() : tensor<8x4xf32>
  return %t, %d, %s : tensor<8x4xf32>, index, tensor<2x8xf32>
}
"""


def test_walked_ops_by_kind_in_walk_order() -> None:
    module = parse_source(SOURCE, "w.mlir")
    walked = list(module.walk())
    ops = WalkedOps(module)
    empties = ops.of(tensor.EmptyOp)
    assert empties == [o for o in walked if isinstance(o, tensor.EmptyOp)] and len(empties) == 2
    transposes = ops.of(TransposeOp)  # ireelab's linalg.transpose is a subclass of xDSL's
    assert len(transposes) == 1 and transposes[0] is next(
        o for o in walked if isinstance(o, TransposeOp)
    )
    slices = ops.of(tensor.ExtractSliceOp | tensor.InsertSliceOp)
    assert [o.name for o in slices] == ["tensor.extract_slice"]
    assert ops.of(tensor.DimOp, True) is None  # an earlier fold changed the IR: walk again
