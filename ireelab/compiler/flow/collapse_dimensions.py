"""CollapseDimensionsPass (`iree-dispatch-creation-collapse-dimensions`).

Mirrors IREE's DispatchCreation/CollapseDimensions.cpp: inside each dispatch region, loops
that every op walks contiguously and in the same order are merged into one, so an elementwise
1024x1024 dispatch becomes a 1-D 1048576 one (fewer, longer loops for codegen to tile). The
steps follow IREE's:

1. Roots are the eligible ops whose results the region returns; the slice is the eligible ops
   they reach backwards. Eligible: `linalg.fill`, `tensor.empty`, `tensor.extract_slice` and
   generics whose maps are all projected permutations.
2. Each op starts from the largest contiguous groups of same-kind loops found in all its maps;
   a `tensor.extract_slice` from the dimensions it reads contiguously (collapse_extract_slice.py:
   inner dimensions read whole, so `a[2, 0] [2, 16]` of 8x16 becomes `[32] [32]` of 128).
3. Producers and consumers constrain each other until nothing changes: a loop may only stay
   grouped with a neighbour if the op on the other side of every edge groups them too, and the
   loops read from a non-eligible producer (a matmul, a convolution) cannot be grouped at all.
4. Each op is rewritten over the collapsed loops with `tensor.collapse_shape` on its operands
   and `tensor.expand_shape` on its results; reshapes of region inputs and outputs are hoisted
   out of the region, where ConvertTensorToFlowPass turns them into `flow.tensor.reshape`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.flow import collapse_extract_slice as slices
from ireelab.compiler.flow import structured as st
from ireelab.compiler.util.dynamic_dims import (
    dims_slice,
    dynamic_count,
    find_dynamic_dims,
    multiply_sizes,
)
from ireelab.dialects import flow, tensor_ext

Groups = list[list[int]]


def is_eligible(op: Operation) -> bool:
    if isinstance(op, linalg.FillOp | tensor.EmptyOp | tensor.ExtractSliceOp):
        return True
    if not st.is_generic(op):
        return False
    return all(m.is_projected_permutation() for m in st.indexing_maps(op))


def _maps(op: Operation) -> list[AffineMap]:
    """Operand maps: loops -> operand dims (a `tensor.empty`'s one map is its result's)."""
    if isinstance(op, tensor.EmptyOp):
        return [AffineMap.identity(len(op.tensor.type.get_shape()))]
    if isinstance(op, tensor.ExtractSliceOp):
        return slices.slice_operand_maps(op)
    return st.indexing_maps(op)


def _iterators(op: Operation) -> list[str]:
    if isinstance(op, tensor.EmptyOp):
        return ["parallel"] * len(op.tensor.type.get_shape())
    if isinstance(op, tensor.ExtractSliceOp):
        return ["parallel"] * slices.source_rank(op)
    return st.iterator_types(op)


def initial_groups(op: Operation) -> Groups:
    """IREE's `getCollapsibleLoops`: runs of loops adjacent, in order, in every map."""
    if isinstance(op, tensor.ExtractSliceOp):
        return slices.initial_slice_groups(op)
    maps = [m for m in _maps(op) if m.results]
    iters = _iterators(op)

    def adjacent(a: int, b: int) -> bool:
        for amap in maps:
            pos = [e.position for e in amap.results]
            if a in pos and (pos.index(a) + 1 >= len(pos) or pos[pos.index(a) + 1] != b):
                return False
            if b in pos and (pos.index(b) == 0 or pos[pos.index(b) - 1] != a):
                return False
        return iters[a] == iters[b]

    groups: Groups = []
    seen: set[int] = set()
    for amap in maps:
        run: list[int] = []
        for expr in amap.results:
            loop = expr.position
            if loop in seen:
                groups += [run] if len(run) > 1 else []
                run = []
                continue
            if run and not adjacent(run[-1], loop):
                groups += [run] if len(run) > 1 else []
                run = []
            run.append(loop)
            seen.add(loop)
        groups += [run] if len(run) > 1 else []
    return groups


