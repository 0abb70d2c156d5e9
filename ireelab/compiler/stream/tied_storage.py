"""Which async resource values share storage because an op writes its operand in place.

IREE's async ops implement `TiedOpInterface` (Util/IR/UtilInterfaces.td): a tied result is
its operand's storage after the op wrote into it. In ireelab's async IR five ops tie:
`stream.async.update`, `stream.async.copy` and `stream.async.fill` (the result is the target), a
`stream.async.dispatch` result listed in `tied_operands`, and `stream.timepoint.barrier` (its
result is its resource, named at the timepoint it is ready). RefineUsagePass, ElideAsyncCopies,
ScheduleConcurrency and ScheduleAllocation follow these ties the same way.
"""

from __future__ import annotations

from xdsl.ir import OpResult, SSAValue

from ireelab.dialects import stream


def tied_operand(value: SSAValue) -> SSAValue | None:
    """The operand whose storage result `value` is (written in place), or None."""
    if not isinstance(value, OpResult):
        return None
    op = value.op
    if isinstance(op, stream.AsyncUpdateOp | stream.AsyncCopyOp | stream.AsyncFillOp):
        return op.target
    if isinstance(op, stream.TimepointBarrierOp) and value.index == 0:
        return op.resource
    if isinstance(op, stream.AsyncDispatchOp):
        tied = op.tied()[value.index]
        return op.resource_operands[tied] if tied >= 0 else None
    return None


def tied_root(value: SSAValue) -> SSAValue:
    """The value that first held the storage `value` lives in."""
    while (source := tied_operand(value)) is not None:
        value = source
    return value


def tied_results(value: SSAValue) -> list[SSAValue]:
    """Results of `value`'s users that are `value` written in place."""
    return [
        result
        for use in value.uses
        for result in use.operation.results
        if tied_operand(result) is value
    ]


def tied_chain(value: SSAValue) -> list[SSAValue]:
    """`value` and every result updating its storage in place, transitively."""
    chain, work = [], [value]
    while work:
        current = work.pop()
        chain.append(current)
        work += tied_results(current)
    return chain


def written_in_place(value: SSAValue) -> bool:
    """Does some user of `value` write its storage in place?"""
    return bool(tied_results(value))
