"""Setting or clearing the optional `await(%t) =>` operand of a stream op.

`stream.async.execute`, `stream.cmd.execute`, `stream.resource.alloca` and
`stream.resource.dealloca` may wait on a timepoint before they start; the timepoint passes
add and remove that wait. The execute ops keep their operand groups in an
`operandSegmentSizes` property, which has to follow.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase
from xdsl.ir import Operation, SSAValue

from ireelab.dialects import stream

_SEGMENTED = (stream.AsyncExecuteOp, stream.CmdExecuteOp)


def set_await(op: Operation, timepoint: SSAValue | None) -> None:
    """Make `op` wait on `timepoint` (or on nothing)."""
    current = op.await_timepoint
    operands = list(op.operands)
    if current is not None:
        operands.pop(_await_index(op))
    new = [timepoint] if timepoint is not None else []
    if isinstance(op, _SEGMENTED):
        sizes = op.properties["operandSegmentSizes"]
        assert isinstance(sizes, DenseArrayBase)
        counts = list(sizes.get_values())
        start = sum(counts[:-1])
        operands[start:start] = new
        counts[-1] = len(new)
        op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(sizes.elt_type, counts)
    else:
        operands += new
    op.operands = operands


def _await_index(op: Operation) -> int:
    timepoint = op.await_timepoint
    for index, value in enumerate(op.operands):
        if value is timepoint and isinstance(value.type, stream.TimepointType):
            return index
    raise ValueError("the op has no await operand")