def _split(groups: Groups, keep_together) -> Groups:
    """Split each group wherever `keep_together(a, b)` is false for neighbours a, b."""
    result: Groups = []
    for group in groups:
        run = [group[0]]
        for a, b in zip(group, group[1:], strict=False):
            if keep_together(a, b):
                run.append(b)
                continue
            result += [run] if len(run) > 1 else []
            run = [b]
        result += [run] if len(run) > 1 else []
    return result


def _loop_correspondence(this_to_other: AffineMap) -> dict[int, int]:
    """this loop -> other loop, from a map whose results are indexed by the other's loops."""
    return {
        e.position: i for i, e in enumerate(this_to_other.results) if isinstance(e, AffineDimExpr)
    }


def constrain(groups: Groups, other_groups: Groups, this_to_other: dict[int, int]) -> Groups:
    group_of = {loop: gi for gi, g in enumerate(other_groups) for loop in g}

    def together(a: int, b: int) -> bool:
        if a not in this_to_other and b not in this_to_other:
            return True  # the edge does not carry these loops (a 0-d or broadcast operand)
        if a not in this_to_other or b not in this_to_other:
            return False
        oa, ob = this_to_other[a], this_to_other[b]
        return oa in group_of and group_of[oa] == group_of.get(ob) and ob == oa + 1

    return _split(groups, together)


def _edge_map(operand_map: AffineMap, result_map: AffineMap) -> AffineMap:
    """Consumer loops -> producer loops through one operand (results indexed by producer loop)."""
    return result_map.inverse_and_broadcast_projected_permutation().compose(operand_map)


def propagate(slice_ops: list[Operation], groups: dict[Operation, Groups]) -> None:
    changed = True
    while changed:
        changed = False
        for consumer in slice_ops:
            for index, value in enumerate(consumer.operands):
                producer = value.op if isinstance(value, OpResult) else None
                if producer is None or producer.parent is not consumer.parent:
                    continue
                operand_map = _maps(consumer)[index] if index < len(_maps(consumer)) else None
                if operand_map is None:
                    continue
                if producer in groups:
                    result_map = _result_map(producer, value)
                    to_producer = _loop_correspondence(_edge_map(operand_map, result_map))
                    new_c = constrain(groups[consumer], groups[producer], to_producer)
                    inverse = {p: c for c, p in to_producer.items()}
                    new_p = constrain(groups[producer], new_c, inverse)
                    if new_p != groups[producer]:
                        groups[producer], changed = new_p, True
                else:
                    used = operand_map.used_dims()
                    new_c = _split(
                        groups[consumer], lambda a, b, used=used: a not in used and b not in used
                    )
                if new_c != groups[consumer]:
                    groups[consumer], changed = new_c, True


def _result_map(op: Operation, value: OpResult) -> AffineMap:
    if isinstance(op, tensor.EmptyOp):
        return AffineMap.identity(len(value.type.get_shape()))
    if isinstance(op, tensor.ExtractSliceOp):
        return slices.slice_result_map(op)
    return st.result_map(value)


# ---- rewriting one op over collapsed loops ----------------------------------------------


def _reassociation(amap: AffineMap, groups: Groups) -> list[list[int]]:
    """Operand-dim reassociation: consecutive results in the same loop group merge."""
    group_of = {loop: gi for gi, g in enumerate(groups) for loop in g}
    reassoc: list[list[int]] = []
    prev = None
    for i, e in enumerate(amap.results):
        gi = group_of.get(e.position)
        if reassoc and gi is not None and gi == prev:
            reassoc[-1].append(i)
        else:
            reassoc.append([i])
        prev = gi
    return reassoc


def _collapsed_map(
    amap: AffineMap, groups: Groups, new_index: dict[int, int], n_new: int
) -> AffineMap:
    group_of = {loop: gi for gi, g in enumerate(groups) for loop in g}
    results = []
    prev = None
    for e in amap.results:
        gi = group_of.get(e.position)
        if gi is not None and gi == prev:
            continue
        results.append(AffineDimExpr(new_index[e.position]))
        prev = gi
    return AffineMap(n_new, 0, tuple(results))


def _reassoc_attr(reassoc: list[list[int]]) -> ArrayAttr:
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in reassoc])


