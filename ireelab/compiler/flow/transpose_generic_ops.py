"""TransposeGenericOpsPass (`iree-dispatch-creation-transpose-generic-ops`).

Mirrors IREE's DispatchCreation/TransposeGenericOps.cpp, the last preprocessing step before
dispatch regions are formed (after multi-use fusion and split reduction). It changes only the
order of a generic's loops (MLIR's `interchangeGenericOp`), never what it computes, so that
dispatch formation and codegen see the friendly form. Three patterns, applied greedily:

- `MakeReductionInnermostPattern`: a generic with parallel and reduction loops whose parallel
  loops are not all outermost is interchanged so the parallel loops come first (in their old
  order), then the reduction loops. A column sum of an 8x16 matrix (reduce d0) then iterates
  16x8 and its dispatch is `reduction_16x8_f32`.
- `TransposeGenericOpPattern`: an all-parallel generic that reads the single-use result of a
  non-elementwise linalg op (a reduction, a matmul) through a permutation gets its loops
  interchanged so that operand reads in order; the dispatch region can then grow from that
  producer. If such an operand is already read in order, nothing changes.
- `NormalizeReductionDimsPattern`: with two or more reduction loops, the reduction loops are
  reordered to follow the order in which the operands' indexing maps list them. A pair is
  swapped only when every map naming both dims agrees; pairs no map orders keep their order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerType, MemRefType, ModuleOp
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, Operation, OpResult, Region
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.traits import IsTerminator

from ireelab.compiler.flow import structured as st
from ireelab.compiler.flow.fusion_preprocessing import interchange_generic

# ---- MakeReductionInnermostPattern ---------------------------------------------------------


def reduction_innermost_interchange(iterators: list[str]) -> list[int] | None:
    """Parallel loops first, then reduction loops, each group in its old order; None when the
    parallel loops already come first (or there are none)."""
    parallel = [i for i, kind in enumerate(iterators) if kind == "parallel"]
    if not parallel or parallel == list(range(len(parallel))):
        return None
    reduction = [i for i, kind in enumerate(iterators) if kind == "reduction"]
    return parallel + reduction


class MakeReductionInnermostPattern(RewritePattern):
    """Parallel loops outermost, reduction loops innermost."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, generic: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        interchange = reduction_innermost_interchange(st.iterator_types(generic))
        if interchange is None:
            return
        interchange_generic(generic, interchange, rewriter)


# ---- TransposeGenericOpPattern -------------------------------------------------------------


def _is_scalar(t: Attribute) -> bool:
    return isinstance(t, IntegerType | IndexType | AnyFloat)


def _scalar_elementwise_body(region: Region) -> bool:
    """MLIR's `hasOnlyScalarElementwiseOp`: scalar arith/math ops, constants, `linalg.index`
    and the yield (a named op without a region only yields)."""
    if not region.blocks:
        return True
    if len(region.blocks) != 1:
        return False
    for op in region.block.ops:
        allowed = (
            op.dialect_name() in ("arith", "math")
            or isinstance(op, linalg.IndexOp)
            or op.has_trait(IsTerminator)
        )
        if not allowed or not all(_is_scalar(r.type) for r in op.results):
            return False
    return True


def is_elementwise_linalg(op: Operation) -> bool:
    """MLIR's `linalg::isElementwise` for any structured op, named or generic: all loops
    parallel, projected-permutation maps, permutation init maps, a scalar elementwise body."""
    maps = st.indexing_maps(op)
    init_maps = maps[len(st.inputs(op)) :]
    return (
        st.is_all_parallel(op)
        and all(st.is_projected_permutation(m) for m in maps)
        and all(st.is_permutation(m) for m in init_maps)
        and (not op.regions or _scalar_elementwise_body(op.regions[0]))
    )


def _has_tensor_semantics(op: Operation) -> bool:
    """MLIR's `hasPureTensorSemantics`: no operand is a buffer."""
    return not any(isinstance(v.type, MemRefType) for v in op.operands)


def _single_use_non_elementwise_producer(value) -> bool:
    producer = value.op if isinstance(value, OpResult) else None
    if not st.is_structured(producer) or st.op_use_count(producer) != 1:
        return False
    return not is_elementwise_linalg(producer)


def producer_aligning_interchange(generic: linalg.GenericOp) -> list[int] | None:
    """The interchange that makes the first permuted read of a single-use, non-elementwise
    linalg producer an identity read; None when there is none or one such read is already in
    order."""
    maps = st.indexing_maps(generic)
    for value, amap in zip(st.inputs(generic), maps, strict=False):
        if not _single_use_non_elementwise_producer(value):
            continue
        if st.is_identity(amap):
            return None
        if st.is_permutation(amap):
            return [expr.position for expr in amap.results]
    return None


class TransposeGenericOpPattern(RewritePattern):
    """An elementwise consumer of a reduction or named op reads it in loop order."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, generic: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if not _has_tensor_semantics(generic) or not st.is_all_parallel(generic):
            return
        interchange = producer_aligning_interchange(generic)
        if interchange is None:
            return
        interchange_generic(generic, interchange, rewriter)


# ---- NormalizeReductionDimsPattern ---------------------------------------------------------


def _stable_insertion_sort(items: list[int], less: Callable[[int, int], bool]) -> list[int]:
    """`std::stable_sort` on a short range (an insertion sort): the same result as IREE's even
    when `less` is not a strict weak order (maps that disagree)."""
    out = list(items)
    for i in range(1, len(out)):
        value, j = out[i], i
        while j > 0 and less(value, out[j - 1]):
            out[j] = out[j - 1]
            j -= 1
        out[j] = value
    return out


def normalized_reduction_interchange(
    iterators: list[str], maps: list[AffineMap]
) -> list[int] | None:
    """Reduction loops reordered by their positions in the maps; None if already in order."""
    reduction = [i for i, kind in enumerate(iterators) if kind == "reduction"]
    if len(reduction) < 2:
        return None
    positions = [
        {e.position: k for k, e in enumerate(m.results) if isinstance(e, AffineDimExpr)}
        for m in maps
    ]

    def before(a: int, b: int) -> bool:
        # a goes before b if some map names both and every map naming both lists a first
        informed = [p for p in positions if a in p and b in p]
        return bool(informed) and all(p[a] < p[b] for p in informed)

    ordered = _stable_insertion_sort(reduction, before)
    if ordered == reduction:
        return None
    interchange = list(range(len(iterators)))
    for slot, dim in zip(reduction, ordered, strict=True):
        interchange[slot] = dim
    return interchange


class NormalizeReductionDimsPattern(RewritePattern):
    """Reduction loops in the order the operands list them."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, generic: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        interchange = normalized_reduction_interchange(
            st.iterator_types(generic), st.indexing_maps(generic)
        )
        if interchange is None:
            return
        interchange_generic(generic, interchange, rewriter)


@dataclass(frozen=True)
class TransposeGenericOpsPass(ModulePass):
    name = "iree-dispatch-creation-transpose-generic-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = [
            MakeReductionInnermostPattern(),
            TransposeGenericOpPattern(),
            NormalizeReductionDimsPattern(),
        ]
        PatternRewriteWalker(GreedyRewritePatternApplier(patterns)).rewrite_module(op)
