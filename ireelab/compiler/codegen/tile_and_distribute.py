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
than linalg / `tensor.empty` / dispatch loads, non-linear indexing on a tiled loop), and those
whose result has `?` sizes, run as one workgroup, unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import ArrayAttr, IndexType, IntegerAttr, ModuleOp, TensorType
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.codegen.executables import export_sites
from ireelab.compiler.codegen.index_arith import IndexBuilder
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

MAX_GRID_DIMS = 3


@dataclass(frozen=True)
class Distribution:
    """Tile size per distributed dim of the stored tensor, and the workgroup grid."""

    tiles: dict[int, int]
    extents: tuple[int, ...]

    @property
    def axes(self) -> list[int]:
        """Distributed dims in x, y, z order (innermost first)."""
        return sorted(self.tiles, reverse=True)

    @property
    def grid(self) -> tuple[int, int, int]:
        counts = [self.extents[d] // self.tiles[d] for d in self.axes]
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
        if tile > 0 and len(offset.terms) == 1 and offset.terms[0][1] == 1 and offset.constant == 0:
            dim = offset.terms[0][0]
            if tile < extents[dim]:
                tiles[dim] = tile
    for loops in plan.loops.values():
        needed = set().union(*(offset.dims for offset, _ in loops))
        tiles = {d: t for d, t in tiles.items() if d in needed}
    kept = sorted(tiles, reverse=True)[:MAX_GRID_DIMS]
    return Distribution({d: tiles[d] for d in kept}, extents)


class _TileRewriter:
    """Rewrites one function to compute the tile of workgroup (x, y, z)."""

    def __init__(self, function: func.FuncOp, distribution: Distribution, plan: TilingPlan) -> None:
        self.function = function
        self.plan = plan
        self.output_region = distribution.output_region()
        # Workgroup ids and tile offsets go first, in order, before the original first op.
        self.index = IndexBuilder(InsertPoint.before(function.body.block.first_op))
        self.workgroup_offsets: dict[int, SSAValue] = {}
        for axis, dim in enumerate(distribution.axes):
            workgroup_id = self.index.insert(hal.InterfaceWorkgroupIDOp(axis))
            self.workgroup_offsets[dim] = self.index.mul(workgroup_id, distribution.tiles[dim])
        self._offsets: dict[Offset, SSAValue | int] = {}

    def offset(self, offset: Offset, base: SSAValue | int = 0) -> SSAValue | int:
        if offset not in self._offsets:
            total: SSAValue | int = offset.constant
            for dim, coefficient in offset.terms:
                total = self.index.add(
                    total, self.index.mul(self.workgroup_offsets[dim], coefficient)
                )
            self._offsets[offset] = total
        return self.index.add(base, self._offsets[offset])

    def run(self) -> None:
        for op in list(self.function.body.block.ops):
            if isinstance(op, iree_tensor_ext.DispatchTensorLoadOp | tensor.EmptyOp):
                self._remake_per_use(op)
            elif is_tensor_constant(op):
                self._slice_constant_per_use(op)
            elif isinstance(op, LinalgStructuredOperation) and op in self.plan.loops:
                self._tile_linalg(op)
            elif isinstance(op, iree_tensor_ext.DispatchTensorStoreOp):
                self._tile_store(op)

    def _made(self, op: Operation, region: Region) -> Operation:
        sizes = [size for _, size in region]
        if isinstance(op, tensor.EmptyOp):
            return tensor.EmptyOp([], TensorType(op.tensor.type.get_element_type(), sizes))
        offsets = [
            self.offset(o, base) for (o, _), base in zip(region, op.mixed("offsets"), strict=True)
        ]
        result_type = TensorType(op.result.type.get_element_type(), sizes)
        return iree_tensor_ext.DispatchTensorLoadOp(
            op.source, result_type, offsets, sizes, [1] * len(sizes)
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
                sizes = [size for _, size in region]
                result_type = TensorType(op.result.type.get_element_type(), sizes)
                slice_op = tensor.ExtractSliceOp(
                    op.result, offsets, sizes, [1] * len(sizes), result_type
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
        Rewriter.insert_op(tiled, InsertPoint.before(op))
        self._offset_loop_indices(tiled, self.plan.loops[op])
        for old, new in zip(op.results, tiled.results, strict=True):
            old.replace_all_uses_with(new)
        Rewriter.erase_op(op)

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
            self.offset(o, base) for (o, _), base in zip(region, op.mixed("offsets"), strict=True)
        ]
        sizes = [size for _, size in region]
        tiled = iree_tensor_ext.DispatchTensorStoreOp(
            op.value, op.target, offsets, sizes, [1] * len(sizes)
        )
        Rewriter.replace_op(op, tiled)


def is_whole(region: Region, shape: tuple[int, ...]) -> bool:
    """The region starts at 0 and spans every dim of `shape`."""
    return all(
        not offset.terms and offset.constant == 0 and size == extent
        for (offset, size), extent in zip(region, shape, strict=True)
    )


def _write_workgroup_count(export: hal.ExecutableExportOp, grid: tuple[int, int, int]) -> None:
    """Replace the count region's body by `hal.return` of constants."""
    region = export.workgroup_count
    if not region.blocks:
        region.add_block(Block(arg_types=[hal.DeviceType()]))
    block = region.block
    for op in reversed(list(block.ops)):
        Rewriter.erase_op(op, safe_erase=False)
    constants: dict[int, SSAValue] = {}
    for count in grid:
        if count not in constants:
            constant = arith.ConstantOp.from_int_and_width(count, IndexType())
            block.add_op(constant)
            constants[count] = constant.result
    block.add_op(hal.ReturnOp(*(constants[c] for c in grid)))


def tile_function(function: func.FuncOp) -> tuple[int, int, int]:
    """Distribute `function` over workgroups if it can be; return the grid."""
    root, store = root_op(function), _the_store(function)
    if root is None or store is None or not _unit_strides(function):
        return (1, 1, 1)
    if store.sizes:
        # A tile grid over `?` sizes needs counts computed from the workload and tiles with
        # remainders; not yet: such a dispatch runs as one workgroup over its whole extent.
        return (1, 1, 1)
    try:
        distribution = choose_distribution(function, store, root)
        if not distribution.tiles:
            return (1, 1, 1)
        plan = plan_tiles(function, store, distribution.output_region())
    except TilingFailure:
        return (1, 1, 1)
    _TileRewriter(function, distribution, plan).run()
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