def _collapsed_type(t: TensorType, reassoc: list[list[int]]) -> TensorType:
    shape = t.get_shape()
    sizes = []
    for g in reassoc:
        size = 1
        for i in g:
            size *= shape[i]
        sizes.append(DYNAMIC_INDEX if any(shape[i] == DYNAMIC_INDEX for i in g) else size)
    return TensorType(t.get_element_type(), sizes, t.encoding)  # packed storage kept


def _host_op(before: Operation) -> Operation:
    """The dispatch region holding `before` (sizes are computed on the host, as IREE
    passes a collapsed `?`'s product into the dispatch), else `before` itself."""
    op, outermost = before, before
    while op is not None:
        if isinstance(op, flow.DispatchRegionOp):
            outermost = op
        op = op.parent_op()
    return outermost


def collapsed_sizes(value: SSAValue, reassoc: list[list[int]], before: Operation):
    """The `?` sizes of `value` collapsed by `reassoc`: a group's product of its sizes (the
    one `?` itself when the others are 1), built on the host."""
    shape = value.type.get_shape()
    dims = iter(find_dynamic_dims(value) or [])
    dim_of = {i: next(dims) for i, size in enumerate(shape) if size == DYNAMIC_INDEX}
    sizes: list[SSAValue] = []
    for group in reassoc:
        factors = [dim_of[i] for i in group if i in dim_of]
        if not factors:
            continue
        static = 1
        for i in group:
            static *= shape[i] if i not in dim_of else 1
        sizes.append(multiply_sizes(factors, static, _host_op(before)))
    return sizes


def expand_dims(result: SSAValue) -> list[SSAValue]:
    """The `output_shape` values of an expand back to `result`'s type: its `?` sizes."""
    return find_dynamic_dims(result) or []


def collapse_value(value: SSAValue, reassoc: list[list[int]], before: Operation) -> SSAValue:
    rank = len(value.type.get_shape())
    if len(reassoc) == rank and all(len(g) == 1 for g in reassoc):
        return value
    owner = value.op if isinstance(value, OpResult) else None
    if (
        isinstance(owner, tensor.ExpandShapeOp)
        and [list(map(int, g)) for g in _groups_of(owner)] == reassoc
    ):
        return owner.src
    new_type = _collapsed_type(value.type, reassoc)
    if isinstance(owner, linalg.FillOp) and st.use_count(value) == 1:
        init = collapse_value(owner.outputs[0], reassoc, before)
        fill = linalg.FillOp(list(owner.inputs), [init], [new_type])
        Rewriter.insert_op(fill, InsertPoint.before(before))
        return fill.results[0]
    if isinstance(owner, tensor.EmptyOp):
        empty = tensor.EmptyOp(collapsed_sizes(value, reassoc, before), new_type)
        Rewriter.insert_op(empty, InsertPoint.before(before))
        return empty.tensor
    collapse = tensor.CollapseShapeOp.create(
        operands=[value],
        result_types=[new_type],
        properties={"reassociation": _reassoc_attr(reassoc)},
    )
    Rewriter.insert_op(collapse, InsertPoint.before(before))
    return collapse.result


def _groups_of(op: Operation) -> list[list[int]]:
    return [[a.value.data for a in g.data] for g in op.reassociation.data]


def collapse_fill(op: linalg.FillOp, groups: Groups) -> None:
    init = op.outputs[0]
    reassoc = _reassociation(st.indexing_maps(op)[1], groups)
    new_init = collapse_value(init, reassoc, op)
    fill = linalg.FillOp(list(op.inputs), [new_init], [new_init.type])
    expand = tensor_ext.ExpandShapeOp(
        fill.results[0], expand_dims(init), _reassoc_attr(reassoc), init.type.get_shape(), init.type
    )
    Rewriter.insert_op([fill, expand], InsertPoint.before(op))
    Rewriter.replace_op(op, [], [expand.result])


def _index_constant(value: int, before: Operation) -> SSAValue:
    constant = arith.ConstantOp(IntegerAttr(value, IndexType()))
    Rewriter.insert_op(constant, InsertPoint.before(before))
    return constant.result


