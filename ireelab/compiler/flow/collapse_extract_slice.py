"""`tensor.extract_slice` in CollapseDimensionsPass (`iree-dispatch-creation-collapse-dimensions`).

Mirrors the extract_slice case of IREE's DispatchCreation/CollapseDimensions.cpp
(`populateReassocAndMaps(tensor::ExtractSliceOp)` and `collapseExtractSlice`): a slice of a host
tensor cloned into a dispatch region takes part in the collapse like an elementwise op whose
loops are the slice's dimensions, so `exp(a[2:4, :])` of a 8x16 `a` becomes a 1-D dispatch that
reads `a` as `tensor<128xf32>` at offset 32 (`elementwise_32_f32`, as iree-compile names it).

Which dimensions of a slice may merge (IREE's rule, for unit strides and a slice that keeps its
rank; any other slice merges nothing):

- walking outwards-in, a group starts with any run of size-1 dimensions and the next
  dimension, whatever its offset and size (the rows it starts at may be anywhere);
- the group then takes every following dimension that is read whole: offset 0 and size equal
  to the source's extent. Such a group is one contiguous run of the row-major source, so it
  is one dimension of the collapsed source, at the linearised offset, of the product size.

`a[1, 2, 0] [2, 3, 16]` of `4x8x16` therefore merges only the inner two dimensions
(`[[0], [1, 2]]`: a 2x48 slice at `[1, 32]` of `4x128`), and a column slice `a[0, 4] [8, 8]`
merges nothing. Offsets and sizes may be SSA values the host computes (a `?` source's rows
after the first, `a[1, 0] [%m, 4]` of `?x4`): the collapsed offset and size are then built
on the host before the dispatch region (`4` and `%m * 4`, `elementwise_D_f32` as iree-compile
names it; IREE computes the offset inside the dispatch with `affine.linearize_index`).

The collapse rewrites the slice as `tensor.collapse_shape` of its source (hoisted out of the
region with the other leaf reshapes), an `extract_slice` of the collapsed source, and a
`tensor.expand_shape` back to the slice's type, which the consumer's collapse folds away.
IREE computes the collapsed offsets as index values (`extract_slice %collapsed[%c32] [32] [1]`
right after the pass, folded to `[32]` by the next canonicalization); ireelab writes them as
static offsets at once, which is what ConvertDispatchRegionsToWorkgroups then folds into the
dispatch's `iree_tensor_ext.dispatch.tensor.load ... offsets = [32], sizes = [32]`.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, ArrayAttr, IntegerAttr, TensorType, i64
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab import diagnostics
from ireelab.compiler.flow.tensor_slices import MixedSlice, is_rank_reducing, mixed_slice
from ireelab.compiler.util.dynamic_dims import find_dynamic_dims
from ireelab.compiler.util.index_math import Index, IndexMath
from ireelab.dialects import tensor_ext
from ireelab.dialects.affine_ext import LinearizeIndexOp

Reassociation = list[list[int]]


def source_rank(op: tensor.ExtractSliceOp) -> int:
    return len(op.source.type.get_shape())


def _identity(rank: int) -> Reassociation:
    return [[d] for d in range(rank)]


def slice_reassociation(op: tensor.ExtractSliceOp) -> Reassociation:
    """The largest reassociation of the slice's dimensions (singletons included). Offsets
    and sizes may be SSA values: a dimension read whole needs a constant size equal to a
    static extent, a unit one a constant size 1."""
    rank = source_rank(op)
    s = mixed_slice(op)
    if any(st != 1 for st in s.strides) or is_rank_reducing(op):
        return _identity(rank)
    extents = op.source.type.get_shape()
    reassociation: Reassociation = []
    dim = 0
    while dim < rank:
        group: list[int] = []
        while dim < rank and _is(s.sizes[dim], 1):
            group.append(dim)
            dim += 1
        if dim < rank:
            group.append(dim)
            dim += 1
        while dim < rank and _is(s.offsets[dim], 0) and _is(s.sizes[dim], extents[dim]):
            group.append(dim)
            dim += 1
        reassociation.append(group)
    return reassociation


def _is(value: SSAValue | int, n: int) -> bool:
    return isinstance(value, int) and value == n and n != DYNAMIC_INDEX


def initial_slice_groups(op: tensor.ExtractSliceOp) -> Reassociation:
    """The slice's collapsible loop groups (only the groups that merge something)."""
    return [g for g in slice_reassociation(op) if len(g) > 1]


def slice_operand_maps(op: tensor.ExtractSliceOp) -> list[AffineMap]:
    """The source is read at every loop; offset / size / stride operands at none."""
    rank = source_rank(op)
    scalars = len(op.operands) - 1
    return [AffineMap.identity(rank)] + [AffineMap(rank, 0, ()) for _ in range(scalars)]


def dropped_dims(op: tensor.ExtractSliceOp) -> set[int]:
    """Unit dimensions a rank-reducing slice drops (matched greedily, as MLIR's mask)."""
    sizes = list(op.static_sizes.get_values())
    result = op.result.type.get_shape()
    dropped: set[int] = set()
    j = 0
    for i, size in enumerate(sizes):
        if j < len(result) and size == result[j]:
            j += 1
        else:
            dropped.add(i)
    return dropped


