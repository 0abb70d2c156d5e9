"""Folds of `tensor.cast` that MLIR's canonicalizer applies and xDSL's lacks (`CastOp::fold`
and `ChainedTensorCast` in MLIR's TensorOps.cpp):

    %b = tensor.cast %a : tensor<2x3xf32> to tensor<2x3xf32>      ->  %a
    %b = tensor.cast %a : tensor<2x3xf32> to tensor<2x?xf32>
    %c = tensor.cast %b : tensor<2x?xf32> to tensor<2x3xf32>      ->  %a

A cast changes only how much of the shape the type states, never the data, so a chain back to
the source's own type is the source. A cast that only forgets sizes (`2x3` to `?x3`) and is
read by a linalg op (a pack or unpack too) folds into that op, which reads the source instead
(MLIR's `FoldTensorCastProducerOp` and `FoldTensorCastPackOp`, through
`tensor::canFoldIntoConsumerOp`); when the op writes into
it (an `outs` operand), the op's tied result takes the static type and a cast after the op
gives its users the type they had:

    %i = tensor.cast %e : tensor<4x8xi32> to tensor<?x?xi32>
    %r = linalg.generic ... outs(%i : tensor<?x?xi32>) -> tensor<?x?xi32>
        ->  %s = linalg.generic ... outs(%e : tensor<4x8xi32>) -> tensor<4x8xi32>
            %r = tensor.cast %s : tensor<4x8xi32> to tensor<?x?xi32>

The casts left become `flow.tensor.reshape` in ConvertTensorToFlowPass.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, TensorType
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.diagnostics import copy_location
from ireelab.dialects.linalg_pack import PackOp, UnPackOp


def fold_tensor_casts(module: ModuleOp, ops: Iterable[Operation] | None = None) -> bool:
    """Fold every identity cast and cast chain back to its source type (the casts among `ops`,
    the ops under `module` in walk order, when given); True if any was folded into a linalg
    op (an identity cast is erased without counting)."""
    changed = False
    for op in list(module.walk() if ops is None else ops):
        if not isinstance(op, tensor.CastOp):
            continue
        source = op.source
        producer = source.owner
        if isinstance(producer, tensor.CastOp) and producer.source.type == op.dest.type:
            source = producer.source
        if source.type != op.dest.type:
            changed = _fold_into_linalg_ops(op) or changed
            continue
        op.dest.replace_all_uses_with(source)
        Rewriter.erase_op(op)
        changed = True
    return changed


def _forgets_sizes_only(op: tensor.CastOp) -> bool:
    """True if the source's type states every size the result's does (and maybe more)."""
    source, dest = op.source.type, op.dest.type
    if not isinstance(source, TensorType) or not isinstance(dest, TensorType):
        return False
    pairs = zip(source.get_shape(), dest.get_shape(), strict=True)
    return all(d == DYNAMIC_INDEX or s == d for s, d in pairs)


def _fold_into_linalg_ops(op: tensor.CastOp) -> bool:
    if not _forgets_sizes_only(op):
        return False
    changed = False
    for use in list(op.dest.uses):
        user = use.operation
        tied = _tied_result(user, use.index)
        if tied is None:
            continue
        user.operands[use.index] = op.source
        if tied >= 0:
            _retype_tied_result(op, user.results[tied])
        changed = True
    return changed


def _tied_result(user: Operation, index: int) -> int | None:
    """For operand `index` of a linalg op (a pack or unpack too: MLIR's FoldTensorCastPackOp),
    the result written into it, -1 for an input, None for any other op."""
    if isinstance(user, LinalgStructuredOperation):
        return index - len(user.inputs) if index >= len(user.inputs) else -1
    if isinstance(user, PackOp | UnPackOp) and index < 2:
        return 0 if index == 1 else -1
    return None


def _retype_tied_result(cast: tensor.CastOp, result: SSAValue) -> None:
    """The result tied to the `outs` operand the cast fed now has the cast's source type; a
    cast back keeps the type its users read."""
    old_type = result.type
    new_result = Rewriter.replace_value_with_new_type(result, cast.source.type)
    back = tensor.CastOp(new_result, old_type)
    copy_location(cast, back)
    Rewriter.insert_op(back, InsertPoint.after(new_result.owner))
    new_result.replace_uses_with_if(back.dest, lambda u: u.operation is not back)