def delinearize_loop_indices(
    body: Region, groups: Groups, new_index: dict[int, int], extents: list[int | SSAValue]
) -> None:
    """Rewrite `linalg.index` of the original loops in terms of the collapsed ones.

    A loop folded into a group is recovered from the group's linear index, as MLIR's
    `collapseOpIterationDims` does: the first member is `index / (product of the later
    members' extents)`, the last `index % extent`, the ones between both. A `?` extent is
    its size value, read by the body (the dispatch then takes it as an operand, as IREE's
    `affine.delinearize_index` by the size does); see `index_extents` for which value.
    """
    group_of = {member: g for g in groups for member in g}
    for index_op in [o for o in body.walk() if isinstance(o, linalg.IndexOp)]:
        loop = index_op.dim.value.data
        collapsed = linalg.IndexOp(new_index[loop])
        Rewriter.insert_op(collapsed, InsertPoint.before(index_op))
        value: SSAValue = collapsed.result
        group = group_of.get(loop, [loop])
        position = group.index(loop)
        inner = _product([extents[m] for m in group[position + 1 :]], index_op)
        if inner != 1:
            divide = arith.DivSIOp(value, _index_value(inner, index_op))
            Rewriter.insert_op(divide, InsertPoint.before(index_op))
            value = divide.result
        if position > 0:
            remainder = arith.RemSIOp(value, _index_value(extents[loop], index_op))
            Rewriter.insert_op(remainder, InsertPoint.before(index_op))
            value = remainder.result
        Rewriter.replace_op(index_op, [], [value])


def _index_value(extent: int | SSAValue, before: Operation) -> SSAValue:
    return _index_constant(extent, before) if isinstance(extent, int) else extent


def _product(extents: list[int | SSAValue], before: Operation) -> int | SSAValue:
    """The product of loop extents: a number when all are static, else `arith.muli`s of
    the sizes (and the static factor) just before `before`."""
    static = 1
    product: SSAValue | None = None
    for extent in extents:
        if isinstance(extent, int):
            static *= extent
            continue
        if product is None:
            product = extent
            continue
        mul = arith.MuliOp(product, extent)
        Rewriter.insert_op(mul, InsertPoint.before(before))
        product = mul.result
    if product is None:
        return static
    if static != 1:
        mul = arith.MuliOp(product, _index_constant(static, before))
        Rewriter.insert_op(mul, InsertPoint.before(before))
        product = mul.result
    return product


def index_extents(op: Operation) -> list[int | SSAValue]:
    """The loop extents a collapsed `linalg.index` is recovered with. MLIR's
    `createLoopRanges` takes a `?` loop's extent as a `tensor.dim` of the first operand that
    spans it; of an operand produced in the region the canonicalizer folds the dim to the
    producer's size (`loop_extents`), but of a tensor captured from the host it stays a
    `tensor.dim` in the body, which ConvertDispatchRegionsToWorkgroups folds to that
    tensor's captured size (so the size takes its place among the captured tensors' dims:
    `col_index_dxd`'s `[%rows*%cols, %cols](%rows*%cols, %in, %cols)`)."""
    extents = loop_extents(op)
    assert extents is not None  # checked by _collapsible_sizes
    region_op = _host_op(op)
    if region_op is op:
        return extents
    static = op.get_static_loop_ranges()
    for loop in range(len(extents)):
        if static[loop] != DYNAMIC_INDEX:
            continue
        value, dim = _first_operand_spanning(op, loop)
        if not region_op.is_ancestor(value.owner):
            index = _index_constant(dim, op)
            size = tensor.DimOp(value, index)
            Rewriter.insert_op(size, InsertPoint.before(op))
            extents[loop] = size.result
    return extents


def _first_operand_spanning(op: Operation, loop: int) -> tuple[SSAValue, int]:
    for value, amap in zip(op.operands, st.indexing_maps(op), strict=True):
        if not isinstance(value.type, TensorType):
            continue
        for dim, expr in enumerate(amap.results):
            if isinstance(expr, AffineDimExpr) and expr.position == loop:
                return value, dim
    raise AssertionError("a `?` loop with no operand spanning it")


