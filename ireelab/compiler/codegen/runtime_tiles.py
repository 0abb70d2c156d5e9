"""Slices of a workgroup tile along a `?` dim: which ones are allowed, and their run-time sizes.

Part of `TileAndDistributeToWorkgroupsPass` (`tile_and_distribute.py`). Along a distributed
`?` dim the last workgroup's result tile is `min(tile, size - offset)` long (the remainder),
so every slice a workgroup reads along that dim has a size known only at dispatch time. IREE
gets those sizes from MLIR's `TilingInterface` (`getIterationDomainTileFromResultTile`, then
each operand's `affine.apply` of its indexing map at the tile's offsets and sizes), which the
canonicalizer folds into `arith` on the tile size. Here a slice along such a dim is
`c * tile + k` elements at offset `c * offset`: `c = 1, k = 0` for an elementwise map or a
matmul's rows, and a convolution's or pool's image window, read through `oh * stride + kh *
dilation`, is `stride * (tile - 1) + dilation * (kh - 1) + 1`, so `c` is the stride and `k`
what the window adds. Its run-time size is `c * runtime_tile + k`. Any other slice along a
`?` dim (a `?` size not spanned by the tile loops) makes the dispatch one workgroup.
"""

from __future__ import annotations

from fractions import Fraction

from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.ir import SSAValue

from ireelab.compiler.codegen.index_arith import IndexBuilder
from ireelab.compiler.codegen.tile_region_types import Offset, Range, TilingFailure


def window_along(rng: Range, tiles: dict[int, int]) -> tuple[int, int, int] | None:
    """(dim, c, k) when `rng` is `c * tile + k` elements at `c` times the workgroup offset
    of the distributed dim `dim` (a window at least one element long at the smallest tile);
    None when it does not move with a distributed dim."""
    offset, size = rng
    dims = offset.dims & set(tiles)
    if not dims:
        return None
    if len(offset.terms) != 1:
        raise TilingFailure("a slice moves with two workgroup offsets")
    dim, coefficient = offset.terms[0]
    if isinstance(coefficient, Fraction) or coefficient < 1 or size < 1:
        raise TilingFailure("a slice along a `?` dim is not a window of its tile")
    extra = size - coefficient * tiles[dim]
    if coefficient + extra < 1:
        raise TilingFailure("a window shorter than one element at a one-element tile")
    return dim, coefficient, extra


def check_runtime_ranges(ranges: list[Range], tiles: dict[int, int], dynamic: set[int]) -> None:
    """Every range along a distributed `?` dim is a window of its tile (`window_along`); a
    `?` size elsewhere must be a whole dim."""
    dynamic_tiles = {d: t for d, t in tiles.items() if d in dynamic}
    for offset, size in ranges:
        if offset.dims & dynamic:
            window_along((offset, size), dynamic_tiles)
        elif size < 0 and (size != DYNAMIC_INDEX or offset != Offset()):
            raise TilingFailure("a `?` size that is not a whole dim")


class RuntimeSizes:
    """The run-time sizes of slices along distributed `?` dims, each built once."""

    def __init__(self, index: IndexBuilder, tiles: dict[int, int], runtime: dict[int, SSAValue]):
        self.index = index
        self.tiles = tiles
        self.runtime = runtime
        """distributed `?` dim -> its tile's run-time size, `min(tile, size - offset)`"""
        self._built: dict[tuple[int, int, int], SSAValue | int] = {}

    def of(self, rng: Range) -> SSAValue | int | None:
        """`c * runtime_tile + k` for a window along a distributed `?` dim, else None."""
        window = window_along(rng, {d: t for d, t in self.tiles.items() if d in self.runtime})
        if window is None:
            return None
        if window not in self._built:
            dim, coefficient, extra = window
            scaled = self.index.mul(self.runtime[dim], coefficient)
            self._built[window] = self.index.add(scaled, extra)
        return self._built[window]
