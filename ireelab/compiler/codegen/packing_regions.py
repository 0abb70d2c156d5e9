"""Which tile of its source a `linalg.pack` / `linalg.unpack` reads for a tile of its result.

IREE tiles pack and unpack dispatches across workgroups through the ops' `TilingInterface`
(MLIR's `PackOp::getTiledImplementation` / `UnPackOp::getTiledImplementation`): a pack's
iteration space is its packed result's outer dims, each tile of `S` outer tiles reading `S * T`
source elements along that dim; an unpack iterates over its unpacked result and reads the
packed tiles that cover its slice. The workgroup tiling (`tile_regions.py`) asks this module
for the source region of the packs and unpacks it meets on its way back from the store (the
ones `CPULowerToUKernelsPass` runs as `iree_uk_pack` / `iree_uk_unpack`; the others are
generics by then).

The regions stay static, so two cases keep a stored dim whole instead of distributing it,
where IREE would give the last workgroup a smaller, dynamically sized slice:

- a pack that pads along a dim (the source size is not a multiple of the tile): the last
  workgroup's source slice would be shorter than the others;
- an unpack's slice along a tiled dim must cover whole packed tiles: its size and offsets
  multiples of the tile (`TilingPlan.tile_multiples`); offsets into the packed source are
  then the unpacked offsets divided by the tile, an exact fraction of the workgroup offset.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

from ireelab.compiler.codegen.tile_region_types import (
    Offset,
    Range,
    Region,
    TilingFailure,
    TilingPlan,
)
from ireelab.dialects.linalg_pack import PackOp, UnPackOp, _PackingOp


def _whole(rng: Range, extent: int) -> bool:
    return not rng[0].terms and rng[0].constant == 0 and rng[1] == extent


def _outer_positions(op: _PackingOp) -> dict[int, int]:
    """Unpacked dim -> its outer dim in the packed tensor."""
    return {d: j for j, d in enumerate(op.outer_perm())}


def _keep_inner_whole(op: PackOp, packed: Region, plan: TilingPlan) -> None:
    """A pack writes whole inner tiles: the stored dims they follow are not distributed."""
    rank = len(op.unpacked_type().get_shape())
    for i, tile in enumerate(op.static_inner_tiles.get_values()):
        offset, size = packed[rank + i]
        if size != tile:
            raise TilingFailure(f"'{op.name}' would be cut inside its inner tiles")
        plan.whole_dims.update(offset.dims)


def pack_source_region(op: PackOp, result: Region, plan: TilingPlan) -> Region:
    """The source slice a tile `result` of the packed tensor reads."""
    _keep_inner_whole(op, result, plan)
    tiles = op.tiles()
    shape = op.source.type.get_shape()
    positions = _outer_positions(op)
    region: list[Range] = []
    for d, extent in enumerate(shape):
        offset, size = result[positions[d]]
        if d not in tiles:
            region.append((offset, size))
            continue
        tile = tiles[d]
        if extent % tile:
            # the last tile is padded: this dim stays whole in every workgroup
            plan.whole_dims.update(offset.dims)
            region.append((offset.scaled(tile), min(size * tile, extent)))
            continue
        region.append((offset.scaled(tile), size * tile))
    return tuple(region)


def unpack_source_region(op: UnPackOp, result: Region, plan: TilingPlan) -> Region:
    """The packed tiles a slice `result` of the unpacked tensor reads."""
    tiles = op.tiles()
    rank = len(result)
    packed_shape = op.source.type.get_shape()
    positions = _outer_positions(op)
    unpacked_shape = op.dest.type.get_shape()
    region: list[Range] = [(Offset(), 0)] * rank
    region += [(Offset(), tile) for tile in op.static_inner_tiles.get_values()]
    for d, (offset, size) in enumerate(result):
        j = positions[d]
        if d not in tiles:
            region[j] = (offset, size)
            continue
        tile = tiles[d]
        if _whole((offset, size), unpacked_shape[d]):
            region[j] = (offset, packed_shape[j])
            continue
        if unpacked_shape[d] % tile:
            # the packed source holds padding here: the dim stays whole
            plan.whole_dims.update(offset.dims)
        elif size % tile:
            raise TilingFailure(f"'{op.name}' would be cut inside its inner tiles")
        for dim in offset.dims:
            plan.tile_multiples[dim] = lcm(plan.tile_multiples.get(dim, 1), tile)
        if offset.constant % tile:
            raise TilingFailure(f"'{op.name}' would be cut inside its inner tiles")
        region[j] = (offset.scaled(Fraction(1, tile)), -(-size // tile))
    return tuple(region)
