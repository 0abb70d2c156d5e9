"""ConvertBatchMatmulToMatmulPass (`iree-global-opt-convert-batch-matmul-to-matmul`).

Mirrors IREE's GlobalOptimization/ConvertBatchMatmulToMatmul.cpp: a `linalg.batch_matmul`
whose batch size is 1 is a plain matmul; its operands are reshaped to drop the unit batch
dimension and the result reshaped back, so dispatch formation and codegen see `linalg.matmul`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp, TensorType, i64
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.flow.dispatch_utils import is_outside_dispatch
from ireelab.dialects.linalg_ext import BatchMatmulOp, MatmulOp

_DROP_BATCH = ArrayAttr(
    [ArrayAttr([IntegerAttr(0, i64), IntegerAttr(1, i64)]), ArrayAttr([IntegerAttr(2, i64)])]
)


def collapse_batch(value: SSAValue) -> tensor.CollapseShapeOp:
    t = value.type
    shape = t.get_shape()
    result = TensorType(t.get_element_type(), shape[1:])
    return tensor.CollapseShapeOp.create(
        operands=[value], result_types=[result], properties={"reassociation": _DROP_BATCH}
    )


def convert(op: BatchMatmulOp) -> None:
    lhs, rhs = (collapse_batch(v) for v in op.inputs)
    acc = collapse_batch(op.outputs[0])
    matmul = MatmulOp([lhs.result, rhs.result], [acc.result])
    out_type = op.res[0].type
    expand = tensor.ExpandShapeOp(matmul.res[0], [], _DROP_BATCH, out_type.get_shape(), out_type)
    Rewriter.insert_op([lhs, rhs, acc, matmul], InsertPoint.before(op))
    Rewriter.replace_op(op, expand)


@dataclass(frozen=True)
class ConvertBatchMatmulToMatmulPass(ModulePass):
    name = "iree-global-opt-convert-batch-matmul-to-matmul"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for candidate in [o for o in op.walk() if isinstance(o, BatchMatmulOp)]:
            shape = candidate.outputs[0].type.get_shape()
            if shape[0] == 1 and is_outside_dispatch(candidate):
                convert(candidate)
