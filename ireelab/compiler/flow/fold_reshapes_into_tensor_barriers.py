"""FoldReshapesIntoTensorBarriersPass (`iree-dispatch-creation-fold-reshapes-into-tensor-barriers`).

Mirrors IREE's DispatchCreation/FoldReshapesIntoTensorBarriers.cpp, which runs right before
BubbleUpExpandShapesPass: a reshape next to a compute barrier moves outside it, so the barrier
fences the reshaped value and the reshape is host work no pattern moves into the compute.

- `MoveReshapeAboveBarrierStart`: `reshape(compute_barrier.start(x))` becomes
  `compute_barrier.start(reshape(x))` (the reshape's users read the new barrier);
- `MoveReshapeBelowBarrierEnd`: `compute_barrier.end(reshape(y))` becomes
  `reshape(compute_barrier.end(y))`.

IREE runs the pass twice: in GlobalOptimization after FoldUnitExtentDimsPass, and right before
BubbleUpExpandShapesPass. ireelab's pipeline runs neither (it is an `EXTRA_PASSES` entry,
`ireelab-opt -p` runs it): the host reshapes it leaves beside the ones CollapseDimensionsPass
adds form `flow.tensor.reshape` chains that IREE's canonicalizer folds and ireelab's does not
yet (a `?` -> `?x4` -> `?` round trip changed a dispatch's workload). BubbleUpExpandShapesPass
leaves reshapes at barriers alone instead (`at_barrier`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, OpResult
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from ireelab.dialects.iree_tensor_ext import ComputeBarrierEndOp, ComputeBarrierStartOp

_RESHAPES = (tensor.ExpandShapeOp, tensor.CollapseShapeOp)


def _defining(value) -> Operation | None:
    return value.op if isinstance(value, OpResult) else None


class MoveReshapeAboveBarrierStart(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, _RESHAPES):
            return
        barrier = _defining(op.src)
        if not isinstance(barrier, ComputeBarrierStartOp):
            return
        new = ComputeBarrierStartOp(op.result)
        rewriter.insert(new, InsertPoint.after(op))
        rewriter.replace_uses_with_if(
            op.result, new.results[0], lambda use: use.operation is not new
        )
        op.operands[0] = barrier.value
        rewriter.handle_operation_modification(op)
        if not barrier.results[0].uses:
            rewriter.erase_op(barrier)


class MoveReshapeBelowBarrierEnd(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ComputeBarrierEndOp, rewriter: PatternRewriter) -> None:
        reshape = _defining(op.value)
        if not isinstance(reshape, _RESHAPES):
            return
        new = ComputeBarrierEndOp(reshape.src)
        rewriter.insert(new, InsertPoint.before(reshape))
        reshape.operands[0] = new.results[0]
        rewriter.handle_operation_modification(reshape)
        rewriter.replace(op, [], [reshape.result])


@dataclass(frozen=True)
class FoldReshapesIntoTensorBarriersPass(ModulePass):
    name = "iree-dispatch-creation-fold-reshapes-into-tensor-barriers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = [MoveReshapeAboveBarrierStart(), MoveReshapeBelowBarrierEnd()]
        walker = PatternRewriteWalker(GreedyRewritePatternApplier(patterns), apply_recursively=True)
        walker.rewrite_module(op)