def loop_extents(op: Operation) -> list[int | SSAValue] | None:
    """Each loop's extent: its number, or the size value of an operand dim it spans; None
    when a `?` loop's size is not known from an operand's producer."""
    extents: list[int | SSAValue] = list(op.get_static_loop_ranges())
    for value, amap in zip(op.operands, st.indexing_maps(op), strict=True):
        if not isinstance(value.type, TensorType):
            continue
        shape = value.type.get_shape()
        dims = iter(find_dynamic_dims(value) or [None] * dynamic_count(value.type))
        for size, expr in zip(shape, amap.results, strict=True):
            dim = next(dims) if size == DYNAMIC_INDEX else None
            if isinstance(expr, AffineDimExpr) and dim is not None:
                if extents[expr.position] == DYNAMIC_INDEX:
                    extents[expr.position] = dim
    if any(isinstance(e, int) and e == DYNAMIC_INDEX for e in extents):
        return None
    return extents


def collapse_op(op: Operation, groups: Groups) -> None:
    if not groups or isinstance(op, tensor.EmptyOp):
        return
    if isinstance(op, linalg.FillOp):
        collapse_fill(op, groups)
        return
    if isinstance(op, tensor.ExtractSliceOp):
        reassoc = _reassociation(AffineMap.identity(slices.source_rank(op)), groups)
        source = collapse_value(op.source, reassoc, op)
        slices.collapse_extract_slice(op, reassoc, source, _host_op(op))
        return
    n = len(_iterators(op))
    grouped = {loop for g in groups for loop in g}
    new_index: dict[int, int] = {}
    iters: list[str] = []
    for loop in range(n):
        if loop in new_index:
            continue
        group = next((g for g in groups if g[0] == loop), None)
        for member in group or [loop]:
            new_index[member] = len(iters)
        iters.append(_iterators(op)[loop])
    assert grouped <= set(new_index)
    maps = st.indexing_maps(op)
    operands = []
    for value, amap in zip(op.operands, maps, strict=True):
        if not isinstance(value.type, TensorType):
            operands.append(value)
            continue
        operands.append(collapse_value(value, _reassociation(amap, groups), op))
    new_maps = [_collapsed_map(m, groups, new_index, len(iters)) for m in maps]
    n_in = len(st.inputs(op))
    body = op.detach_region(0)
    if any(isinstance(o, linalg.IndexOp) for o in body.walk()):
        extents = index_extents(op)
        delinearize_loop_indices(body, groups, new_index, extents)
        for size in extents:  # the dims no collapsed index reads go (dead code)
            if isinstance(size, OpResult) and isinstance(size.op, tensor.DimOp) and not size.uses:
                index = size.op.index
                Rewriter.erase_op(size.op)
                Rewriter.erase_op(index.op)
    generic = st.make_generic(operands[:n_in], operands[n_in:], body, new_maps, iters)
    Rewriter.insert_op(generic, InsertPoint.before(op))
    replacements = []
    for result, amap, new in zip(op.results, maps[n_in:], generic.results, strict=True):
        reassoc = _reassociation(amap, groups)
        shape = result.type.get_shape()
        if all(len(g) == 1 for g in reassoc):
            replacements.append(new)  # the result's dims are not grouped: nothing to expand
            continue
        expand = tensor_ext.ExpandShapeOp(
            new, expand_dims(result), _reassoc_attr(reassoc), shape, result.type
        )
        Rewriter.insert_op(expand, InsertPoint.before(op))
        replacements.append(expand.result)
    Rewriter.replace_op(op, [], replacements)


# ---- per dispatch -----------------------------------------------------------------------


def _slice(region_op: flow.DispatchRegionOp) -> list[Operation]:
    block = region_op.body.block
    roots = [v.op for v in block.last_op.operands if isinstance(v, OpResult) and is_eligible(v.op)]
    found: set[Operation] = set()
    stack = list(roots)
    while stack:
        op = stack.pop()
        if op in found or op.parent is not block or not is_eligible(op):
            continue
        found.add(op)
        stack.extend(v.op for v in op.operands if isinstance(v, OpResult))
    return [op for op in block.ops if op in found]


