"""SCFToControlFlowPass (`convert-scf-to-cf`): host loops and conditionals become blocks.

IREE's Stream pipeline runs MLIR's SCF-to-ControlFlow conversion on host code once
allocation is scheduled (after ReuseAllocationsPass, before ElideTimepointsPass): from there
on a host `scf.for` is a header block whose arguments are the induction variable and the
carried resources, sizes and timepoints, a `cf.cond_br` on `arith.cmpi slt`, the body, and a
`cf.br` back with the stepped index; `scf.if` is a `cf.cond_br` to two blocks that branch to
a join block; `scf.while` is its `before` block (taking the carried values) ending in a
`cf.cond_br` to the `after` block or out of the loop with the values `scf.condition` passes,
and the `after` block branching back (MLIR's `WhileLowering`; xDSL has no pattern for it). HAL conversion and the VM then see only blocks with arguments (`vm.br`,
`vm.cond_br`). xDSL's patterns for `scf.for` and `scf.if` and the one below do the rewriting; this pass applies
them to the host functions only (executables keep their structured loops for codegen).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import cf, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import BlockInsertPoint, InsertPoint
from xdsl.transforms.convert_scf_to_cf import ForLowering, IfLowering

from ireelab.dialects import stream, util


class WhileLowering(RewritePattern):
    """`scf.while` -> before block + `cf.cond_br` + after block + `cf.br` back."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter) -> None:
        init_block = op.parent_block()
        if init_block is None:
            return
        end_block = init_block.split_before(op)
        for index, result in enumerate(op.results):
            end_block.insert_arg(result.type, index)
        before = op.before_region.block
        after = op.after_region.block
        rewriter.inline_region(op.before_region, BlockInsertPoint.before(end_block))
        rewriter.inline_region(op.after_region, BlockInsertPoint.before(end_block))
        condition = before.last_op
        assert isinstance(condition, scf.ConditionOp)
        values = list(condition.args)
        rewriter.replace(
            condition, cf.ConditionalBranchOp(condition.condition, after, values, end_block, values)
        )
        yield_op = after.last_op
        assert isinstance(yield_op, scf.YieldOp)
        rewriter.replace(yield_op, cf.BranchOp(before, *yield_op.arguments))
        rewriter.insert(cf.BranchOp(before, *op.arguments), InsertPoint.at_end(init_block))
        rewriter.replace(op, [], list(end_block.args))


@dataclass(frozen=True)
class SCFToControlFlowPass(ModulePass):
    """Lowers host `scf.for` / `scf.if` / `scf.while` to `cf.br` / `cf.cond_br` between
    blocks."""

    name = "convert-scf-to-cf"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        walker = PatternRewriteWalker(
            GreedyRewritePatternApplier([IfLowering(), ForLowering(), WhileLowering()])
        )
        for child in list(op.body.block.ops):
            if isinstance(child, stream.ExecutableOp):
                continue
            if isinstance(child, util.FuncOp | util.InitializerOp):
                walker.rewrite_region(child.regions[0])
