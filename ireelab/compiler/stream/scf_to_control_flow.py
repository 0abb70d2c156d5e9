"""SCFToControlFlowPass (`convert-scf-to-cf`): host loops and conditionals become blocks.

IREE's Stream pipeline runs MLIR's SCF-to-ControlFlow conversion on host code once
allocation is scheduled (after ReuseAllocationsPass, before ElideTimepointsPass): from there
on a host `scf.for` is a header block whose arguments are the induction variable and the
carried resources, sizes and timepoints, a `cf.cond_br` on `arith.cmpi slt`, the body, and a
`cf.br` back with the stepped index; `scf.if` is a `cf.cond_br` to two blocks that branch to
a join block. HAL conversion and the VM then see only blocks with arguments (`vm.br`,
`vm.cond_br`). xDSL's patterns for `scf.for` and `scf.if` do the rewriting; this pass applies
them to the host functions only (executables keep their structured loops for codegen).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker
from xdsl.transforms.convert_scf_to_cf import ForLowering, IfLowering

from ireelab.dialects import stream, util


@dataclass(frozen=True)
class SCFToControlFlowPass(ModulePass):
    """Lowers host `scf.for` / `scf.if` to `cf.br` / `cf.cond_br` between blocks."""

    name = "convert-scf-to-cf"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        walker = PatternRewriteWalker(GreedyRewritePatternApplier([IfLowering(), ForLowering()]))
        for child in list(op.body.block.ops):
            if isinstance(child, stream.ExecutableOp):
                continue
            if isinstance(child, util.FuncOp | util.InitializerOp):
                walker.rewrite_region(child.regions[0])
