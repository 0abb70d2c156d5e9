"""PropagateTimepointsPass: make every execute region wait on the timepoints of its inputs.

Mirrors IREE's `iree-stream-propagate-timepoints` (Stream/Transforms/PropagateTimepoints.cpp).
A resource captured by a `stream.async.execute` may still be in flight: if it comes out of a
`stream.timepoint.await`, the region takes the awaited resource directly and waits on that
await's timepoint instead (so the host no longer blocks between two executions); a resource
that is already available (an import) contributes `stream.timepoint.immediate`. The
timepoints are joined (`stream.timepoint.join max(...)`) and become the region's
`await(...) =>`. ElideTimepointsPass later removes the immediate ones, as IREE's
canonicalizer does. A host `scf.for` carries each resource's timepoint beside it
(`loop_timepoints`), so its iterations chain on the device queue, and `scf.if` / `scf.while`
pass it through their regions (`branch_timepoints`), as IREE's expansion of region branch
ops and CFG branches does. IREE also threads timepoints through calls and globals;
ireelab programs are single-function, so that part is not modelled.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.stream.await_operand import set_await
from ireelab.compiler.stream.branch_timepoints import propagate_through_branch
from ireelab.compiler.stream.loop_timepoints import propagate_through_loop
from ireelab.dialects import stream


def _timepoint_of(value: SSAValue, execute: stream.AsyncExecuteOp) -> tuple[SSAValue, SSAValue]:
    """(timepoint the value is ready at, value to capture instead)."""
    owner = value.owner
    if isinstance(owner, stream.TimepointAwaitOp):
        return owner.await_timepoint, owner.resource_operands[value.index]
    immediate = stream.TimepointImmediateOp()
    Rewriter.insert_op(immediate, InsertPoint.before(execute))
    return immediate.result_timepoint, value


def propagate(execute: stream.AsyncExecuteOp) -> None:
    if execute.await_timepoint is not None:
        return
    timepoints: list[SSAValue] = []
    for index, value in enumerate(execute.resource_operands):
        timepoint, source = _timepoint_of(value, execute)
        if timepoint not in timepoints:
            timepoints.append(timepoint)
        execute.operands[index] = source
    if not timepoints:
        return
    wait = timepoints[0]
    if len(timepoints) > 1:
        join = stream.TimepointJoinOp(timepoints)
        Rewriter.insert_op(join, InsertPoint.before(execute))
        wait = join.result_timepoint
    set_await(execute, wait)


def _in_executable(op) -> bool:
    while (op := op.parent_op()) is not None:
        if isinstance(op, stream.ExecutableOp):
            return True
    return False


@dataclass(frozen=True)
class PropagateTimepointsPass(ModulePass):
    """Gives each execute region an explicit await on its inputs' timepoints."""

    name = "iree-stream-propagate-timepoints"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for loop in [o for o in op.walk() if isinstance(o, scf.ForOp)]:
            if loop.parent_op() is not None and not _in_executable(loop):
                propagate_through_loop(loop)
        branches = [o for o in op.walk() if isinstance(o, scf.IfOp | scf.WhileOp)]
        for branch in reversed(branches):  # inner ones first
            if branch.parent_op() is not None and not _in_executable(branch):
                propagate_through_branch(branch)
        for execute in [o for o in op.walk() if isinstance(o, stream.AsyncExecuteOp)]:
            propagate(execute)
