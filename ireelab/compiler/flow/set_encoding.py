"""SetEncodingPass (`iree-dispatch-creation-set-encoding`): contraction operands get encodings.

Runs only with `--iree-opt-data-tiling`. Mirrors IREE's DispatchCreation/SetEncoding.cpp: each
`linalg.matmul` (outside dispatches, static shapes, one element type) reads its lhs and rhs
through `iree_encoding.set_encoding` and writes an encoded result that
`iree_encoding.unset_encoding` turns back into a plain tensor; a zero-filled `tensor.empty`
accumulator is rebuilt encoded, as IREE does, instead of being re-encoded. The encoding records
the operand's role, the matmul's element types, maps and loop sizes; it does not pick a layout:
`MaterializeHomogeneousEncodingsPass` does that for the target.

An operand stored transposed (`indexing_maps` with `(d2, d0)` for the lhs or `(d1, d2)` for the
rhs, as `PropagateLinalgTransposePass` folds a `linalg.transpose` into the matmul) keeps its maps
in the encoding, as IREE's `user_indexing_maps` do.

Not modelled: batch_matmul, matvec and generic contractions; narrow-M/N hints
(`iree-dispatch-creation-data-tiling-narrow...`); dynamic shapes.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.flow import structured as st
from ireelab.compiler.flow.dispatch_utils import is_outside_dispatch
from ireelab.diagnostics import copy_location
from ireelab.dialects.iree_encoding import EncodingAttr, SetEncodingOp, UnsetEncodingOp
from ireelab.dialects.linalg_ext import MatmulOp


def _encoded(value: SSAValue, encoding: EncodingAttr) -> TensorType:
    t = value.type
    return TensorType(t.element_type, t.get_shape(), encoding)


def _encode_accumulator(init: SSAValue, encoding: EncodingAttr, point: InsertPoint) -> SSAValue:
    """A fill of a `tensor.empty` is rebuilt on an encoded empty; anything else is encoded."""
    fill = init.owner
    if isinstance(fill, linalg_ops.FillOp) and isinstance(fill.outputs[0].owner, tensor.EmptyOp):
        encoded = _encoded(init, encoding)
        empty = tensor.EmptyOp([], encoded)
        new_fill = linalg_ops.FillOp([fill.inputs[0]], [empty.tensor], [encoded])
        Rewriter.insert_op([empty, new_fill], point)
        return new_fill.results[0]
    op = SetEncodingOp(init, _encoded(init, encoding))
    Rewriter.insert_op(op, point)
    return op.result


LHS_LAYOUTS = {(0, 2): False, (2, 0): True}
"""Dims of the lhs map -> whether the lhs is stored transposed (`k x m`)."""
RHS_LAYOUTS = {(2, 1): False, (1, 2): True}
"""Dims of the rhs map -> whether the rhs is stored transposed (`n x k`, matmul_transpose_b)."""


def _dims(map_) -> tuple[int, ...]:
    return tuple(getattr(e, "position", -1) for e in map_.results)


def operand_layouts(op: MatmulOp) -> tuple[bool, bool] | None:
    """(lhs transposed, rhs transposed) of a matmul whose maps data tiling handles."""
    lhs, rhs, out = st.indexing_maps(op)
    if _dims(out) != (0, 1) or _dims(lhs) not in LHS_LAYOUTS or _dims(rhs) not in RHS_LAYOUTS:
        return None
    return LHS_LAYOUTS[_dims(lhs)], RHS_LAYOUTS[_dims(rhs)]


def is_data_tiling_candidate(op) -> bool:
    if not isinstance(op, MatmulOp) or not is_outside_dispatch(op):
        return False
    if operand_layouts(op) is None:
        return False  # broadcasting or other maps: not modelled
    values = [*op.inputs, *op.outputs]
    if any(not isinstance(v.type, TensorType) or -1 in v.type.get_shape() for v in values):
        return False
    return len({v.type.element_type for v in values}) == 1


def set_encoding(op: MatmulOp) -> None:
    maps = [AffineMapAttr(m) for m in st.indexing_maps(op)]
    types = [v.type.element_type for v in (*op.inputs, *op.outputs)]
    sizes = st.loop_ranges(op)
    point = InsertPoint.before(op)
    operands = []
    for index, value in enumerate(op.inputs):
        encode = SetEncodingOp(value, _encoded(value, EncodingAttr(index, types, maps, sizes)))
        Rewriter.insert_op(encode, point)
        operands.append(encode.result)
    result_encoding = EncodingAttr(2, types, maps, sizes)
    init = _encode_accumulator(op.outputs[0], result_encoding, point)
    encoded = MatmulOp(operands, [init], [_encoded(op.results[0], result_encoding)])
    encoded.indexing_maps = op.indexing_maps
    unset = UnsetEncodingOp(encoded.results[0], op.results[0].type)
    Rewriter.insert_op([encoded, unset], point)
    copy_location(op, encoded)
    op.results[0].replace_all_uses_with(unset.result)
    Rewriter.erase_op(op)


@dataclass(frozen=True)
class SetEncodingPass(ModulePass):
    name = "iree-dispatch-creation-set-encoding"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for matmul in [o for o in op.walk() if is_data_tiling_candidate(o)]:
            set_encoding(matmul)