def _collapsible_sizes(op: Operation) -> bool:
    """`?` loops collapse like static ones (a body recovering a loop's index from a
    collapsed one divides by the sizes, which must be known), except where a slice is
    involved."""
    if not any(dynamic_count(v.type) for v in (*op.operands, *op.results)):
        return True
    if not any(isinstance(o, linalg.IndexOp) for r in op.regions for o in r.walk()):
        return True
    return loop_extents(op) is not None


def collapse_dispatch(region_op: flow.DispatchRegionOp) -> bool:
    slice_ops = _slice(region_op)
    if not all(_collapsible_sizes(op) for op in slice_ops):
        return False
    groups = {op: initial_groups(op) for op in slice_ops}
    propagate(slice_ops, groups)
    # Uses by ops outside the slice (inside the region) see the full shape: keep it for them.
    for op in slice_ops:
        for r in op.results:
            for use in r.uses:
                user = use.operation
                if user not in groups and not isinstance(user, flow.ReturnOp):
                    groups[op] = []
    changed = False
    for op in slice_ops:
        if groups[op] and not isinstance(op, tensor.EmptyOp):
            collapse_op(op, groups[op])
            changed = True
    if changed:
        for op in list(region_op.body.block.ops):
            if (
                isinstance(op, tensor.EmptyOp | tensor.ExpandShapeOp)
                and st.use_count(op.results[0]) == 0
            ):
                Rewriter.erase_op(op)
        hoist_reshapes(region_op)
    return changed


COLLAPSED_DIMS = "ireelab.collapsed_dims"
"""Marks a region whose result sizes this pass computed anew (IREE's are new values there,
which ConvertDispatchRegionsToWorkgroups then orders as mentions of their own)."""


def hoist_reshapes(region_op: flow.DispatchRegionOp) -> flow.DispatchRegionOp:
    block = region_op.body.block
    for op in list(block.ops):
        if isinstance(op, tensor.CollapseShapeOp) and not region_op.is_ancestor(op.src.owner):
            op.detach()
            Rewriter.insert_op(op, InsertPoint.before(region_op))
    terminator = block.last_op
    new_values: list[SSAValue] = []
    expands: list[tensor.ExpandShapeOp | None] = []
    for value in terminator.operands:
        owner = value.op if isinstance(value, OpResult) else None
        if isinstance(owner, tensor.ExpandShapeOp) and owner.parent is block:
            new_values.append(owner.src)
            expands.append(owner)
        else:
            new_values.append(value)
            expands.append(None)
    if all(e is None for e in expands):
        return region_op
    result_dims: list[SSAValue] = []
    for old, expand in zip(region_op.results, expands, strict=True):
        if expand is None:
            result_dims += dims_slice(list(region_op.results), list(region_op.result_dims), old)
        else:
            result_dims += collapsed_sizes(expand.result, _groups_of(expand), region_op)
    Rewriter.replace_op(terminator, flow.ReturnOp(*new_values))
    new_region = flow.DispatchRegionOp(
        [v.type for v in new_values],
        Region(region_op.body.detach_block(0)),
        result_dims=result_dims,
    )
    new_region.attributes[COLLAPSED_DIMS] = UnitAttr()
    Rewriter.insert_op(new_region, InsertPoint.before(region_op))
    replacements = []
    for result, expand in zip(new_region.results, expands, strict=True):
        if expand is None:
            replacements.append(result)
            continue
        outer = tensor_ext.ExpandShapeOp(
            result,
            list(expand.dynamic_output_shape),
            expand.reassociation,
            expand.static_output_shape,
            expand.result.type,
        )
        Rewriter.insert_op(outer, InsertPoint.after(region_op))
        replacements.append(outer.result)
        if st.use_count(expand.result) == 0:
            Rewriter.erase_op(expand)
    Rewriter.replace_op(region_op, [], replacements)
    return new_region


@dataclass(frozen=True)
class CollapseDimensionsPass(ModulePass):
    name = "iree-dispatch-creation-collapse-dimensions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for region_op in [o for o in op.walk() if isinstance(o, flow.DispatchRegionOp)]:
            collapse_dispatch(region_op)
