"""ScheduleConcurrencyPass: group independent work of an execute region into concurrent blocks.

Mirrors IREE's `iree-stream-schedule-concurrency` (Stream/Transforms/ScheduleConcurrency.cpp).
Inside each `stream.async.execute`, every op gets a wave: one more than the latest wave of the
ops it depends on, or the same wave as a producer it has no hazard with (`resource_hazards`:
updates of disjoint byte ranges of one tied storage, as the copies of a `tensor.concat` on
the outer dimension, run together, as in IREE). When a wave holds two or more ops they are
wrapped in a `stream.async.concurrent` region (its own captures and
yields), which ScheduleAllocationPass turns into `stream.cmd.concurrent`: on `local-task` the
two dispatches of `l_two_results` really run at the same time. The region's ops are reordered
wave by wave first, which keeps every value defined before its use.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.stream.resource_hazards import has_hazard
from ireelab.compiler.stream.resource_sizes import size_of
from ireelab.compiler.stream.schedule_execution import _captures, _escaping, build_region
from ireelab.dialects import stream


def waves(block: Block) -> list[list[Operation]]:
    """The block's ops (terminator excluded) by dependency depth, program order within a wave."""
    depth: dict[Operation, int] = {}
    body = [op for op in block.ops if not isinstance(op, stream.YieldOp)]
    for op in body:
        producers = {v.owner for v in op.operands if v.owner in depth}
        # a producer without a hazard (disjoint bytes of a tied storage) may share the wave
        deps = [depth[p] + has_hazard(p, op) for p in producers]
        depth[op] = max(deps, default=0)
    result: list[list[Operation]] = [[] for _ in range(max(depth.values(), default=-1) + 1)]
    for op in body:
        result[depth[op]].append(op)
    return result


def _reorder(block: Block, ordered: list[Operation]) -> None:
    terminator = block.last_op
    for op in ordered:
        op.detach()
        Rewriter.insert_op(op, InsertPoint.before(terminator))


def _wrap_concurrent(ops: list[Operation]) -> None:
    captures = _captures(ops)
    results = _escaping(ops)
    capture_sizes = [size_of(c) for c in captures]
    placeholder = stream.TimepointImmediateOp()
    Rewriter.insert_op(placeholder, InsertPoint.after(ops[-1]))
    outside_uses = {r: [u for u in r.uses if u.operation not in set(ops)] for r in results}
    region, result_sizes = build_region(ops, captures, results)
    concurrent = stream.AsyncConcurrentOp(
        captures, capture_sizes, [r.type for r in results], result_sizes, region
    )
    Rewriter.replace_op(placeholder, concurrent, [None])
    for result, new in zip(results, concurrent.outputs, strict=True):
        for use in outside_uses[result]:
            use.operation.operands[use.index] = new


def schedule_region(execute: stream.AsyncExecuteOp) -> None:
    block = execute.body.block
    by_wave = waves(block)
    _reorder(block, [op for wave in by_wave for op in wave])
    for wave in by_wave:
        if len(wave) > 1:
            _wrap_concurrent(wave)


@dataclass(frozen=True)
class ScheduleConcurrencyPass(ModulePass):
    """Wraps independent ops of each execute region in `stream.async.concurrent`."""

    name = "iree-stream-schedule-concurrency"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for execute in [o for o in op.walk() if isinstance(o, stream.AsyncExecuteOp)]:
            schedule_region(execute)
