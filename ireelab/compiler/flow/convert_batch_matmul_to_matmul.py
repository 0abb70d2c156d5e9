"""ConvertBatchMatmulToMatmulPass (`iree-global-opt-convert-batch-matmul-to-matmul`).

Mirrors IREE's GlobalOptimization/ConvertBatchMatmulToMatmul.cpp: a `linalg.batch_matmul`
whose right-hand side is one 2-D weight broadcast along the batch dimension (by a
`linalg.broadcast` or its generic form) multiplies every batch by the same matrix, so it is a
single matmul of the batch-flattened left-hand side: `[B, M, K] -> [B*M, K]`, times the
weight, reshaped back to `[B, M, N]`. Other batch matmuls (a batch-1 one included) stay.
A `?` batch works the same: the flattened rows are `?` (their size the batch's dim times M,
computed where Flow needs it) and the expand back takes the batch's dim as its output size, so
a dynamic batch gives IREE's one `matmul_Dx..` dispatch as a static one does.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    IntegerAttr,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.flow import structured as st
from ireelab.compiler.flow.dispatch_utils import is_outside_dispatch
from ireelab.compiler.util.dynamic_dims import find_dynamic_dims, multiply_sizes
from ireelab.dialects.linalg_ext import BatchMatmulOp, MatmulOp

_MERGE_BATCH = ArrayAttr(
    [ArrayAttr([IntegerAttr(0, i64), IntegerAttr(1, i64)]), ArrayAttr([IntegerAttr(2, i64)])]
)


def broadcast_weight(op: Operation | None) -> SSAValue | None:
    """The 2-D weight that `op` broadcasts along dim 0 to 3-D, if that is all it does."""
    if isinstance(op, linalg.BroadcastOp):
        return op.input if list(op.dimensions.get_values()) == [0] else None
    if (
        not st.is_elementwise_generic(op)
        or len(st.inputs(op)) != 1
        or not st.body_is_yield_only(op)
    ):
        return None
    if op.body.block.last_op.operands[0] is not op.body.block.args[0]:
        return None
    in_map, out_map = st.indexing_maps(op)
    want_in = AffineMap(3, 0, (AffineDimExpr(1), AffineDimExpr(2)))
    return st.inputs(op)[0] if in_map == want_in and st.is_identity(out_map) else None


def _collapse(value: SSAValue) -> tensor.CollapseShapeOp:
    b, m, n = value.type.get_shape()
    rows = DYNAMIC_INDEX if DYNAMIC_INDEX in (b, m) else b * m
    result = TensorType(value.type.get_element_type(), [rows, n])
    return tensor.CollapseShapeOp.create(
        operands=[value], result_types=[result], properties={"reassociation": _MERGE_BATCH}
    )


def _collapsed_init(value: SSAValue, before: Operation) -> list[Operation]:
    """The accumulator `[B*M, N]`: a fill of an empty used only here is refilled at the
    collapsed shape (MLIR's FoldFillWithTensorReshape and FoldEmptyTensorWithReshapeOp, the
    rows' size one `arith.muli` the collapsed operand's shape then reuses), so the matmul's
    fill is cloned into its dispatch; any other accumulator is collapsed."""
    fill = value.owner
    empty = fill.outputs[0].owner if isinstance(fill, linalg.FillOp) else None
    if not isinstance(empty, tensor.EmptyOp) or st.use_count(value) != 1:
        return [_collapse(value)]
    b, m, n = value.type.get_shape()
    dims = iter(empty.dynamic_sizes)
    factors = [next(dims) for d in (b, m) if d == DYNAMIC_INDEX]
    static = prod(d for d in (b, m) if d != DYNAMIC_INDEX)
    sizes = [multiply_sizes(factors, static, before)] if factors else []
    sizes += list(dims)  # N's, when `?`
    new_empty = tensor.EmptyOp(sizes, _collapse(value).result.type)
    new_fill = linalg.FillOp(fill.inputs, [new_empty.tensor], [new_empty.tensor.type])
    return [new_empty, new_fill]


def _weight_map(op: BatchMatmulOp) -> AffineMap | None:
    """The matmul's map of the weight: (k, n) by default, (n, k) for a batch matmul whose
    `indexing_maps` read B transposed; None for any other maps (left as a batch matmul)."""
    b, m, n, k = (AffineDimExpr(i) for i in range(4))
    lhs, rhs, out = op.get_default_indexing_maps()
    if lhs != AffineMap(4, 0, (b, m, k)) or out != AffineMap(4, 0, (b, m, n)):
        return None
    mm, nn, kk = (AffineDimExpr(i) for i in range(3))
    if rhs == AffineMap(4, 0, (b, k, n)):
        return AffineMap(3, 0, (kk, nn))
    if rhs == AffineMap(4, 0, (b, n, k)):
        return AffineMap(3, 0, (nn, kk))
    return None


def convert(
    op: BatchMatmulOp, weight: SSAValue, weight_map: AffineMap, sizes: list[SSAValue]
) -> None:
    init = _collapsed_init(op.outputs[0], op)
    act = _collapse(op.inputs[0])
    matmul = MatmulOp([act.result, weight], [init[-1].results[0]])
    mm, nn, kk = (AffineDimExpr(i) for i in range(3))
    maps = (AffineMap(3, 0, (mm, kk)), weight_map, AffineMap(3, 0, (mm, nn)))
    matmul.indexing_maps = ArrayAttr(AffineMapAttr(m) for m in maps)
    out_type = op.res[0].type
    expand = tensor.ExpandShapeOp(
        matmul.res[0], sizes, _MERGE_BATCH, out_type.get_shape(), out_type
    )
    old_init = op.outputs[0].owner
    Rewriter.insert_op([act, *init, matmul], InsertPoint.before(op))
    Rewriter.replace_op(op, expand)
    if isinstance(old_init, linalg.FillOp) and st.use_count(old_init.results[0]) == 0:
        empty = old_init.outputs[0].owner
        Rewriter.erase_op(old_init)
        if isinstance(empty, tensor.EmptyOp) and st.use_count(empty.tensor) == 0:
            Rewriter.erase_op(empty)


@dataclass(frozen=True)
class ConvertBatchMatmulToMatmulPass(ModulePass):
    name = "iree-global-opt-convert-batch-matmul-to-matmul"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for candidate in [o for o in op.walk() if isinstance(o, BatchMatmulOp)]:
            weight = broadcast_weight(candidate.inputs[1].owner)
            weight_map = _weight_map(candidate)
            sizes = find_dynamic_dims(candidate.outputs[0])
            if sizes is None:
                continue  # the `?` sizes the expand back needs are not known here
            if weight is not None and weight_map is not None and is_outside_dispatch(candidate):
                convert(candidate, weight, weight_map, sizes)
