"""FoldUnitExtentDimsPass (`iree-dispatch-creation-fold-unit-extent-dims`).

Mirrors IREE's DispatchCreation/FoldUnitExtentDims.cpp (over MLIR's `dropUnitDims`): an input
read at constant 0 along a size-1 dimension (`(d0, d1, 0)` of `AxBx1`, as ONNX's keepdims
reductions feed their consumers) is read as the `AxB` tensor; a loop of trip count 1 carries
no work, so it is removed from every generic outside a dispatch, and the
size-1 dimensions it indexed are folded away with `tensor.collapse_shape` on the operands and
`tensor.expand_shape` on the results; `linalg.index` of a removed loop becomes the constant 0
and the others are renumbered (MLIR's `replaceUnitDimIndexOps`). A batch-1 convolution becomes a 3-D one (IREE names its
dispatch `conv_54x54x64x3x3x64`, not `conv_1x54x54x64x...`); a unit loop inside a window
(`d1 + d4` of a 1x1 filter, a pooling to 1x1) reads as 0 there, so a 1x1 convolution becomes
`matmul_like` and a global pooling a plain `reduction`. A `tensor.pad` with a constant value
drops its unpadded size-1 dimensions too (MLIR's `DropPadUnitDims`), and an all-parallel
generic's init that its body reads moves to its inputs (MLIR's `MoveInitOperandsToInput`, one
of this pass's canonicalisations in IREE). Reshapes between two folded ops cancel, and those
left at the edges become `flow.tensor.reshape` later.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation, OpResult, Region
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.flow import structured as st
from ireelab.compiler.flow.collapse_dimensions import (
    _groups_of,
    _reassoc_attr,
    collapse_value,
    expand_dims,
)
from ireelab.compiler.flow.dispatch_utils import is_outside_dispatch
from ireelab.compiler.flow.move_init_operands_to_input import move_init_operands_to_input
from ireelab.compiler.flow.tensor_pad_to_tensor_insert_slice import padded_sizes, padding_value
from ireelab.compiler.util.dynamic_dims import dynamic_count, find_dynamic_dims
from ireelab.diagnostics import copy_location
from ireelab.dialects import tensor_ext
from ireelab.dialects.iree_linalg_ext_quant import AffineQuantOp


def unit_loops(op: Operation) -> list[int]:
    """Loops of trip count 1 (MLIR's rule: the first operand dimension a loop indexes as a
    plain `dN` has size 1). A unit loop inside a compound index, as a 1x1 convolution's
    window `d1 + d4` or a pooling to 1x1, reads as 0 there (`d1 + 0` is `d1`), so a 1x1
    convolution becomes a matmul-like generic and a global pooling a plain reduction."""
    ranges = st.loop_ranges(op)
    kept = [i for i, r in enumerate(ranges) if r == 1]
    if len(kept) < len(ranges) or not kept:
        return kept  # some loop is not a unit loop (or there are none: a 0-d op)
    # Every loop is a unit loop: one stays. It must be one every operand reads as a plain
    # `dN`: a window loop left alone in `oh * 2 + kh` would take its range from the input's
    # dimension there (a 1x1 pooling of a padded 4x4 input would reduce over 4).
    plain = [i for i in kept if _read_plainly(op, i)]
    stay = (plain or kept)[-1]  # the last, as before for ops that read every loop plainly
    return [i for i in kept if i != stay]


def _read_plainly(op: Operation, loop: int) -> bool:
    """`loop` appears in the indexing maps, and only as a whole result (`dN`)."""
    seen = False
    for amap in st.indexing_maps(op):
        for e in amap.results:
            if isinstance(e, AffineDimExpr) and e.position == loop:
                seen = True
            elif loop in e.used_dims():
                return False
    return seen


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


def _static_generic_outside_dispatch(op: Operation) -> bool:
    """A generic (or a (de)quantize_affine) this pass folds: outside a dispatch, and where
    sizes are `?`, with every operand's and result's sizes known (the expands back take them
    as `output_shape`, as IREE's take theirs from `tensor.dim`)."""
    if not (st.is_generic(op) or isinstance(op, AffineQuantOp)) or not is_outside_dispatch(op):
        return False
    values = [*op.operands, *op.results]
    return all(find_dynamic_dims(v) is not None for v in values if dynamic_count(v.type))


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
    if isinstance(op, AffineQuantOp):
        folded = _folded_quant_op(op, operands, new_maps)
    else:
        iters = [k for i, k in enumerate(st.iterator_types(op)) if i not in units]
        body = op.detach_region(0)
        folded = st.make_generic(operands[:n_in], operands[n_in:], body, new_maps, iters)
        renumber_loop_indices(folded.regions[0], keep)
    Rewriter.insert_op(folded, InsertPoint.before(op))
    results = []
    for result, new, reassoc in zip(op.results, folded.results, reassocs[n_in:], strict=True):
        t = result.type
        if new.type == t:
            results.append(new)  # no unit dim of this result folded (a `?` batch): no reshape
            continue
        dims = expand_dims(result)
        expand = tensor_ext.ExpandShapeOp(new, dims, _reassoc_attr(reassoc), t.get_shape(), t)
        Rewriter.insert_op(expand, InsertPoint.before(op))
        results.append(expand.result)
    Rewriter.replace_op(op, [], results)


def _folded_quant_op(op: AffineQuantOp, operands: list, maps: list[AffineMap]) -> AffineQuantOp:
    """The same (de)quantisation over the folded operands (IREE folds these LinalgExt ops
    through their indexing maps as it folds generics)."""
    flags = {name for name in (*op.FLAGS, "zp_unsigned") if op.flag(name)}
    bounds = (op.quant_min.value.data, op.quant_max.value.data)
    folded = type(op)(*operands, maps, bounds, flags)
    copy_location(op, folded)
    return folded


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
        dims = expand_dims(result)
        expand = tensor_ext.ExpandShapeOp(new, dims, _reassoc_attr(groups), t.get_shape(), t)
        Rewriter.insert_op(expand, InsertPoint.before(op))
        results.append(expand.result)
    Rewriter.replace_op(op, [], results)
    return True


def cancel_reshape_chain(reshape: Operation) -> None:
    """Expands and collapses are row-major reshapes, so a chain of them that ends at the
    static type it started from is no reshape at all; with `?` sizes, so is a chain that only
    adds and drops size-1 dims (each group one dim other than a static 1)."""
    target = reshape.results[0].type
    source, chain = reshape.operands[0], [reshape]
    while isinstance(source, OpResult) and isinstance(source.op, _RESHAPES):
        chain.append(source.op)
        source = source.op.operands[0]
        if source.type == target and (not dynamic_count(target) or all(map(_unit_only, chain))):
            Rewriter.replace_op(reshape, [], [source])
            return


_RESHAPES = (tensor.CollapseShapeOp, tensor.ExpandShapeOp)


def _unit_only(reshape: Operation) -> bool:
    expanded = reshape.results[0] if isinstance(reshape, tensor.ExpandShapeOp) else reshape.src
    shape = expanded.type.get_shape()
    return all(sum(shape[i] != 1 for i in group) <= 1 for group in _groups_of(reshape))


def drop_pad_unit_dims(pad: tensor.PadOp) -> bool:
    """MLIR's `DropPadUnitDims`: a size-1 source dimension padded by nothing on either side
    is collapsed away, the smaller tensor padded, and the result expanded back (so the pad
    of a batch-1 NCHW tensor is a 3-D pad, and its insert_slice later reads the producing
    dispatch's result directly). True if anything changed."""
    source_type = pad.source.type
    if pad.nofold is not None or pad.low or pad.high or not isinstance(source_type, TensorType):
        return False
    shape = source_type.get_shape()
    lows, highs = list(pad.static_low.get_values()), list(pad.static_high.get_values())
    dropped = {i for i, s in enumerate(shape) if s == 1 and lows[i] == 0 and highs[i] == 0}
    if not dropped or len(dropped) == len(shape):
        return False
    value = padding_value(pad)
    if value is None or (isinstance(value, OpResult) and value.op.parent_op() is pad):
        return False  # MLIR's pattern needs a constant padding value too
    groups = _grouping(len(shape), dropped)
    source = collapse_value(pad.source, groups, pad)
    keep = [i for i in range(len(shape)) if i not in dropped]
    result_shape = pad.result.type.get_shape()
    new_type = TensorType(source_type.element_type, [result_shape[i] for i in keep])
    body = pad.detach_region(0)
    for i in sorted(dropped, reverse=True):
        body.block.erase_arg(body.block.args[i])
    new = tensor.PadOp(
        source,
        [],
        [],
        body,
        [lows[i] for i in keep],
        [highs[i] for i in keep],
        new_type,
    )
    new.location = pad.location
    # a `?` padded size (a 1-D conv's padded length) is the source's plus the amounts
    size_ops, result_dims, _ = padded_sizes(pad)
    Rewriter.insert_op([*size_ops, new], InsertPoint.before(pad))
    expand = tensor_ext.ExpandShapeOp(
        new.result, result_dims, _reassoc_attr(groups), result_shape, pad.result.type
    )
    Rewriter.insert_op(expand, InsertPoint.before(pad))
    Rewriter.replace_op(pad, [], [expand.result])
    return True


@dataclass(frozen=True)
class FoldUnitExtentDimsPass(ModulePass):
    name = "iree-dispatch-creation-fold-unit-extent-dims"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for candidate in [o for o in op.walk() if _static_generic_outside_dispatch(o)]:
            if st.is_generic(candidate):
                drop_unit_constant_reads(candidate)
        for candidate in [o for o in op.walk() if _static_generic_outside_dispatch(o)]:
            if unit_loops(candidate):
                fold(candidate)
        for pad in [o for o in op.walk() if isinstance(o, tensor.PadOp)]:
            if is_outside_dispatch(pad):
                drop_pad_unit_dims(pad)
        # IREE applies these patterns together to a fixpoint: a generic reading a `?` pad
        # (a 1-D conv's padded length) has the sizes it needs once the pad is folded
        for candidate in [o for o in op.walk() if _static_generic_outside_dispatch(o)]:
            if unit_loops(candidate):
                fold(candidate)
        # IREE's canonicalisation patterns of this pass (MLIR's MoveInitOperandsToInput).
        for candidate in [o for o in op.walk() if st.is_generic(o) and is_outside_dispatch(o)]:
            move_init_operands_to_input(candidate)
        # Reshapes of reshapes back to a tensor's own type are that tensor (MLIR's
        # reshape-of-reshape folding): reads dropped before their producers were folded.
        for reshape in [o for o in op.walk() if isinstance(o, _RESHAPES)]:
            cancel_reshape_chain(reshape)
        # Reshapes that cancelled out (and empties they held) are dead now.
        dead_kinds = (tensor.EmptyOp, tensor.ExpandShapeOp, tensor.CollapseShapeOp)
        for dead in reversed([o for o in op.walk() if isinstance(o, dead_kinds)]):
            if st.use_count(dead.results[0]) == 0:
                Rewriter.erase_op(dead)
