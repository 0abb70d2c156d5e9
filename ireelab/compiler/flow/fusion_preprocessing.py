"""FusionPreprocessingPass (`iree-dispatch-creation-fusion-preprocessing`).

Mirrors IREE's DispatchCreation/FusionPreprocessing.cpp, which runs right after
TensorPadToTensorInsertSlice and before the first elementwise fusion, to put the host IR in a
form fusion and dispatch formation handle well. Two of its patterns change what ireelab's
programs become:

- `ElementwiseOpInterchangePattern`: an elementwise generic with one result whose inputs all
  read through the same non-identity permutation has its loops interchanged so the inputs are
  read in order (identity maps) and the transposition moves to the output map. A standalone
  transpose of a 2x3x4 tensor therefore iterates 2x3x4 (the source's order), and its dispatch
  is named `transpose_2x3x4_f32` whatever the permutation, as IREE names it.
- `FoldSuccessiveTensorInsertSliceOps`: a tensor inserted into a fill, inserted in turn into a
  fill of the same value (two pads of one padding value, after TensorPadToTensorInsertSlice),
  becomes one insert of the tensor at the summed offsets into the outer fill.

IREE's pass also resolves `tensor.dim` of shaped results and folds into `linalg.pack`/`unpack`;
with static shapes and no pack ops nothing is left for those here. Like the greedy driver
behind IREE's pass, the ops left unused are erased.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    IndexType,
    IntegerType,
    ModuleOp,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, Operation
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import Rewriter
from xdsl.traits import IsTerminator

from ireelab.compiler.flow import structured as st
from ireelab.compiler.flow.dead_code import erase_dead_ops
from ireelab.compiler.flow.dispatch_utils import functions, is_outside_dispatch
from ireelab.diagnostics import copy_location

# ---- linalg::isElementwise ------------------------------------------------------------------

_SCALAR_BODY_DIALECTS = ("arith", "math")
"""Dialects whose scalar ops are elementwise-mappable in MLIR (every arith and math op)."""


def _is_scalar(t: Attribute) -> bool:
    return isinstance(t, IntegerType | IndexType | AnyFloat)


def _is_scalar_elementwise_body(generic: linalg.GenericOp) -> bool:
    """MLIR's `hasOnlyScalarElementwiseOp`: one block of scalar arith/math ops, constants,
    `tensor.extract`, `linalg.index` and the yield."""
    if len(generic.body.blocks) != 1:
        return False
    for op in generic.body.block.ops:
        allowed = (
            op.dialect_name() in _SCALAR_BODY_DIALECTS
            or isinstance(op, tensor.ExtractOp | linalg.IndexOp)
            or op.has_trait(IsTerminator)
        )
        if not allowed or not all(_is_scalar(r.type) for r in op.results):
            return False
    return True


def is_elementwise(generic: linalg.GenericOp) -> bool:
    """MLIR's `linalg::isElementwise`: all loops parallel, every map a projected permutation,
    every init map a permutation, and a scalar elementwise body."""
    maps = st.indexing_maps(generic)
    init_maps = maps[len(generic.inputs) :]
    return (
        st.is_all_parallel(generic)
        and all(st.is_projected_permutation(m) for m in maps)
        and all(st.is_permutation(m) for m in init_maps)
        and _is_scalar_elementwise_body(generic)
    )


# ---- linalg::interchangeGenericOp ---------------------------------------------------------


def interchange_generic(
    generic: linalg.GenericOp, interchange: list[int], rewriter: PatternRewriter
) -> linalg.GenericOp:
    """Reorder the loops of `generic`: new loop `j` is old loop `interchange[j]`. Maps,
    iterator types and `linalg.index` ops in the body follow (MLIR's `interchangeGenericOp`);
    the computed values do not change."""
    n = len(interchange)
    new_position = {old: new for new, old in enumerate(interchange)}
    old_loops_in_new = AffineMap(n, 0, tuple(AffineDimExpr(new_position[k]) for k in range(n)))
    maps = [m.compose(old_loops_in_new) for m in st.indexing_maps(generic)]
    iterators = [generic.iterator_types.data[old] for old in interchange]
    new = generic.clone()
    new.indexing_maps = ArrayAttr(AffineMapAttr(m) for m in maps)
    new.iterator_types = ArrayAttr(iterators)
    for index in [op for op in new.body.walk() if isinstance(op, linalg.IndexOp)]:
        moved = linalg.IndexOp(new_position[index.dim.value.data])
        Rewriter.replace_op(index, moved)
    copy_location(generic, new)
    rewriter.replace(generic, new)
    return new


class ElementwiseOpInterchangePattern(RewritePattern):
    """All inputs read through one non-identity permutation: interchange the loops so they read
    in order."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, generic: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if not is_outside_dispatch(generic) or not is_elementwise(generic):
            return
        if len(generic.results) != 1 or not generic.inputs:
            return
        maps = st.indexing_maps(generic)
        input_map, init_map = maps[0], maps[len(generic.inputs)]
        if st.is_identity(input_map) or not st.is_permutation(input_map):
            return
        if not st.is_permutation(init_map):
            return
        if any(m != input_map for m in maps[: len(generic.inputs)]):
            return
        interchange = [expr.position for expr in input_map.results]
        interchange_generic(generic, interchange, rewriter)


# ---- FoldSuccessiveTensorInsertSliceOps ---------------------------------------------------


def _fill_value(op: Operation | None):
    """The scalar a `linalg.fill` writes, or None for anything else."""
    if not isinstance(op, linalg.FillOp):
        return None
    return op.inputs[0]


def _is_static_unit_stride(insert: tensor.InsertSliceOp) -> bool:
    if insert.offsets or insert.sizes or insert.strides:
        return False
    return all(s == 1 for s in insert.static_strides.get_values())


class FoldSuccessiveTensorInsertSliceOps(RewritePattern):
    """`insert(insert(%a into fill(%c)) into fill(%c))` -> `insert(%a into fill(%c))` at the
    summed offsets."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, outer: tensor.InsertSliceOp, rewriter: PatternRewriter) -> None:
        inner = outer.source.owner
        if not isinstance(inner, tensor.InsertSliceOp) or not is_outside_dispatch(outer):
            return
        inner_fill, outer_fill = _fill_value(inner.dest.owner), _fill_value(outer.dest.owner)
        if inner_fill is None or outer_fill is None or inner_fill != outer_fill:
            return
        # IREE checks the outer op's strides (twice); the inner one's must be unit too, or the
        # folded insert would write a dense block where a strided one was. Dynamic offsets
        # would need an affine.apply ireelab does not model.
        if not _is_static_unit_stride(outer) or not _is_static_unit_stride(inner):
            return
        offsets = [
            a + b
            for a, b in zip(
                inner.static_offsets.get_values(), outer.static_offsets.get_values(), strict=True
            )
        ]
        folded = tensor.InsertSliceOp.from_static_parameters(
            inner.source, outer.dest, offsets, list(inner.static_sizes.get_values())
        )
        copy_location(outer, folded)
        rewriter.replace(outer, folded)


@dataclass(frozen=True)
class FusionPreprocessingPass(ModulePass):
    name = "iree-dispatch-creation-fusion-preprocessing"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [ElementwiseOpInterchangePattern(), FoldSuccessiveTensorInsertSliceOps()]
            )
        ).rewrite_module(op)
        for fn in functions(op):
            erase_dead_ops(fn)
