"""Fusing a reshape with a `linalg.generic` by expanding the generic's loops.

Mirrors the expansion half of MLIR's Linalg/Transforms/ElementwiseOpFusion.cpp
(`populateFoldReshapeOpsByExpansionPatterns`), which IREE's BubbleUpExpandShapesPass drives
with its own control function. A reshape next to a generic is folded into it by giving the
generic the loops of the reshape's expanded side:

    %g = linalg.generic ... -> tensor<?x6x4x4xf32>        %g = linalg.generic (5 loops) ...
    %e = tensor.expand_shape %g [[0], [1, 2], [3], [4]]  ->     -> tensor<?x2x3x4x4xf32>
         : tensor<?x6x4x4xf32> into tensor<?x2x3x4x4xf32>

Each loop the reshaped operand's map reads at a dim of a reassociation group splits into that
group's loops (with its sizes); every other loop stays whole. The other operands get a
`tensor.expand_shape` to the new loop shape (they are new expanding reshapes, which the same
patterns move on up), and results whose type changed are collapsed back for their other users.

- `FoldReshapeWithGenericOpByExpansion`: an expand_shape of a generic's result (the
  expand bubbles up above the generic);
- `FoldWithProducerReshapeOpByExpansion`: a generic reading a collapse_shape (the collapse
  sinks below the generic).

MLIR's preconditions, as modelled: every map is a projected permutation and the fused operand's
map reads at least one loop. The `?` sizes the expanded generic needs are the reshape's (an
expand's `output_shape` values must be defined before the generic; MLIR moves their definitions
up where it can, ireelab leaves such a reshape alone). A `linalg.index` of a split loop becomes
the linearisation of its new loops' indices (`updateExpandedGenericOpRegion`). MLIR applies the
patterns to every `LinalgOp` (named ops come out as generics, fill / copy / transpose keep their
names); IREE's control function refuses named ops, so only `linalg.generic` is matched here. The
pad patterns (`FoldPadWithProducerReshapeOpByExpansion`, `FoldReshapeWithProducerPadOpByExpansion`)
are not modelled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.flow import structured as st
from ireelab.compiler.flow.collapse_dimensions import _reassoc_attr, loop_extents
from ireelab.compiler.util.dynamic_dims import dim_value
from ireelab.dialects import tensor_ext

ControlFn = Callable[[Operation | None, Operation], bool]
"""MLIR's `ControlFusionFn`, given the fused edge's producer and consumer."""

Size = int | SSAValue
"""A static size, or the index value holding a `?` size."""


@dataclass
class ExpansionInfo:
    """Where each loop of the original generic goes in the expanded one (MLIR's class)."""

    loops: list[list[int]]
    """Original loop -> its loops in the expanded op (contiguous, in order)."""
    sizes: list[list[Size]]
    """Original loop -> the sizes of those loops."""

    @property
    def num_loops(self) -> int:
        return sum(len(group) for group in self.loops)


def groups_of(reshape: Operation) -> list[list[int]]:
    return [[a.value.data for a in g.data] for g in reshape.reassociation.data]


def mixed_output_shape(expand: tensor.ExpandShapeOp) -> list[Size]:
    values = iter(expand.dynamic_output_shape)
    static = expand.static_output_shape.get_values()
    return [next(values) if size == DYNAMIC_INDEX else size for size in static]


def _mixed_shape(value: SSAValue) -> list[Size] | None:
    """`tensor::getMixedSizes` from the values the producer holds (None if it does not say)."""
    sizes = [dim_value(value, i) for i in range(len(value.type.get_shape()))]
    return None if any(s is None for s in sizes) else sizes


def is_fusable_by_expansion(op: Operation, operand_index: int) -> bool:
    """MLIR's `isFusableWithReshapeByDimExpansion`."""
    if not st.is_generic(op) or not all(isinstance(v.type, TensorType) for v in op.outputs):
        return False
    maps = st.indexing_maps(op)
    return all(st.is_projected_permutation(m) for m in maps) and bool(maps[operand_index].results)


def compute_expansion(
    op: Operation, operand_map: AffineMap, reassociation: list[list[int]], shape: list[Size]
) -> ExpansionInfo | None:
    extents = loop_extents(op)
    if extents is None or not reassociation:
        return None
    sizes: list[list[Size] | None] = [None] * operand_map.num_dims
    for result, group in zip(operand_map.results, reassociation, strict=True):
        sizes[result.position] = [shape[i] for i in group]
    expanded = [s if s is not None else [extents[d]] for d, s in enumerate(sizes)]
    loops, start = [], 0
    for group in expanded:
        loops.append(list(range(start, start + len(group))))
        start += len(group)
    return ExpansionInfo(loops, expanded)


def expanded_map(amap: AffineMap, info: ExpansionInfo) -> AffineMap:
    results = [AffineDimExpr(new) for e in amap.results for new in info.loops[e.position]]
    return AffineMap(info.num_loops, amap.num_symbols, tuple(results))


def expansion_reassociation(amap: AffineMap, info: ExpansionInfo) -> list[list[int]]:
    """The groups that reshape an operand read through `amap` to its expanded form."""
    groups, start = [], 0
    for e in amap.results:
        count = len(info.loops[e.position])
        groups.append(list(range(start, start + count)))
        start += count
    return groups


def _expanded_sizes(amap: AffineMap, info: ExpansionInfo) -> list[Size]:
    return [size for e in amap.results for size in info.sizes[e.position]]


def _compatible(source: list[int], expanded: list[int], groups: list[list[int]]) -> bool:
    """MLIR's `reshapeLikeShapesAreCompatible` for an expanding reshape."""
    for size, group in zip(source, groups, strict=True):
        members = [expanded[i] for i in group]
        if DYNAMIC_INDEX in members:
            if size != DYNAMIC_INDEX or members.count(DYNAMIC_INDEX) > 1:
                return False
            continue
        product = 1
        for m in members:
            product *= m
        if size != DYNAMIC_INDEX and product != size:
            return False
    return True


def _expand_operand(
    value: SSAValue, amap: AffineMap, info: ExpansionInfo
) -> SSAValue | Operation | None:
    """`value` reshaped to the expanded op's loops: itself when nothing changes, else the
    (not yet inserted) `tensor.expand_shape`; None when the shapes are not compatible."""
    sizes = _expanded_sizes(amap, info)
    static = [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes]
    t = value.type
    if list(t.get_shape()) == static:
        return value
    groups = expansion_reassociation(amap, info)
    if not _compatible(list(t.get_shape()), static, groups):
        return None
    new_type = TensorType(t.get_element_type(), static, t.encoding)
    dynamic = [s for s in sizes if not isinstance(s, int)]
    return tensor_ext.ExpandShapeOp(value, dynamic, _reassoc_attr(groups), static, new_type)


def _dominates(value: SSAValue, op: Operation) -> bool:
    """`value` is usable at `op`: a block argument around it or an op before it."""
    block = value.block if isinstance(value, BlockArgument) else value.op.parent
    ancestor: Operation | None = op
    while ancestor is not None and ancestor.parent is not block:
        ancestor = ancestor.parent_op()
    if ancestor is None:
        return False
    return isinstance(value, BlockArgument) or value.op.is_before_in_block(ancestor)


def _linearize_indices(body: Block, info: ExpansionInfo) -> None:
    """A `linalg.index` of a split loop is `((i0 * s1 + i1) * s2 + i2) ...` of its new loops.
    A loop of size 1 has index 0 and is left out of the sum (MLIR's folded affine maps drop it
    once the canonicalizer knows the index; here it is never built)."""
    for index_op in [o for o in body.walk() if isinstance(o, linalg.IndexOp)]:
        dim = index_op.dim.value.data
        if info.loops[dim] == [dim]:
            continue  # the loop keeps its number: nothing to rewrite
        pairs = zip(info.loops[dim], info.sizes[dim], strict=True)
        terms = [(loop, size) for loop, size in pairs if size != 1]
        new_ops: list[Operation] = []
        value: SSAValue | None = None
        for loop, size in terms:
            index = linalg.IndexOp(loop)
            new_ops.append(index)
            if value is None:
                value = index.result
                continue
            if isinstance(size, int):
                new_ops.append(constant := arith.ConstantOp(IntegerAttr(size, IndexType())))
                size = constant.result
            mul = arith.MuliOp(value, size)
            add = arith.AddiOp(mul.result, index.result)
            new_ops += [mul, add]
            value = add.result
        if value is None:  # every new loop has size 1
            new_ops.append(zero := arith.ConstantOp(IntegerAttr(0, IndexType())))
            value = zero.result
        Rewriter.insert_op(new_ops, InsertPoint.before(index_op))
        Rewriter.replace_op(index_op, [], [value])


def fuse_by_expansion(
    op: linalg.GenericOp, reshape: Operation, operand_index: int, rewriter: PatternRewriter
) -> tuple[linalg.GenericOp, list[SSAValue]] | None:
    """MLIR's `fuseWithReshapeByExpansion`: the expanded generic and, per original result, the
    value that replaces it (the new result, collapsed back where its type changed)."""
    if isinstance(reshape, tensor.ExpandShapeOp):
        if not all(_dominates(v, op) for v in reshape.dynamic_output_shape):
            return None
        shape, source = mixed_output_shape(reshape), reshape.src
    else:
        shape, source = _mixed_shape(reshape.src), reshape.src
    if shape is None:
        return None
    maps = st.indexing_maps(op)
    info = compute_expansion(op, maps[operand_index], groups_of(reshape), shape)
    if info is None:
        return None
    operands: list[SSAValue] = []
    reshapes: list[Operation] = []
    for index, (value, amap) in enumerate(zip(op.operands, maps, strict=True)):
        if index == operand_index and isinstance(reshape, tensor.CollapseShapeOp):
            operands.append(source)
            continue
        if not isinstance(value.type, TensorType):
            operands.append(value)
            continue
        expanded = _expand_operand(value, amap, info)
        if expanded is None:
            return None  # nothing inserted yet: the IR is unchanged
        if isinstance(expanded, Operation):
            reshapes.append(expanded)
            expanded = expanded.results[0]
        operands.append(expanded)
    rewriter.insert(reshapes, InsertPoint.before(op))
    iterators = [""] * info.num_loops
    for loop, kind in enumerate(st.iterator_types(op)):
        for new in info.loops[loop]:
            iterators[new] = kind
    body = Region()
    op.body.clone_into(body)
    _linearize_indices(body.block, info)
    n_in = len(op.inputs)
    new_maps = [expanded_map(m, info) for m in maps]
    generic = st.make_generic(operands[:n_in], operands[n_in:], body, new_maps, iterators)
    rewriter.insert(generic, InsertPoint.before(op))
    replacements: list[SSAValue] = []
    for result, new, amap in zip(op.results, generic.results, maps[n_in:], strict=True):
        if new.type == result.type:
            replacements.append(new)
            continue
        collapse = tensor.CollapseShapeOp.create(
            operands=[new],
            result_types=[result.type],
            properties={"reassociation": _reassoc_attr(expansion_reassociation(amap, info))},
        )
        rewriter.insert(collapse, InsertPoint.before(op))
        replacements.append(collapse.result)
    return generic, replacements


@dataclass
class FoldReshapeWithGenericOpByExpansion(RewritePattern):
    """`expand_shape(generic)` -> the generic over the expanded loops."""

    control: ControlFn

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.ExpandShapeOp, rewriter: PatternRewriter) -> None:
        result = op.src
        if not isinstance(result, OpResult) or not st.is_generic(result.op):
            return
        producer = result.op
        operand_index = len(producer.inputs) + result.index
        if not is_fusable_by_expansion(producer, operand_index):
            return
        if not self.control(producer, op):
            return
        fused = fuse_by_expansion(producer, op, operand_index, rewriter)
        if fused is None:
            return
        generic, replacements = fused
        rewriter.replace(producer, [], replacements)  # first: the results keep its names
        rewriter.replace(op, [], [generic.results[result.index]])


@dataclass
class FoldWithProducerReshapeOpByExpansion(RewritePattern):
    """A generic reading `collapse_shape(x)` -> the generic over `x`'s loops."""

    control: ControlFn

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        for index, value in enumerate(op.inputs):
            if not isinstance(value, OpResult) or not isinstance(value.op, tensor.CollapseShapeOp):
                continue
            if not is_fusable_by_expansion(op, index) or not self.control(value.op, op):
                continue
            fused = fuse_by_expansion(op, value.op, index, rewriter)
            if fused is None:
                return
            rewriter.replace(op, [], fused[1])
            return
