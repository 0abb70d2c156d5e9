"""ScheduleExecutionPass: partition device work into `stream.async.execute` regions.

Mirrors IREE's `iree-stream-schedule-execution` (Stream/Transforms/ScheduleExecution.cpp and
Analysis/Partitioning). Streamable async ops (dispatches, clones, splats, fills, copies,
updates, slices, allocas, transfers) in a block are grouped into as few partitions as possible: a partition is closed
only when the next streamable op depends on host work that itself waits on the partition (a
cycle IREE's partitioner also cuts). Each partition becomes one

    %results, %tp = stream.async.execute on(#aff) with(%in as %arg: type{%n}, ...)
                    -> (type{%m}, ...) { ...; stream.yield ... } => !stream.timepoint
    %r:N = stream.timepoint.await %tp => %results : ...

Resources the partition reads are captured as region arguments, its results that host code
uses are yielded and awaited. Host ops that needed those results move after the await. The
body of a host `scf.for` / `scf.if` / `scf.while` is partitioned on its own, as IREE
partitions each block (its results yielded to the loop are awaited before the `scf.yield`);
the loop op itself is host work that uses every outer value its body reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.stream.host_blocks import host_blocks, used_values
from ireelab.compiler.stream.resource_sizes import size_of
from ireelab.dialects import stream

STREAMABLE = (
    stream.AsyncDispatchOp,
    stream.AsyncCloneOp,
    stream.AsyncSplatOp,
    stream.AsyncCopyOp,
    stream.AsyncUpdateOp,
    stream.AsyncSliceOp,
    stream.AsyncAllocaOp,
    stream.AsyncTransferOp,
    stream.AsyncFillOp,
)


def partition_block(block: Block) -> list[list[Operation]]:
    """Streamable ops of `block` in partitions, each in program order."""
    partitions: list[list[Operation]] = []
    current: list[Operation] = []
    produced: set[SSAValue] = set()
    waits_on_current: set[SSAValue] = set()
    for op in block.ops:
        uses = used_values(op)
        if isinstance(op, STREAMABLE):
            if uses & waits_on_current:
                partitions.append(current)
                current, produced, waits_on_current = [], set(), set()
            current.append(op)
            produced.update(op.results)
            continue
        if uses & (produced | waits_on_current):
            waits_on_current.update(op.results)
    if current:
        partitions.append(current)
    return partitions


def _is_resource(value: SSAValue) -> bool:
    return isinstance(value.type, stream.ResourceType)


def _captures(ops: list[Operation]) -> list[SSAValue]:
    inside = {r for op in ops for r in op.results}
    seen: list[SSAValue] = []
    for op in ops:
        for value in op.operands:
            if _is_resource(value) and value not in inside and value not in seen:
                seen.append(value)
    return seen


def _escaping(ops: list[Operation]) -> list[SSAValue]:
    members = set(ops)
    return [
        r for op in ops for r in op.results if any(use.operation not in members for use in r.uses)
    ]


def _affinity(ops: list[Operation]) -> Attribute | None:
    for op in ops:
        affinity = op.properties.get("affinity")
        if affinity is not None:
            return affinity
    return None


def build_region(
    ops: list[Operation], captures: list[SSAValue], results: list[SSAValue]
) -> tuple[Region, list[SSAValue]]:
    """Move `ops` into a new region whose arguments stand for `captures`; yield `results`.

    Returns the region and the sizes of the yielded results (taken before the move).
    """
    result_sizes = [size_of(r) for r in results]
    block = Block(arg_types=[c.type for c in captures])
    members = set(ops)
    for capture, arg in zip(captures, block.args, strict=True):
        capture.replace_uses_with_if(arg, lambda use: use.operation in members)
    for op in ops:
        op.detach()
        block.add_op(op)
    block.add_op(stream.YieldOp(results, result_sizes))
    return Region(block), result_sizes


def _move_dependents_after(ops: list[Operation], anchor: Operation) -> None:
    """Host ops between the partition's ops that consume its results go after `anchor`."""
    members = set(ops)
    first, last = ops[0], ops[-1]
    tainted: set[SSAValue] = {r for op in ops for r in op.results}
    to_move: list[Operation] = []
    op = first.next_op if first is not last else None  # nothing lies between one op
    while op is not None and op is not last:
        if op not in members and tainted & used_values(op):  # a host scf.if's body too
            tainted.update(op.results)
            to_move.append(op)
        op = op.next_op
    insert_after = anchor
    for op in to_move:
        op.detach()
        Rewriter.insert_op(op, InsertPoint.after(insert_after))
        insert_after = op


def schedule_partition(ops: list[Operation]) -> stream.AsyncExecuteOp:
    captures = _captures(ops)
    results = _escaping(ops)
    affinity = _affinity(ops)
    last = ops[-1]
    placeholder = stream.TimepointImmediateOp()
    Rewriter.insert_op(placeholder, InsertPoint.after(last))
    _move_dependents_after(ops, placeholder)
    outside_uses = {r: [u for u in r.uses if u.operation not in set(ops)] for r in results}
    capture_sizes = [size_of(c) for c in captures]
    region, result_sizes = build_region(ops, captures, results)
    for op in region.block.ops:
        op.properties.pop("affinity", None)
    execute = stream.AsyncExecuteOp(
        captures, capture_sizes, [r.type for r in results], result_sizes, region, affinity
    )
    awaited = stream.TimepointAwaitOp(execute.result_timepoint, list(execute.outputs), result_sizes)
    Rewriter.replace_op(placeholder, [execute, awaited], [execute.result_timepoint])
    for result, new in zip(results, awaited.outputs, strict=True):
        for use in outside_uses[result]:
            use.operation.operands[use.index] = new
    for value in execute.outputs:
        value.name_hint = "results"
    execute.result_timepoint.name_hint = "result_timepoint"
    return execute


@dataclass(frozen=True)
class ScheduleExecutionPass(ModulePass):
    """Wraps device work in `stream.async.execute` regions awaited by the host."""

    name = "iree-stream-schedule-execution"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for block in host_blocks(op):
            for partition in partition_block(block):
                schedule_partition(partition)
