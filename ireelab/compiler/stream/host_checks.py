"""ConvertToStreamPass's cases for what IREE's check tests put in host code: the
`util.optimization_barrier`s that keep their inputs from folding, and the `check.expect_*`
ops that read results on the host.

- A tensor behind a barrier is the resource of the tensor before it: folding is over once
  dispatches are formed (IREE keeps a barrier on the resource until the VM, where it does
  nothing). Scalars keep their barrier (the VM stage passes their registers through).
- Each tensor operand of a check op is exported to a `!hal.buffer_view` (IREE's
  GenericResourcePattern exports it to a tensor that the HAL stage maps to a buffer view):
  a cast to `external` and `stream.tensor.export`. An expected value that is a constant is
  exported where it lies (IREE first copies it into the external result buffer); the check
  module only reads it.
"""

from __future__ import annotations

from typing import Protocol

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.dialects import hal, stream, util

CONSTANT = stream.ResourceType("constant")


class HostConverter(Protocol):
    """What these conversions need from ConvertToStreamPass's host converter."""

    affinity: Attribute
    resources: dict

    def _lookup(self, op: Operation, value: SSAValue): ...

    def _erase_when_unused(self, op: Operation) -> None: ...


def convert_barrier(converter: HostConverter, op: util.OptimizationBarrierOp) -> None:
    """A tensor behind a barrier is the resource of the tensor before it: folding is over
    once dispatches are formed (IREE keeps a barrier on the resource until the VM, where
    it does nothing). Scalars keep their barrier."""
    kept_operands, kept_results = [], []
    for operand, result in zip(op.operands_, op.results_, strict=True):
        if isinstance(operand.type, TensorType):
            converter.resources[result] = converter._lookup(op, operand)
        else:
            kept_operands.append(operand)
            kept_results.append(result)
    if len(kept_operands) == len(op.operands_):
        return
    if kept_operands:
        kept = util.OptimizationBarrierOp(*kept_operands)
        Rewriter.insert_op(kept, InsertPoint.before(op))
        for old, new in zip(kept_results, kept.results_, strict=True):
            old.replace_all_uses_with(new)
    converter._erase_when_unused(op)


def export_check_operands(converter: HostConverter, op: Operation) -> None:
    """`check.expect_*` on tensors reads them on the host: each operand is exported to a
    buffer view (IREE's GenericResourcePattern exports them to tensors that the HAL
    stage then maps to buffer views)."""
    for index, operand in enumerate(op.operands):
        if not isinstance(operand.type, TensorType):
            continue
        source = converter._lookup(op, operand)
        transfer = source.value.owner
        if isinstance(transfer, stream.AsyncTransferOp) and transfer.source.type == CONSTANT:
            # An expected value: the check module only reads it, so it is viewed where
            # it lies (IREE copies it into the external result buffer first).
            exported = stream.TensorExportOp(
                transfer.source,
                source.tensor_type,
                source.size,
                hal.BufferViewType(),
                converter.affinity,
                list(source.dims),
            )
            Rewriter.insert_op(exported, InsertPoint.before(op))
            op.operands[index] = exported.result
            continue
        cast = stream.AsyncCastOp(
            source.value,
            source.size,
            stream.ResourceType("external"),
            source.size,
            converter.affinity,
        )
        exported = stream.TensorExportOp(
            cast.result,
            source.tensor_type,
            source.size,
            hal.BufferViewType(),
            converter.affinity,
            list(source.dims),  # a `?`-sized result's buffer view gets its run-time shape
        )
        Rewriter.insert_op([cast, exported], InsertPoint.before(op))
        op.operands[index] = exported.result
