"""FoldUnitExtentDimsPass (`iree-dispatch-creation-fold-unit-extent-dims`).

Mirrors IREE's DispatchCreation/FoldUnitExtentDims.cpp (over MLIR's `dropUnitDims`): an input
read at constant 0 along a size-1 dimension (`(d0, d1, 0)` of `AxBx1`, as ONNX's keepdims
reductions feed their consumers) is read as the `AxB` tensor; a loop of trip count 1 carries
no work, so it is removed from every generic outside a dispatch, and the
size-1 dimensions it indexed are folded away with `tensor.collapse_shape` on the operands and
`tensor.expand_shape` on the results; `linalg.index` of a removed loop becomes the constant 0
and the others are renumbered (MLIR's `replaceUnitDimIndexOps`). A batch-1 convolution becomes a 3-D one (IREE names its
dispatch `conv_54x54x64x3x3x64`, not `conv_1x54x54x64x...`); reshapes between two folded ops
cancel, and those left at the edges become `flow.tensor.reshape` later.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation, Region
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.flow import structured as st
from ireelab.compiler.flow.collapse_dimensions import _reassoc_attr, collapse_value
from ireelab.compiler.flow.dispatch_utils import is_outside_dispatch
from ireelab.dialects import tensor_ext


def unit_loops(op: Operation) -> list[int]:
    """Loops of trip count 1 that every map reads as a plain dimension (or not at all)."""
    ranges = st.loop_ranges(op)
    candidates = [i for i, r in enumerate(ranges) if r == 1]
    maps = st.indexing_maps(op)

    def plain_only(loop: int) -> bool:
        for amap in maps:
            for e in amap.results:
                if not isinstance(e, AffineDimExpr) and loop in e.used_dims():
                    return False
        return True

    kept = [i for i in candidates if plain_only(i)]
    return kept if len(kept) < len(ranges) else kept[:-1]


def _drop_reassociation(amap: AffineMap, dropped: set[int]) -> list[list[int]]:
    """Group each dropped result with the next kept one (or the previous, at the end).

    When every result is dropped the reassociation is empty: the operand collapses to a
    rank-0 tensor, as IREE's `tensor<1xf32> -> tensor<f32>`."""
    groups: list[list[int]] = []
    pending: list[int] = []
    for i, e in enumerate(amap.results):
        if isinstance(e, AffineDimExpr) and e.position in dropped:
            pending.append(i)
            continue
        groups.append([*pending, i])
        pending = []
    if pending and groups:
        groups[-1].extend(pending)
    return groups


def renumber_loop_indices(body: Region, keep: list[int]) -> None:
    """`linalg.index` of the op whose body this is, over the loops left after dropping."""
    for index_op in [o for o in body.walk() if isinstance(o, linalg.IndexOp)]:
        if _enclosing_structured_op(index_op) is not body.parent_op():
            continue  # belongs to a linalg op nested in this body
        loop = index_op.dim.value.data
        if loop in keep:
            new = linalg.IndexOp(keep.index(loop))
        else:
            new = arith.ConstantOp(IntegerAttr(0, IndexType()))
        new.location = index_op.location
        Rewriter.replace_op(index_op, new)


def _enclosing_structured_op(op: Operation) -> Operation | None:
    parent = op.parent_op()
    while parent is not None and not (parent.dialect_name() == "linalg" and parent.regions):
        parent = parent.parent_op()
    return parent


