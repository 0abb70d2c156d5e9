"""`FoldMemRefAliasOpsPass` (`iree-codegen-fold-memref-alias-ops`): loads and stores through a
`memref.subview` index the subview's source directly.

IREE runs it after loop lowering so that every access names the binding (or allocation) it
touches with absolute indices, which is what lets LLVM see contiguous accesses. For the numba
kernels it means every array access is on a C-contiguous array, never on a strided view: the
shape numba vectorises. A `memref.dim` of a subview's `?` size is that size's operand (MLIR's
`memref.dim` folder), so a workgroup's runtime tile bounds its loops directly. Subviews left
without users are erased.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from ireelab.compiler.codegen.index_arith import IndexBuilder
from ireelab.diagnostics import CompileError


def _source_indices(
    subview: memref.SubviewOp, indices: list[SSAValue], before: Operation
) -> list[SSAValue]:
    """Indices into the subview's source for `indices` into the subview: `offset + stride * i`
    (static strides: a strided slice's copy kernel reads its source with them)."""
    strides = subview.static_strides.get_values()
    if any(s == memref.DYNAMIC_INDEX for s in strides):
        raise CompileError.at(
            subview, "subviews with dynamic strides are not supported by numba-cpu", stage="codegen"
        )
    builder = IndexBuilder(InsertPoint.before(before))
    dynamic = iter(subview.offsets)
    dropped = _dropped_dims(subview)
    given = iter(indices)
    folded = []
    for dim, (static, stride) in enumerate(
        zip(subview.static_offsets.get_values(), strides, strict=True)
    ):
        offset = next(dynamic) if static == memref.DYNAMIC_INDEX else static
        if dim in dropped:  # a unit dim a rank-reducing subview leaves out: index 0
            folded.append(builder.value(offset))
            continue
        folded.append(builder.value(builder.add(offset, builder.mul(next(given), stride))))
    return folded


def _dropped_dims(subview: memref.SubviewOp) -> set[int]:
    """The unit dims a rank-reducing subview drops (leading unit dims first, as the
    bufferization that made it chose them)."""
    sizes = list(subview.static_sizes.get_values())
    wanted = list(subview.result.type.get_shape())
    dropped, drop = set(), len(sizes) - len(wanted)
    for dim, n in enumerate(sizes):
        w = dim - len(dropped)
        if drop and n == 1 and (w >= len(wanted) or wanted[w] != 1):
            dropped.add(dim)
            drop -= 1
    return dropped


class FoldLoadOfSubview(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.LoadOp, rewriter: PatternRewriter) -> None:
        subview = op.memref.owner
        if not isinstance(subview, memref.SubviewOp):
            return
        indices = _source_indices(subview, list(op.indices), op)
        rewriter.replace(op, memref.LoadOp.get(subview.source, indices))


class FoldStoreOfSubview(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.StoreOp, rewriter: PatternRewriter) -> None:
        subview = op.memref.owner
        if not isinstance(subview, memref.SubviewOp):
            return
        indices = _source_indices(subview, list(op.indices), op)
        rewriter.replace(op, memref.StoreOp.get(op.value, subview.source, indices))


class FoldDimOfSubview(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.DimOp, rewriter: PatternRewriter) -> None:
        subview = op.source.owner
        index = op.index.owner
        if not (isinstance(subview, memref.SubviewOp) and isinstance(index, arith.ConstantOp)):
            return
        sizes = subview.static_sizes.get_values()
        position = index.value.value.data
        if sizes[position] != memref.DYNAMIC_INDEX:
            return
        dynamic = [i for i, n in enumerate(sizes) if n == memref.DYNAMIC_INDEX]
        rewriter.replace(op, [], [subview.sizes[dynamic.index(position)]])


class EraseUnusedSubview(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.SubviewOp, rewriter: PatternRewriter) -> None:
        if not op.result.uses:
            rewriter.erase(op)


@dataclass(frozen=True)
class FoldMemRefAliasOpsPass(ModulePass):
    """Fold `memref.subview` into the loads, stores and `memref.dim`s that use it."""

    name = "iree-codegen-fold-memref-alias-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(FoldLoadOfSubview()).rewrite_module(op)
        PatternRewriteWalker(FoldStoreOfSubview()).rewrite_module(op)
        PatternRewriteWalker(FoldDimOfSubview()).rewrite_module(op)
        PatternRewriteWalker(EraseUnusedSubview()).rewrite_module(op)
