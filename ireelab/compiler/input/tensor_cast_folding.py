"""Folds of `tensor.cast` that MLIR's canonicalizer applies and xDSL's lacks (`CastOp::fold`
and `ChainedTensorCast` in MLIR's TensorOps.cpp):

    %b = tensor.cast %a : tensor<2x3xf32> to tensor<2x3xf32>      ->  %a
    %b = tensor.cast %a : tensor<2x3xf32> to tensor<2x?xf32>
    %c = tensor.cast %b : tensor<2x?xf32> to tensor<2x3xf32>      ->  %a

A cast changes only how much of the shape the type states, never the data, so a chain back to
the source's own type is the source. A cast that only forgets sizes (`2x3` to `?x3`) and is
read by a linalg op as an input folds into that op, which reads the source instead (MLIR's
`FoldTensorCastProducerOp`, through `tensor::canFoldIntoConsumerOp`); the casts left become
`flow.tensor.reshape` in ConvertTensorToFlowPass.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.rewriter import Rewriter


def fold_tensor_casts(module: ModuleOp) -> bool:
    """Fold every identity cast and cast chain back to its source type; True if any."""
    changed = False
    for op in list(module.walk()):
        if not isinstance(op, tensor.CastOp):
            continue
        source = op.source
        producer = source.owner
        if isinstance(producer, tensor.CastOp) and producer.source.type == op.dest.type:
            source = producer.source
        if source.type != op.dest.type:
            changed = _fold_into_linalg_inputs(op) or changed
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


def _fold_into_linalg_inputs(op: tensor.CastOp) -> bool:
    if not _forgets_sizes_only(op):
        return False
    changed = False
    for use in list(op.dest.uses):
        user = use.operation
        if isinstance(user, linalg.GenericOp) and use.index < len(user.inputs):
            user.operands[use.index] = op.source
            changed = True
    return changed
