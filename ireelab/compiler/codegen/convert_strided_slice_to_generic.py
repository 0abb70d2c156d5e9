"""`ConvertStridedSliceToGenericPass` (`ireelab-codegen-convert-strided-slice-to-generic`): a
strided `tensor.extract_slice` inside a dispatch becomes a `linalg.generic` that reads the
source through the slice's affine map.

IREE's LLVMCPU backend keeps such a slice (a `slow_memcpy` dispatch) and vectorizes it as
strided transfer reads. numba-cpu's bufferization views only unit-stride windows, so here
the slice is said as the copy it is,

    %s = tensor.extract_slice %x[20, 30] [50, 75] [2, 3] : tensor<500x750xi32> to tensor<50x75xi32>
      -> %s = linalg.generic {indexing_maps = [(d0, d1) -> (d0 * 2 + 20, d1 * 3 + 30),
                                              (d0, d1) -> (d0, d1)], ...}
                ins(%x) outs(tensor.empty() : tensor<50x75xi32>) { linalg.yield %in }

which the rest of codegen tiles and lowers like any other generic. It runs first in codegen,
before the lowering strategy is chosen. Rank-reducing slices keep the dropped unit
dimensions as constants of the map.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, Region
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from ireelab.compiler.flow import structured as st
from ireelab.diagnostics import copy_location
from ireelab.dialects import hal


def _source_map(op: tensor.ExtractSliceOp, result_rank: int) -> AffineMap | None:
    """`(d...) -> (d_i * stride + offset, ...)` over the result's dims, or None if dynamic."""
    offsets = op.static_offsets.get_values()
    sizes = op.static_sizes.get_values()
    strides = op.static_strides.get_values()
    if tensor.DYNAMIC_INDEX in (*offsets, *sizes, *strides):
        return None
    result_shape = op.result.type.get_shape()
    exprs, dim = [], 0
    for offset, size, stride in zip(offsets, sizes, strides, strict=True):
        kept = (
            dim < result_rank
            and size == result_shape[dim]
            and not (size == 1 and len(sizes) - len(exprs) > result_rank - dim)
        )
        if kept:
            exprs.append(AffineDimExpr(dim) * stride + offset)
            dim += 1
        else:
            exprs.append(AffineConstantExpr(offset))
    if dim != result_rank:
        return None
    return AffineMap(result_rank, 0, tuple(exprs))


class StridedSliceToGeneric(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.ExtractSliceOp, rewriter: PatternRewriter) -> None:
        if all(s == 1 for s in op.static_strides.get_values()):
            return
        result_type = op.result.type
        if not isinstance(result_type, TensorType):
            return
        rank = result_type.get_num_dims()
        source_map = _source_map(op, rank)
        if source_map is None:
            return
        empty = tensor.EmptyOp([], result_type)
        element = result_type.get_element_type()
        block = Block(arg_types=[element, element])
        block.add_op(linalg.YieldOp(block.args[0]))
        generic = st.make_generic(
            [op.source],
            [empty.tensor],
            Region(block),
            [source_map, AffineMap.identity(rank)],
            ["parallel"] * rank,
        )
        copy_location(op, empty)
        copy_location(op, generic)
        rewriter.replace_matched_op([empty, generic])


@dataclass(frozen=True)
class ConvertStridedSliceToGenericPass(ModulePass):
    """Strided slices in dispatch functions -> generics reading through the slice's map."""

    name = "ireelab-codegen-convert-strided-slice-to-generic"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for variant in [o for o in op.walk() if isinstance(o, hal.ExecutableVariantOp)]:
            PatternRewriteWalker(StridedSliceToGeneric()).rewrite_module(variant)
