"""`LoopInvariantCodeMotionPass` (`loop-invariant-code-motion`): pure ops whose operands are
all defined outside an `scf.for` move before it.

IREE runs MLIR's pass of this name in its CPU pipeline after lowering to loops. Here it runs
after `FoldMemRefAliasOpsPass`, whose index arithmetic (`tile offset + loop index`) lands in the
innermost loop: the parts that do not depend on that loop's index move out, so the innermost
body is only loads, the payload and stores. The rewrite is xDSL's implementation of MLIR's
pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.transforms.loop_invariant_code_motion import LoopInvariantCodeMotionPass as _XDSLLICM


@dataclass(frozen=True)
class LoopInvariantCodeMotionPass(ModulePass):
    """Hoist loop-invariant pure ops out of every `scf.for`, innermost loops first."""

    name = "loop-invariant-code-motion"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _XDSLLICM().apply(ctx, op)