def fold(op: Operation) -> None:
    units = set(unit_loops(op))
    n = st.num_loops(op)
    keep = [i for i in range(n) if i not in units]
    renumber = [
        AffineDimExpr(keep.index(i)) if i in keep else AffineConstantExpr(0) for i in range(n)
    ]
    maps = st.indexing_maps(op)
    new_maps, operands, reassocs = [], [], []
    for value, amap in zip(op.operands, maps, strict=True):
        kept_results = tuple(
            e.replace_dims_and_symbols(renumber, [])
            for e in amap.results
            if not (isinstance(e, AffineDimExpr) and e.position in units)
        )
        new_maps.append(AffineMap(len(keep), 0, kept_results))
        reassoc = _drop_reassociation(amap, units)
        reassocs.append(reassoc)
        is_tensor = isinstance(value.type, TensorType)
        operands.append(collapse_value(value, reassoc, op) if is_tensor and amap.results else value)
    n_in = len(st.inputs(op))
    iters = [k for i, k in enumerate(st.iterator_types(op)) if i not in units]
    body = op.detach_region(0)
    generic = st.make_generic(operands[:n_in], operands[n_in:], body, new_maps, iters)
    renumber_loop_indices(generic.regions[0], keep)
    Rewriter.insert_op(generic, InsertPoint.before(op))
    results = []
    for result, new, reassoc in zip(op.results, generic.results, reassocs[n_in:], strict=True):
        t = result.type
        expand = tensor_ext.ExpandShapeOp(new, [], _reassoc_attr(reassoc), t.get_shape(), t)
        Rewriter.insert_op(expand, InsertPoint.before(op))
        results.append(expand.result)
    Rewriter.replace_op(op, [], results)


def _unit_constant_results(value, amap: AffineMap) -> set[int]:
    """Results of an operand's map that read a size-1 dimension at constant 0."""
    if not isinstance(value.type, TensorType):
        return set()
    shape = value.type.get_shape()
    return {
        i
        for i, e in enumerate(amap.results)
        if isinstance(e, AffineConstantExpr) and e.value == 0 and shape[i] == 1
    }


def _grouping(rank: int, dropped: set[int]) -> list[list[int]]:
    """Each dropped dim joins the next kept one (or the previous, at the end)."""
    groups: list[list[int]] = []
    pending: list[int] = []
    for i in range(rank):
        if i in dropped:
            pending.append(i)
            continue
        groups.append([*pending, i])
        pending = []
    if pending and groups:
        groups[-1].extend(pending)
    return groups


def drop_unit_constant_reads(op: Operation) -> bool:
    """An operand accessed as `(d0, d1, 0)` of a `AxBx1` tensor is the `AxB` tensor accessed
    as `(d0, d1)` (MLIR's `dropUnitDims` drops such operand dims too); an output so dropped
    is expanded back after the op. True if anything changed."""
    maps = st.indexing_maps(op)
    operands, new_maps, out_groups, changed = [], [], [], False
    n_in = len(st.inputs(op))
    for index, (value, amap) in enumerate(zip(op.operands, maps, strict=True)):
        dropped = _unit_constant_results(value, amap)
        groups = _grouping(len(amap.results), dropped)
        if index >= n_in:
            out_groups.append(groups if dropped else None)
        if not dropped:
            operands.append(value)
            new_maps.append(amap)
            continue
        kept = tuple(e for i, e in enumerate(amap.results) if i not in dropped)
        operands.append(collapse_value(value, groups, op))
        new_maps.append(AffineMap(amap.num_dims, 0, kept))
        changed = True
    if not changed:
        return False
    generic = st.make_generic(
        operands[:n_in], operands[n_in:], op.detach_region(0), new_maps, st.iterator_types(op)
    )
    Rewriter.insert_op(generic, InsertPoint.before(op))
    results = []
    for result, new, groups in zip(op.results, generic.results, out_groups, strict=True):
        if groups is None:
            results.append(new)
            continue
        t = result.type
        expand = tensor_ext.ExpandShapeOp(new, [], _reassoc_attr(groups), t.get_shape(), t)
        Rewriter.insert_op(expand, InsertPoint.before(op))
        results.append(expand.result)
    Rewriter.replace_op(op, [], results)
    return True


@dataclass(frozen=True)
class FoldUnitExtentDimsPass(ModulePass):
    name = "iree-dispatch-creation-fold-unit-extent-dims"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for candidate in [o for o in op.walk() if st.is_generic(o) and is_outside_dispatch(o)]:
            drop_unit_constant_reads(candidate)
        for candidate in [o for o in op.walk() if st.is_generic(o) and is_outside_dispatch(o)]:
            if unit_loops(candidate):
                fold(candidate)
        # Reshapes that cancelled out (and empties they held) are dead now.
        dead_kinds = (tensor.EmptyOp, tensor.ExpandShapeOp, tensor.CollapseShapeOp)
        for dead in reversed([o for o in op.walk() if isinstance(o, dead_kinds)]):
            if st.use_count(dead.results[0]) == 0:
                Rewriter.erase_op(dead)