def slice_result_map(op: tensor.ExtractSliceOp) -> AffineMap:
    rank = source_rank(op)
    dropped = dropped_dims(op)
    results = tuple(AffineDimExpr(d) for d in range(rank) if d not in dropped)
    return AffineMap(rank, 0, results)


def collapsed_sizes(s: MixedSlice, reassoc: Reassociation, math: IndexMath) -> list[Index]:
    """Sizes over the collapsed source (each group one contiguous run, its size the
    product); `math` combines constants and SSA values."""
    sizes = []
    for group in reassoc:
        size = 1
        for d in group:
            size = math.mul(size, s.sizes[d])
        sizes.append(size)
    return sizes


def linearized_offset(
    op: tensor.ExtractSliceOp, s: MixedSlice, group: list[int], region_op: Operation | None
) -> Index:
    """A group's offset in the collapsed source, as MLIR's `getCollapsedExtractSliceInfo`
    gives it: `affine.linearize_index disjoint [offsets] by (source sizes)` in the dispatch,
    in the form the canonicalizer leaves. Leading zero offsets and unit sizes drop out
    (DropLinearizeLeadingZero, DropLinearizeUnitComponentsIfDisjointOrZero), one offset
    left is the offset itself, and constants in a static basis fold to a number (`[2, 0]`
    of 8x16 is 32). Otherwise the op stays, its `?` sizes read in the body (a `tensor.dim`
    of a source from the host, which the dispatch then takes among its captured sizes):
    the rows after the first of a `?x4` are at `[1, 0] by (%n, 4)`, an offset read from a
    tensor at `[%i, 0] by (10, 4)` with `%i` the dispatch's workload, not `%i * 4`."""
    shape = op.source.type.get_shape()
    if len(group) == 1:
        return s.offsets[group[0]]
    members = [(d, s.offsets[d]) for d in group]
    while members and isinstance(members[0][1], int) and members[0][1] == 0:
        members.pop(0)
    members = [(d, offset) for d, offset in members if shape[d] != 1]
    if len(members) <= 1:
        return members[0][1] if members else 0
    if all(isinstance(o, int) and shape[d] != DYNAMIC_INDEX for d, o in members):
        linear = 0
        for d, offset in members:
            linear = linear * shape[d] + offset
        return linear
    math = IndexMath(op)
    indices = [math.value(offset) for _, offset in members]
    basis = [
        _source_size(op, d, region_op) if shape[d] == DYNAMIC_INDEX else shape[d]
        for d, _ in members
    ]
    linearize = LinearizeIndexOp.of(indices, basis, disjoint=True)
    Rewriter.insert_op(linearize, InsertPoint.before(op))
    return linearize.linear_index[0]


def _source_size(op: tensor.ExtractSliceOp, dim: int, region_op: Operation | None) -> SSAValue:
    """A `?` size of the slice's source as the dispatch body reads it (MLIR's
    `getMixedSize`): a `tensor.dim` of a source from the host, else its producer's size."""
    source = op.source
    if region_op is not None and not region_op.is_ancestor(source.owner):
        index = IndexMath(op).value(dim)
        size = tensor.DimOp(source, index)
        Rewriter.insert_op(size, InsertPoint.before(op))
        return size.result
    shape = source.type.get_shape()
    dims = find_dynamic_dims(source)
    assert dims is not None  # the collapse needs the source's sizes
    return dims[list(shape[:dim]).count(DYNAMIC_INDEX)]


def _reassoc_attr(reassoc: Reassociation) -> ArrayAttr:
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in reassoc])


def collapse_extract_slice(
    op: tensor.ExtractSliceOp, reassoc: Reassociation, collapsed_source: SSAValue, host: Operation
) -> None:
    """Replace `op` by a slice of `collapsed_source` (its source under `reassoc`) and an
    `expand_shape` back to the slice's type. Offsets and sizes the host computes combine
    into new ones built before `host` (the dispatch region, as IREE passes a collapsed
    `?`'s product in); ones computed inside the region combine before `op`."""
    s = mixed_slice(op)
    source_dims = find_dynamic_dims(op.source) or []
    values = [v for v in (*s.offsets, *s.sizes, *source_dims) if isinstance(v, SSAValue)]
    # constants fold: a static slice builds no op; a position read inside the dispatch
    # (an element of a captured tensor) is combined there, as IREE linearizes it
    inside = any(isinstance(v.owner, Operation) and host.is_ancestor(v.owner) for v in values)
    sizes = collapsed_sizes(s, reassoc, IndexMath(op if inside else host))
    region_op = host if host is not op else None
    offsets = [linearized_offset(op, s, group, region_op) for group in reassoc]
    new = MixedSlice(offsets, sizes, [1] * len(reassoc))
    result_type = op.result.type
    assert isinstance(result_type, TensorType)
    shape = [DYNAMIC_INDEX if isinstance(v, SSAValue) else v for v in new.sizes]
    new_type = TensorType(result_type.get_element_type(), shape)
    sliced = tensor.ExtractSliceOp(collapsed_source, new.offsets, new.sizes, new.strides, new_type)
    diagnostics.copy_location(op, sliced)
    expand = tensor_ext.ExpandShapeOp(
        sliced.result,
        find_dynamic_dims(op.result) or [],
        _reassoc_attr(reassoc),
        result_type.get_shape(),
        result_type,
    )
    Rewriter.insert_op([sliced, expand], InsertPoint.before(op))
    Rewriter.replace_op(op, [], [expand.result])
