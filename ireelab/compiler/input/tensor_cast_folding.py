"""Folds of `tensor.cast` that MLIR's canonicalizer applies and xDSL's lacks (`CastOp::fold`
and `ChainedTensorCast` in MLIR's TensorOps.cpp):

    %b = tensor.cast %a : tensor<2x3xf32> to tensor<2x3xf32>      ->  %a
    %b = tensor.cast %a : tensor<2x3xf32> to tensor<2x?xf32>
    %c = tensor.cast %b : tensor<2x?xf32> to tensor<2x3xf32>      ->  %a

A cast changes only how much of the shape the type states, never the data, so a chain back to
the source's own type is the source. (Casts that leave a shape dynamic need dynamic shapes,
which ireelab's later stages do not model yet.)
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import ModuleOp
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
            continue
        op.dest.replace_all_uses_with(source)
        Rewriter.erase_op(op)
        changed = True
    return changed
