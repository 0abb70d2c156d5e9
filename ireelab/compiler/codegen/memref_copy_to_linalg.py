"""`MemrefCopyToLinalgPass` (`iree-codegen-memrefcopy-to-linalg`): `memref.copy` -> `linalg.copy`.

IREE runs it late in its CPU pipeline, right before `ConvertLinalgToLoopsPass`, so the copies
bufferization created (into the output binding, or into a fresh buffer before an in-place
update) are lowered to loops like any other linalg op.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)


class ConvertMemrefCopy(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.CopyOp, rewriter: PatternRewriter) -> None:
        rewriter.replace(op, linalg_ops.CopyOp([op.source], [op.destination], res=[]))


@dataclass(frozen=True)
class MemrefCopyToLinalgPass(ModulePass):
    """Turn every `memref.copy` into a `linalg.copy`."""

    name = "iree-codegen-memrefcopy-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ConvertMemrefCopy(), apply_recursively=False).rewrite_module(op)
