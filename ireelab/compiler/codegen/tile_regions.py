"""Which slice of every tensor a workgroup needs, given the tile of the result it writes.

The analysis behind workgroup tiling and fusion, as IREE gets it from MLIR's `TilingInterface`
(`getIterationDomainTileFromResultTile`, `getTiledImplementation`) when it tiles the root op and
fuses producers and consumers into the workgroup loop. Here it runs backwards from the one
`iree_tensor_ext.dispatch.tensor.store` of a dispatch:

- a linalg op's result region gives its loop ranges through the result's indexing map (loops
  the map does not name, reductions, run in full);
- the loop ranges give every operand's region through the operand's map; maps must be linear
  with non-negative coefficients (`d0 + d3` for convolutions; strided and dilated too);
- a value read by several ops must be needed in the same region by all of them, except
  `dispatch.tensor.load` and `tensor.empty` results, which are re-made per use;
- a tensor read by `tensor.extract` (a scalar taken from an operand, a gather's table in a
  linalg body) is needed whole: a load keeps its full form for that use, a computed value
  must not be tiled. `linalg.index` in a tiled body reads tile-local indices; the rewriter
  adds the tile's offset back.

Offsets are symbolic: linear forms over the workgroup offsets of the stored tensor's dims, so
the same offset computed twice compares equal.
"""

from __future__ import annotations

from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, ShapedType, TensorType
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

from ireelab.compiler.codegen import packing_regions
from ireelab.compiler.codegen.tile_region_types import (
    Offset,
    Range,
    Region,
    TilingFailure,
    TilingPlan,
)
from ireelab.dialects import iree_tensor_ext
from ireelab.dialects.linalg_pack import PackOp, UnPackOp


def linear_form(expr: AffineExpr) -> tuple[dict[int, int], int] | None:
    """`expr` as (coefficient per dim, constant), or None when it is not linear."""
    if isinstance(expr, AffineDimExpr):
        return {expr.position: 1}, 0
    if isinstance(expr, AffineConstantExpr):
        return {}, expr.value
    if not isinstance(expr, AffineBinaryOpExpr):
        return None
    lhs, rhs = linear_form(expr.lhs), linear_form(expr.rhs)
    if lhs is None or rhs is None:
        return None
    if expr.kind == AffineBinaryOpKind.Add:
        merged = dict(lhs[0])
        for dim, coefficient in rhs[0].items():
            merged[dim] = merged.get(dim, 0) + coefficient
        return merged, lhs[1] + rhs[1]
    if expr.kind == AffineBinaryOpKind.Mul and not rhs[0]:
        return {d: c * rhs[1] for d, c in lhs[0].items()}, lhs[1] * rhs[1]
    if expr.kind == AffineBinaryOpKind.Mul and not lhs[0]:
        return {d: c * lhs[1] for d, c in rhs[0].items()}, lhs[1] * rhs[1]
    return None


def is_full(rng: Range, extent: int) -> bool:
    return rng[0] == Offset() and rng[1] == extent


def operand_region(
    indexing: AffineMap, loops: list[Range], loop_extents: tuple[int, ...], shape: tuple[int, ...]
) -> Region:
    """The part of an operand that loops over `loops` read through `indexing`.

    The region starts at the linear part of the expression at the loops' offsets, so that the
    unchanged map, applied to tile-local loop indices, indexes the operand's tile.
    """
    region = []
    for expr, extent in zip(indexing.results, shape, strict=True):
        form = linear_form(expr)
        used = expr.used_dims()
        if form is None or any(c < 0 for c in form[0].values()):
            if all(is_full(loops[d], loop_extents[d]) for d in used):
                region.append((Offset(), extent))
                continue
            raise TilingFailure(f"cannot tile through the indexing expression '{expr}'")
        coefficients, constant = form
        offset = Offset()
        span = constant
        for dim, coefficient in coefficients.items():
            offset = offset + loops[dim][0].scaled(coefficient)
            span += coefficient * (loops[dim][1] - 1)
        region.append((offset, span + 1))
    return tuple(region)


def is_tensor_constant(op: Operation) -> bool:
    """A dense `arith.constant` tensor cloned into the dispatch (read like a binding)."""
    return isinstance(op, arith.ConstantOp) and isinstance(op.result.type, TensorType)


def is_made_per_use(value: SSAValue) -> bool:
    """Loads, empty tensors and slices of constant tensors are re-created for each use at the
    tile it needs."""
    owner = value.owner
    return isinstance(owner, iree_tensor_ext.DispatchTensorLoadOp | tensor.EmptyOp) or (
        is_tensor_constant(owner)
    )


