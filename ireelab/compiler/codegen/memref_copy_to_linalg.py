"""`MemrefCopyToLinalgPass` (`iree-codegen-memrefcopy-to-linalg`): `memref.copy` -> `linalg.copy`.

IREE runs it late in its CPU pipeline, right before `ConvertLinalgToLoopsPass`, so the copies
bufferization created (into the output binding, or into a fresh buffer before an in-place
update) are lowered to loops like any other linalg op.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import ComplexType, ModuleOp
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from ireelab.compiler.codegen.loop_builder import LoopBuilder, finish_nest


class ConvertMemrefCopy(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.CopyOp, rewriter: PatternRewriter) -> None:
        if isinstance(op.source.type.element_type, ComplexType):
            _copy_loops(op)
            rewriter.erase_op(op)
            return
        rewriter.replace(op, linalg_ops.CopyOp([op.source], [op.destination], res=[]))


def _copy_loops(op: memref.CopyOp) -> None:
    """A copy of complex elements (xDSL's `linalg.copy` takes scalar elements only) as the
    loop nest `ConvertLinalgToLoopsPass` would make of it: a load and a store per element."""
    builder = LoopBuilder(InsertPoint.before(op))
    sizes = builder.sizes(op.source)
    for value in (0, 1, *[n for n in sizes if isinstance(n, int)]):
        builder.constant(value)  # before the nest: every loop's bounds dominate it
    counters, inner = builder.nest(sizes)
    inner.store(inner.load(op.source, counters), op.destination, counters)
    finish_nest(counters)


@dataclass(frozen=True)
class MemrefCopyToLinalgPass(ModulePass):
    """Turn every `memref.copy` into a `linalg.copy`."""

    name = "iree-codegen-memrefcopy-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ConvertMemrefCopy(), apply_recursively=False).rewrite_module(op)
