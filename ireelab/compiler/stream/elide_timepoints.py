"""ElideTimepointsPass: remove waits that can never block.

Mirrors IREE's `iree-stream-elide-timepoints` (Stream/Transforms/ElideTimepoints.cpp) with
the timepoint folds IREE's canonicalizer applies around it. A `stream.timepoint.immediate` is
already reached, so: it is dropped from `stream.timepoint.join max(...)` (a join of one
timepoint is that timepoint, a join of none is immediate); an op that awaits an immediate
timepoint (`await(%t) =>` on execute, alloca, dealloca) no longer waits; a host
`stream.timepoint.await` on one forwards its resources. Two more of IREE's canonical folds
serve the asynchronous ABI: a `stream.timepoint.barrier` on a resource the host awaited names
the awaited timepoint instead (the caller waits on the fence it signals, not the host), and a
host await whose resources nothing reads any more is dropped. (IREE additionally proves that a
timepoint is covered by another one already waited on; that analysis is not modelled.)
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.stream.await_operand import set_await
from ireelab.dialects import stream

_WAITERS = (
    stream.AsyncExecuteOp,
    stream.CmdExecuteOp,
    stream.ResourceAllocaOp,
    stream.ResourceDeallocaOp,
)


def _immediate(value: SSAValue | None) -> bool:
    return value is not None and isinstance(value.owner, stream.TimepointImmediateOp)


def _fold_join(join: stream.TimepointJoinOp) -> bool:
    waits: list[SSAValue] = []
    for value in join.await_timepoints:
        if not _immediate(value) and value not in waits:
            waits.append(value)
    if len(waits) == len(join.await_timepoints) and len(waits) > 1:
        return False
    if not waits:
        immediate = stream.TimepointImmediateOp()
        Rewriter.insert_op(immediate, InsertPoint.before(join))
        waits = [immediate.result_timepoint]
    if len(waits) == 1:
        join.result_timepoint.replace_all_uses_with(waits[0])
        Rewriter.erase_op(join)
    else:
        Rewriter.replace_op(join, stream.TimepointJoinOp(waits))
    return True


def _fold_wait(op: Operation) -> bool:
    if not _immediate(op.await_timepoint):
        return False
    set_await(op, None)
    return True


def _fold_host_await(op: stream.TimepointAwaitOp) -> bool:
    if not _immediate(op.await_timepoint):
        return False
    Rewriter.replace_op(op, [], list(op.resource_operands))
    return True


def _fold_barrier_of_await(op: stream.TimepointBarrierOp) -> bool:
    """A barrier on a resource the host awaited (or on a subview of one, as a function's
    results are once they share one allocation) is ready when the awaited timepoint is."""
    resource = op.resource
    view = resource.owner if isinstance(resource.owner, stream.ResourceSubviewOp) else None
    awaited_value = view.source if view is not None else resource
    awaited = awaited_value.owner
    if not isinstance(awaited, stream.TimepointAwaitOp):
        return False
    source = awaited.resource_operands[awaited_value.index]
    if view is not None:
        retargeted = view.clone()
        retargeted.operands[0] = source
        Rewriter.insert_op(retargeted, InsertPoint.before(op))
        source = retargeted.result
    Rewriter.replace_op(op, [], [source, awaited.await_timepoint])
    return True


def _fold_unused_await(op: stream.TimepointAwaitOp) -> bool:
    if any(result.uses for result in op.results):
        return False
    Rewriter.erase_op(op)
    return True


def _erase_dead_timepoints(module: ModuleOp) -> None:
    for op in reversed(list(module.walk())):
        if isinstance(op, stream.TimepointImmediateOp | stream.TimepointJoinOp):
            if not op.result_timepoint.uses:
                Rewriter.erase_op(op)


def elide(module: ModuleOp) -> None:
    changed = True
    while changed:
        changed = False
        for op in list(module.walk()):
            if isinstance(op, stream.TimepointJoinOp):
                changed |= _fold_join(op)
            elif isinstance(op, _WAITERS):
                changed |= _fold_wait(op)
            elif isinstance(op, stream.TimepointBarrierOp):
                changed |= _fold_barrier_of_await(op)
            elif isinstance(op, stream.TimepointAwaitOp):
                changed |= _fold_host_await(op) or _fold_unused_await(op)
    _erase_dead_timepoints(module)


@dataclass(frozen=True)
class ElideTimepointsPass(ModulePass):
    """Drops immediate timepoints from joins and waits."""

    name = "iree-stream-elide-timepoints"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        elide(op)