def _request(
    plan: TilingPlan, value: SSAValue, region: Region, user: Operation, index: int
) -> None:
    if is_made_per_use(value):
        plan.use_regions[(user, index)] = region
        return
    known = plan.regions.get(value)
    if known is not None and known != region:
        raise TilingFailure("a value is needed in two different tiles")
    plan.regions[value] = region


def _loop_ranges(op: LinalgStructuredOperation, plan: TilingPlan) -> list[Range]:
    extents = op.get_static_loop_ranges()
    maps = [m.data for m in op.get_indexing_maps()]
    loops: list[Range | None] = [None] * len(extents)
    output_maps = maps[len(op.inputs) :]
    for result, indexing in zip(op.results, output_maps, strict=True):
        region = plan.regions.get(result)
        if region is None:
            continue
        for expr, rng in zip(indexing.results, region, strict=True):
            if not isinstance(expr, AffineDimExpr):
                raise TilingFailure(f"'{op.name}' writes its result through '{expr}'")
            if loops[expr.position] not in (None, rng):
                raise TilingFailure(f"'{op.name}' results need different loop tiles")
            loops[expr.position] = rng
    return [rng if rng is not None else (Offset(), extents[d]) for d, rng in enumerate(loops)]


def _visit_linalg(op: LinalgStructuredOperation, plan: TilingPlan) -> None:
    if not any(result in plan.regions for result in op.results):
        return
    loops = _loop_ranges(op, plan)
    plan.loops[op] = loops
    extents = op.get_static_loop_ranges()
    maps = [m.data for m in op.get_indexing_maps()]
    for index, (operand, indexing) in enumerate(zip(op.operands, maps, strict=True)):
        if not isinstance(operand.type, ShapedType):
            continue
        shape = tuple(operand.type.get_shape())
        _request(plan, operand, operand_region(indexing, loops, extents, shape), op, index)


def _visit_packing(op: PackOp | UnPackOp, plan: TilingPlan) -> None:
    """A pack or unpack (one the micro-kernels run, static): its source's region from its
    result's (`packing_regions.py`); the destination is the result's tile."""
    region = plan.regions.get(op.result)
    if region is None:
        return
    if op.has_dynamic_tiles() or DYNAMIC_INDEX in op.source.type.get_shape():
        raise TilingFailure(f"cannot tile through '{op.name}' of `?` sizes")
    plan.loops[op] = list(region)
    if isinstance(op, PackOp):
        source = packing_regions.pack_source_region(op, region, plan)
    else:
        source = packing_regions.unpack_source_region(op, region, plan)
    _request(plan, op.source, source, op, 0)
    _request(plan, op.dest, region, op, 1)


_LEAVES = (tensor.EmptyOp, iree_tensor_ext.DispatchTensorLoadOp)


def plan_tiles(
    function: func.FuncOp, store: iree_tensor_ext.DispatchTensorStoreOp, output: Region
) -> TilingPlan:
    """Regions of everything `store` depends on when it writes the `output` region."""
    plan = TilingPlan()
    _request(plan, store.value, output, store, 0)
    for op in reversed(list(function.body.block.ops)):
        if op is store:
            continue
        if isinstance(op, LinalgStructuredOperation):
            _visit_linalg(op, plan)
        elif isinstance(op, PackOp | UnPackOp):
            _visit_packing(op, plan)
        elif isinstance(op, _LEAVES) or is_tensor_constant(op):
            continue
        elif any(isinstance(v.type, TensorType) for v in (*op.results, *op.operands)):
            if any(r in plan.regions for r in op.results) or isinstance(
                op, iree_tensor_ext.DispatchTensorStoreOp
            ):
                raise TilingFailure(f"cannot tile through '{op.name}'")
    _check_extracted_whole(function, plan)
    return plan


def _check_extracted_whole(function: func.FuncOp, plan: TilingPlan) -> None:
    """A `tensor.extract` (at the top level or in a linalg body, a gather) may read any
    element of its tensor, so that tensor must stay whole in every workgroup: a load or
    constant keeps its full form for that use (it has no tile region there); a value computed
    in the dispatch must not have been cut to a tile."""
    for op in function.walk():
        if not isinstance(op, tensor.ExtractOp):
            continue
        region = plan.regions.get(op.tensor)
        if region is None:
            continue
        shape = tuple(op.tensor.type.get_shape())
        if not all(is_full(rng, extent) for rng, extent in zip(region, shape, strict=True)):
            raise TilingFailure("a tensor read by 'tensor.extract' would be cut to a tile")
