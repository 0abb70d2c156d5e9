"""`TileAndDistributeToWorkgroupsPass` (`iree-codegen-tile-and-distribute-to-workgroups`).

Splits each dispatch into workgroups: the stored result is cut into tiles, every workgroup
computes one tile of it, with the root op and all fused producers cut to what that tile needs
(tile-and-fuse). The tile sizes come from the `distribution` level of the root op's
`#iree_cpu.lowering_config`; the grid they give is written into the export's count region
(`hal.return %c4, %c1, %c1`, replacing `iree_tensor_ext.dispatch.workgroup_count_from_slice`)
and the function reads its tile's position from `hal.interface.workgroup.id`. Workgroup x
walks the innermost distributed dimension of the result, y and z the next ones, as in IREE.

IREE 3.13 does this job with `TileAndDistributeToWorkgroupsUsingForallOpPass`, which builds an
`scf.forall` mapped to workgroups and resolves it to workgroup ids later in the pipeline; this
pass produces the resolved form directly, as IREE's earlier `TileAndDistributeToWorkgroupsPass`
(the flag used here) did: the tiles are `dispatch.tensor.load`/`store` slices at offsets
computed from the workgroup ids.

A dimension is distributed only if every fused op's tile depends on it (otherwise that op would
be recomputed by each workgroup along it: a row reduction fused with its consumer distributes
rows only). Dispatches whose structure the tiling does not cover (several stores, ops other
than linalg / `tensor.empty` / dispatch loads, non-linear indexing on a tiled loop) run as one
workgroup, unchanged.

`?` sizes: a distributed dim whose size is a workload entry (`dispatch.workload.ordinal %d, k`)
gets a count computed at dispatch time, `ceildiv(%w_k, tile)` in the export's count region
(what IREE's `workgroup_count_from_slice` resolves to), and a tile of runtime size
`min(tile, %d - offset)`, so the last workgroup computes the remainder and one kernel serves
every size. Along such a dim every tensor's slice is that tile (elementwise maps, matmul
rows) or a window over it (a convolution's or pool's image, `stride * tile + k` long), its
run-time size computed from the tile's (`runtime_tiles.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from xdsl.context import Context
from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.codegen.executables import export_sites
from ireelab.compiler.codegen.index_arith import IndexBuilder
from ireelab.compiler.codegen.runtime_tiles import RuntimeSizes, check_runtime_ranges
from ireelab.compiler.codegen.select_lowering_strategy import root_op
from ireelab.compiler.codegen.tile_regions import (
    Offset,
    Range,
    Region,
    TilingFailure,
    TilingPlan,
    is_tensor_constant,
    plan_tiles,
)
from ireelab.dialects import hal, iree_tensor_ext
from ireelab.dialects.iree_codegen import LOWERING_CONFIG
from ireelab.dialects.iree_cpu import LoweringConfigAttr
from ireelab.dialects.linalg_pack import PackOp, UnPackOp

MAX_GRID_DIMS = 3


Count = int | tuple[int, int]
"""A workgroup count along one axis: a number, or `(k, tile)` for `ceildiv(workload[k], tile)`."""


@dataclass(frozen=True)
class Distribution:
    """Tile size per distributed dim of the stored tensor, and the workgroup grid."""

    tiles: dict[int, int]
    extents: tuple[int, ...]
    ordinals: dict[int, int] = field(default_factory=dict)
    """Distributed `?` dims -> the workload entry that holds their size."""

    @property
    def axes(self) -> list[int]:
        """Distributed dims in x, y, z order (innermost first)."""
        return sorted(self.tiles, reverse=True)

    @property
    def grid(self) -> tuple[Count, Count, Count]:
        counts: list[Count] = [
            (self.ordinals[d], self.tiles[d])
            if d in self.ordinals
            else self.extents[d] // self.tiles[d]
            for d in self.axes
        ]
        counts += [1] * (3 - len(counts))
        return counts[0], counts[1], counts[2]

    def output_region(self) -> Region:
        return tuple(
            (Offset.of_dim(d), self.tiles[d]) if d in self.tiles else (Offset(), extent)
            for d, extent in enumerate(self.extents)
        )


def _the_store(function: func.FuncOp) -> iree_tensor_ext.DispatchTensorStoreOp | None:
    stores = [
        op
        for op in function.body.block.ops
        if isinstance(op, iree_tensor_ext.DispatchTensorStoreOp)
    ]
    return stores[0] if len(stores) == 1 else None


def _unit_strides(function: func.FuncOp) -> bool:
    slices = (iree_tensor_ext.DispatchTensorLoadOp, iree_tensor_ext.DispatchTensorStoreOp)
    return all(
        all(s == 1 for s in op.static_strides.get_values())
        for op in function.body.block.ops
        if isinstance(op, slices)
    )


def choose_distribution(
    function: func.FuncOp, store: iree_tensor_ext.DispatchTensorStoreOp, root: Operation
) -> Distribution:
    """Map the root op's distribution tiles onto the stored tensor's dims."""
    config = root.attributes[LOWERING_CONFIG]
    assert isinstance(config, LoweringConfigAttr)
    root_tiles = config.tile_sizes("distribution") or []
    extents = tuple(store.static_sizes.get_values())
    every_dim = tuple((Offset.of_dim(d), extent) for d, extent in enumerate(extents))
    plan = plan_tiles(function, store, every_dim)
    if root not in plan.loops:
        raise TilingFailure("the root op does not feed the stored result")
    tiles: dict[int, int] = {}
    for (offset, _), tile in zip(plan.loops[root], root_tiles, strict=False):
        if tile > 0 and len(offset.terms) == 1 and offset.constant == 0:
            # a root loop at `c * offset` of a stored dim (c = 1, or the inner tile of a pack
            # between them) takes `tile / c` of that dim
            dim, coefficient = offset.terms[0]
            stored = tile / coefficient
            if stored != int(stored) or stored < 1:
                continue
            if extents[dim] == DYNAMIC_INDEX or stored < extents[dim]:
                tiles[dim] = int(stored)
    tiles = {d: t for d, t in tiles.items() if d not in plan.whole_dims}
    tiles = _whole_tiles(tiles, extents, plan.tile_multiples)
    for loops in plan.loops.values():
        needed = set().union(*(offset.dims for offset, _ in loops))
        tiles = {d: t for d, t in tiles.items() if d in needed}
    ordinals = {d: k for d in tiles if (k := _workload_ordinal(store, d)) is not None}
    tiles = {d: t for d, t in tiles.items() if extents[d] != DYNAMIC_INDEX or d in ordinals}
    kept = sorted(tiles, reverse=True)[:MAX_GRID_DIMS]
    return Distribution(
        {d: tiles[d] for d in kept}, extents, {d: ordinals[d] for d in kept if d in ordinals}
    )


def _whole_tiles(
    tiles: dict[int, int], extents: tuple[int, ...], multiples: dict[int, int]
) -> dict[int, int]:
    """Each tile rounded down to a divisor of its static extent that is a multiple of what
    the dim needs (an unpack's inner tile); dims with no such tile are not distributed."""
    kept: dict[int, int] = {}
    for dim, tile in tiles.items():
        step = multiples.get(dim, 1)
        if step == 1:
            kept[dim] = tile
            continue
        if extents[dim] == DYNAMIC_INDEX:
            continue
        sizes = [t for t in range(step, tile + 1, step) if extents[dim] % t == 0]
        if sizes and sizes[-1] < extents[dim]:
            kept[dim] = sizes[-1]
    return kept


def _workload_ordinal(store: iree_tensor_ext.DispatchTensorStoreOp, dim: int) -> int | None:
    """The workload entry the stored size along `dim` is, if it is one (a `?` size)."""
    size = store.mixed("sizes")[dim]
    if isinstance(size, int) or not isinstance(
        size.owner, iree_tensor_ext.DispatchWorkloadOrdinalOp
    ):
        return None
    return size.owner.ordinal.value.data


def check_runtime_tiles(distribution: Distribution, plan: TilingPlan) -> None:
    """Along a distributed `?` dim every slice must be a window of its tile (its size is
    then computed from `min(tile, size - offset)` at run time: `runtime_tiles.py`); a `?`
    size elsewhere must be a whole dim."""
    ranges = [*distribution.output_region()]
    for region in (*plan.regions.values(), *plan.use_regions.values()):
        ranges += region
    for loops in plan.loops.values():
        ranges += loops
    check_runtime_ranges(ranges, distribution.tiles, set(distribution.ordinals))


class _TileRewriter:
    """Rewrites one function to compute the tile of workgroup (x, y, z)."""

    def __init__(
        self,
        function: func.FuncOp,
        store: iree_tensor_ext.DispatchTensorStoreOp,
        distribution: Distribution,
        plan: TilingPlan,
    ) -> None:
        self.function = function
        self.plan = plan
        self.output_region = distribution.output_region()
        self.tiles = distribution.tiles
        # Workgroup ids and tile offsets go first, in order, before the original first op
        # (after the `?` sizes they clamp, when there are some).
        point = _tile_code_point(function, store, distribution)
        self.after_tile_code = point.insert_before
        """the first original op after the tile code (offsets defined from it on are not
        visible there: `_at_base` adds a tile offset to one next to the op it positions)"""
        self.index = IndexBuilder(point)
        self.workgroup_ids: dict[int, SSAValue] = {}
        self.workgroup_offsets: dict[int, SSAValue] = {}
        self.runtime_tiles: dict[int, SSAValue] = {}
        sizes = store.mixed("sizes")
        for axis, dim in enumerate(distribution.axes):
            workgroup_id = self.index.insert(hal.InterfaceWorkgroupIDOp(axis))
            self.workgroup_ids[dim] = workgroup_id
            self.workgroup_offsets[dim] = self.index.mul(workgroup_id, distribution.tiles[dim])
            if dim in distribution.ordinals:
                # the last workgroup along a `?` dim computes the remainder
                left = self.index.insert(
                    arith.SubiOp(sizes[dim], self.index.value(self.workgroup_offsets[dim]))
                )
                tile = self.index.constant(distribution.tiles[dim])
                self.runtime_tiles[dim] = self.index.insert(arith.MinSIOp(tile, left))
        self._offsets: dict[Offset, SSAValue | int] = {}
        self.runtime_sizes = RuntimeSizes(self.index, self.tiles, self.runtime_tiles)

    def sizes(self, region: Region, originals: list[SSAValue | int]) -> list[SSAValue | int]:
        """The slice sizes of `region`: computed from the runtime tile along a distributed
        `?` dim (the tile itself, or a convolution's window over it), the original `?` size
        along a whole one (`check_runtime_tiles` allowed no other)."""
        sizes: list[SSAValue | int] = []
        for (offset, size), original in zip(region, originals, strict=True):
            runtime = self.runtime_sizes.of((offset, size))
            if runtime is not None:
                sizes.append(runtime)
            elif size == DYNAMIC_INDEX:
                sizes.append(original)
            else:
                sizes.append(size)
        return sizes

    def offset(
        self, offset: Offset, base: SSAValue | int = 0, at: Operation | None = None
    ) -> SSAValue | int:
        if offset not in self._offsets:
            total: SSAValue | int = offset.constant
            for dim, coefficient in offset.terms:
                total = self.index.add(total, self._scaled_offset(dim, coefficient))
            self._offsets[offset] = total
        if at is not None and self._after_tile_code(base):
            return IndexBuilder(InsertPoint.before(at)).add(base, self._offsets[offset])
        return self.index.add(base, self._offsets[offset])

    def _after_tile_code(self, value: SSAValue | int) -> bool:
        """`value` is computed in the body after the tile code (a slice's offset the body
        linearizes, `affine.linearize_index [1, 0] by (%n, 4)`)."""
        if not isinstance(value, OpResult) or self.after_tile_code is None:
            return False
        op = value.op
        return op.parent is self.after_tile_code.parent and not op.is_before_in_block(
            self.after_tile_code
        )

    def _scaled_offset(self, dim: int, coefficient: int | Fraction) -> SSAValue | int:
        """`coefficient * workgroup offset` along `dim`; a fraction (packed tiles under an
        unpack) is `id * (tile * coefficient)`, whole since the tile is a multiple."""
        if isinstance(coefficient, int):
            return self.index.mul(self.workgroup_offsets[dim], coefficient)
        per_workgroup = coefficient * self.tiles[dim]
        assert per_workgroup.denominator == 1, "the tile is a multiple of the packed tile"
        return self.index.mul(self.workgroup_ids[dim], int(per_workgroup))

    def run(self) -> None:
        for op in list(self.function.body.block.ops):
            if isinstance(op, iree_tensor_ext.DispatchTensorLoadOp | tensor.EmptyOp):
                self._remake_per_use(op)
            elif is_tensor_constant(op):
                self._slice_constant_per_use(op)
            elif isinstance(op, LinalgStructuredOperation) and op in self.plan.loops:
                self._tile_linalg(op)
            elif isinstance(op, PackOp | UnPackOp) and op in self.plan.loops:
                self._tile_packing(op)
            elif isinstance(op, iree_tensor_ext.DispatchTensorStoreOp):
                self._tile_store(op)

    def _made(self, op: Operation, region: Region) -> Operation:
        if isinstance(op, tensor.EmptyOp):
            sizes = self.sizes(region, _empty_sizes(op))
            dynamic = [s for s in sizes if not isinstance(s, int)]
            return tensor.EmptyOp(dynamic, _tile_type(op.tensor.type, sizes))
        sizes = self.sizes(region, op.mixed("sizes"))
        offsets = [
            self.offset(o, base, op)
            for (o, _), base in zip(region, op.mixed("offsets"), strict=True)
        ]
        return iree_tensor_ext.DispatchTensorLoadOp(
            op.source,
            _tile_type(op.result.type, sizes),
            offsets,
            sizes,
            [1] * len(sizes),
            op.source_dims,
        )

    def _remake_per_use(self, op: Operation) -> None:
        """One load per distinct tile; one `tensor.empty` per use, so that bufferization can
        give each destination its own buffer (or the output's)."""
        made: dict[object, Operation] = {}
        for use in list(op.results[0].uses):
            region = self.plan.use_regions.get((use.operation, use.index))
            if region is None:
                continue
            key = region if isinstance(op, iree_tensor_ext.DispatchTensorLoadOp) else use
            if key not in made:
                made[key] = self._made(op, region)
                Rewriter.insert_op(made[key], InsertPoint.before(op))
            replacement = made[key].results[0]
            use.operation.operands = [
                replacement if i == use.index else v for i, v in enumerate(use.operation.operands)
            ]
        if not op.results[0].uses:
            Rewriter.erase_op(op)

    def _slice_constant_per_use(self, op: arith.ConstantOp) -> None:
        """Each use of a constant tensor reads the tile it needs through a
        `tensor.extract_slice` (none when it needs the whole constant)."""
        shape = tuple(op.result.type.get_shape())
        made: dict[Region, SSAValue] = {}
        for use in list(op.result.uses):
            region = self.plan.use_regions.get((use.operation, use.index))
            if region is None or is_whole(region, shape):
                continue
            if region not in made:
                offsets = [self.offset(o) for o, _ in region]
                sizes = self.sizes(region, list(shape))
                slice_op = tensor.ExtractSliceOp(
                    op.result, offsets, sizes, [1] * len(sizes), _tile_type(op.result.type, sizes)
                )
                Rewriter.insert_op(slice_op, InsertPoint.before(use.operation))
                made[region] = slice_op.result
            use.operation.operands = [
                made[region] if i == use.index else v for i, v in enumerate(use.operation.operands)
            ]

    def _tile_linalg(self, op: LinalgStructuredOperation) -> None:
        """Rebuild `op` on its (already tiled) operands; results take the outputs' tile types."""
        outputs = op.outputs
        tiled = type(op).create(
            operands=op.operands,
            result_types=[v.type for v in outputs],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=[region.clone() for region in op.regions],
        )
        tiled.location = op.location  # errors after tiling still point at the source line
        Rewriter.insert_op(tiled, InsertPoint.before(op))
        self._offset_loop_indices(tiled, self.plan.loops[op])
        for old, new in zip(op.results, tiled.results, strict=True):
            old.replace_all_uses_with(new)
        Rewriter.erase_op(op)

    def _tile_packing(self, op: PackOp | UnPackOp) -> None:
        """Rebuild a pack or unpack on its tiled source and destination."""
        tiled = type(op).create(
            operands=op.operands,
            result_types=[op.dest.type],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        tiled.location = op.location
        Rewriter.replace_op(op, tiled)

    def _offset_loop_indices(self, op: LinalgStructuredOperation, loops: list[Range]) -> None:
        """The tiled op iterates over its tile, so `linalg.index d` counts from the tile's
        start: add the tile's offset along d to get the index in the whole iteration space
        (as MLIR's tiling does when it offsets the index ops of a tiled linalg op)."""
        for index_op in [o for o in op.body.walk() if isinstance(o, linalg_ops.IndexOp)]:
            offset = self.offset(loops[index_op.dim.value.data][0])
            if isinstance(offset, int) and offset == 0:
                continue
            uses = list(index_op.result.uses)
            add = arith.AddiOp(index_op.result, self.index.value(offset))
            Rewriter.insert_op(add, InsertPoint.after(index_op))
            for use in uses:
                use.operation.operands = [
                    add.result if i == use.index else v
                    for i, v in enumerate(use.operation.operands)
                ]

    def _tile_store(self, op: iree_tensor_ext.DispatchTensorStoreOp) -> None:
        region = self.output_region
        offsets = [
            self.offset(o, base, op)
            for (o, _), base in zip(region, op.mixed("offsets"), strict=True)
        ]
        sizes = self.sizes(region, op.mixed("sizes"))
        tiled = iree_tensor_ext.DispatchTensorStoreOp(
            op.value, op.target, offsets, sizes, [1] * len(sizes), op.target_dims
        )
        Rewriter.replace_op(op, tiled)


def _tile_type(whole: TensorType, sizes: list[SSAValue | int]) -> TensorType:
    shape = [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes]
    return TensorType(whole.get_element_type(), shape)


def _empty_sizes(op: tensor.EmptyOp) -> list[SSAValue | int]:
    dynamic = iter(op.dynamic_sizes)
    return [next(dynamic) if n == DYNAMIC_INDEX else n for n in op.tensor.type.get_shape()]


def _tile_code_point(
    function: func.FuncOp, store: iree_tensor_ext.DispatchTensorStoreOp, distribution: Distribution
) -> InsertPoint:
    """Before the function's first op, or after the last op defining a distributed `?` size."""
    sizes = store.mixed("sizes")
    owners = {sizes[d].owner for d in distribution.ordinals}
    last = None
    for op in function.body.block.ops:
        if op in owners:
            last = op
    if last is None:
        return InsertPoint.before(function.body.block.first_op)
    return InsertPoint.after(last)


def is_whole(region: Region, shape: tuple[int, ...]) -> bool:
    """The region starts at 0 and spans every dim of `shape`."""
    return all(
        not offset.terms and offset.constant == 0 and size == extent
        for (offset, size), extent in zip(region, shape, strict=True)
    )


def _write_workgroup_count(
    export: hal.ExecutableExportOp, grid: tuple[Count, Count, Count]
) -> None:
    """Replace the count region's body by `hal.return` of constants and, along `?` dims,
    `ceildiv(workload[k], tile)` of the region's workload arguments (IREE's count region once
    `ResolveWorkgroupCountHintsPass` has replaced `workgroup_count_from_slice`, with the
    `affine.apply` of `s0 ceildiv tile` lowered to arith)."""
    region = export.workgroup_count
    if not region.blocks:
        region.add_block(Block(arg_types=[hal.DeviceType()]))
    block = region.block
    for op in reversed(list(block.ops)):
        Rewriter.erase_op(op, safe_erase=False)
    index = IndexBuilder(InsertPoint.at_end(block))
    values: dict[Count, SSAValue] = {}
    for count in grid:
        if count in values:
            continue
        if isinstance(count, int):
            values[count] = index.constant(count)
            continue
        ordinal, tile = count
        values[count] = _ceildiv(index, block.args[1 + ordinal], tile)
    block.add_op(hal.ReturnOp(*(values[c] for c in grid)))


def _ceildiv(index: IndexBuilder, value: SSAValue, tile: int) -> SSAValue:
    """`value ceildiv tile` for a positive constant `tile`, in the arith ops MLIR's affine
    lowering gives (IREE's count region and host code show exactly these): `value <= 0 ?
    -((-value) / tile) : (value - 1) / tile + 1`."""
    zero, one = index.constant(0), index.constant(1)
    at_most_zero = index.insert(arith.CmpiOp(value, zero, "sle"))
    negated = index.insert(arith.SubiOp(zero, value))
    decremented = index.insert(arith.SubiOp(value, one))
    dividend = index.insert(arith.SelectOp(at_most_zero, negated, decremented))
    quotient = index.insert(arith.DivSIOp(dividend, index.constant(tile)))
    negative = index.insert(arith.SubiOp(zero, quotient))
    positive = index.insert(arith.AddiOp(quotient, one))
    return index.insert(arith.SelectOp(at_most_zero, negative, positive))


def tile_function(function: func.FuncOp) -> tuple[Count, Count, Count]:
    """Distribute `function` over workgroups if it can be; return the grid."""
    root, store = root_op(function), _the_store(function)
    if root is None or store is None or not _unit_strides(function):
        return (1, 1, 1)
    try:
        distribution = choose_distribution(function, store, root)
        if not distribution.tiles:
            return (1, 1, 1)
        plan = plan_tiles(function, store, distribution.output_region())
        check_runtime_tiles(distribution, plan)
    except TilingFailure:
        return (1, 1, 1)
    _TileRewriter(function, store, distribution, plan).run()
    return distribution.grid


@dataclass(frozen=True)
class TileAndDistributeToWorkgroupsPass(ModulePass):
    """Tile every export's result over a workgroup grid and fuse its producers into the tile."""

    name = "iree-codegen-tile-and-distribute-to-workgroups"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for site in export_sites(op):
            grid = tile_function(site.function)
            _write_workgroup_count(site.export, grid)
            # numba kernels run one invocation per workgroup, as IREE's CPU backend does.
            site.export.properties["workgroup_size"] = ArrayAttr([IntegerAttr(1, IndexType())] * 3)
