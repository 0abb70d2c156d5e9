"""`DecomposePackUnPackOpsPass` (`iree-codegen-decompose-pack-unpack-ops`): `linalg.pack` and
`linalg.unpack` become `linalg.generic` copies with the layout in their indexing maps.

Packs and unpacks in data tiling's 2-D layouts, on targets with micro-kernels, are left to
`CPULowerToUKernelsPass` (`iree_uk_pack` / `iree_uk_unpack`). IREE's CPU data-tiling pipeline
tiles a pack or unpack dispatch first and then decomposes each
tile (pad, expand_shape, transpose for a pack; transpose, collapse_shape, extract_slice for an
unpack) before vectorising. ireelab decomposes the whole op at the start of codegen, so workgroup
tiling, bufferization and the loop lowering see ordinary generics:

- an unpack reads the packed source through `(d_s floordiv tile, ..., d_s mod tile)`: every
  element of the destination is copied from where the pack put it (the padding is never read);
- a pack whose tiles divide the source reads it through `(d_outer * tile + d_inner, ...)`, a
  linear map the workgroup tiling distributes;
- a pack with padding computes each source index from `linalg.index`, reads the element with
  `tensor.extract` (at an index clamped into the source) and selects `padding_value` where the
  index lies past the end; a `?` source size is the dispatch's size value (a push constant);
- a pack or unpack whose tile sizes are SSA values (`inner_tiles = [%t, 4]`, dispatch operands
  then) computes its indices the same way, from `linalg.index`, since an affine map holds
  constant tiles only (an unpack reads `(d / tile, d % tile)` with `tensor.extract`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, ModuleOp
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.ir import BlockArgument, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from ireelab.compiler.codegen.cpu_lower_to_ukernels import packing_layout, ukernels_enabled
from ireelab.compiler.codegen.executables import export_sites
from ireelab.compiler.flow.structured import make_generic
from ireelab.compiler.util.dynamic_dims import dim_value
from ireelab.diagnostics import CompileError, copy_location
from ireelab.dialects.linalg_pack import PackOp, UnPackOp, _PackingOp


def _copy_region(op: _PackingOp) -> Region:
    element = op.source.type.element_type

    @Builder.implicit_region([element, element])
    def body(args: tuple[BlockArgument, ...]) -> None:
        linalg_ops.YieldOp(args[0])

    return body


def _packed_loop_of(op: _PackingOp) -> dict[int, tuple[int, int | None]]:
    """Unpacked dim -> (its outer loop, its inner loop or None) in the packed iteration space."""
    rank = len(op.unpacked_type().get_shape())
    outer = {d: j for j, d in enumerate(op.outer_perm())}
    inner = {d: rank + i for i, d in enumerate(op.inner_dims_pos.get_values())}
    return {d: (outer[d], inner.get(d)) for d in range(rank)}


def _source_exprs(op: PackOp) -> list[AffineExpr]:
    """The unpacked index of each source dim, as a function of the packed loops."""
    tiles = op.tiles()
    exprs: list[AffineExpr] = []
    for d, (outer, inner) in _packed_loop_of(op).items():
        expr: AffineExpr = AffineDimExpr(outer)
        if inner is not None:
            expr = expr * tiles[d] + AffineDimExpr(inner)
        exprs.append(expr)
    return exprs


def _packed_exprs(op: UnPackOp) -> list[AffineExpr]:
    """The packed index of each source dim, as a function of the unpacked loops."""
    tiles = op.tiles()
    rank = len(op.dest.type.get_shape())
    exprs: list[AffineExpr] = [AffineDimExpr(0)] * (rank + len(tiles))
    for d, (outer, inner) in _packed_loop_of(op).items():
        if inner is None:
            exprs[outer] = AffineDimExpr(d)
            continue
        exprs[outer] = AffineDimExpr(d) // tiles[d]
        exprs[inner] = AffineDimExpr(d) % tiles[d]
    return exprs


def _source_sizes(op: PackOp) -> dict[int, SSAValue]:
    """The SSA values of the source's `?` sizes (the dispatch's `tensor.load` sizes)."""
    sizes: dict[int, SSAValue] = {}
    for d, size in enumerate(op.source.type.get_shape()):
        if size != DYNAMIC_INDEX:
            continue
        value = dim_value(op.source, d)
        if not isinstance(value, SSAValue):
            raise CompileError.at(
                op, f"size {d} of the padded pack's source is not known here", "codegen"
            )
        sizes[d] = value
    return sizes


def _index(value: int | SSAValue) -> SSAValue:
    if isinstance(value, int):
        return arith.ConstantOp(IntegerAttr(value, IndexType())).result
    return value


def _extracting_pack_region(op: PackOp) -> Region:
    """`extract(source, index)` from the loop ids, the index clamped into the source and
    `padding_value` selected past its end when the pack pads; tiles may be SSA values."""
    element = op.source.type.element_type
    shape = op.source.type.get_shape()
    tiles = op.tile_values()
    sizes = _source_sizes(op) if op.pads() else {}

    @Builder.implicit_region([element])
    def body(args: tuple[BlockArgument, ...]) -> None:
        indices: list[SSAValue] = []
        inside: SSAValue | None = None
        for d, (outer, inner) in _packed_loop_of(op).items():
            position = linalg_ops.IndexOp(outer).result
            if inner is None:
                indices.append(position)
                continue
            scaled = arith.MuliOp(position, _index(tiles[d])).result
            position = arith.AddiOp(scaled, linalg_ops.IndexOp(inner).result).result
            static = isinstance(tiles[d], int) and shape[d] != DYNAMIC_INDEX
            if not op.pads() or (static and shape[d] % tiles[d] == 0):
                indices.append(position)
                continue
            size = sizes[d] if shape[d] == DYNAMIC_INDEX else _index(shape[d])
            in_range = arith.CmpiOp(position, size, "slt").result
            inside = in_range if inside is None else arith.AndIOp(inside, in_range).result
            last = arith.SubiOp(size, _index(1)).result
            indices.append(arith.MinSIOp(position, last).result)
        value = tensor.ExtractOp(op.source, indices, element).result
        if inside is not None:
            assert op.padding_value is not None
            value = arith.SelectOp(inside, value, op.padding_value).result
        linalg_ops.YieldOp(value)

    return body


def _extracting_unpack_region(op: UnPackOp) -> Region:
    """`extract(source, (d floordiv tile, ..., d mod tile))` from the loop ids, for tiles
    given as SSA values (an affine map holds only constant tiles)."""
    element = op.source.type.element_type
    tiles = op.tile_values()
    rank = len(op.dest.type.get_shape())

    @Builder.implicit_region([element])
    def body(args: tuple[BlockArgument, ...]) -> None:
        indices: list[SSAValue] = [_index(0)] * (rank + len(tiles))
        for d, (outer, inner) in _packed_loop_of(op).items():
            position = linalg_ops.IndexOp(d).result
            if inner is None:
                indices[outer] = position
                continue
            tile = _index(tiles[d])
            indices[outer] = arith.DivUIOp(position, tile).result
            indices[inner] = arith.RemUIOp(position, tile).result
        value = tensor.ExtractOp(op.source, indices, element).result
        linalg_ops.YieldOp(value)

    return body


def _kept_for_ukernels(module: ModuleOp) -> set[int]:
    """Packs and unpacks `CPULowerToUKernelsPass` runs as `iree_uk_pack` / `iree_uk_unpack`
    (ukernels on for the target, one of data tiling's layouts): not decomposed, as IREE
    lowers them to ukernels before its decomposition sees them."""
    kept: set[int] = set()
    for site in export_sites(module):
        if ukernels_enabled(site.variant):
            kept.update(id(o) for o in site.function.walk() if packing_layout(o) is not None)
    return kept


@dataclass
class DecomposePack(RewritePattern):
    kept: set[int] = field(default_factory=set)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: PackOp, rewriter: PatternRewriter) -> None:
        if id(op) in self.kept:
            return
        rank = len(op.dest.type.get_shape())
        identity = AffineMap.identity(rank)
        parallel = ["parallel"] * rank
        if op.pads() or op.has_dynamic_tiles():
            region = _extracting_pack_region(op)
            generic = make_generic([], [op.dest], region, [identity], parallel)
        else:
            read = AffineMap(rank, 0, tuple(_source_exprs(op)))
            generic = make_generic(
                [op.source], [op.dest], _copy_region(op), [read, identity], parallel
            )
        copy_location(op, generic)
        rewriter.replace(op, generic)


@dataclass
class DecomposeUnPack(RewritePattern):
    kept: set[int] = field(default_factory=set)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: UnPackOp, rewriter: PatternRewriter) -> None:
        if id(op) in self.kept:
            return
        rank = len(op.dest.type.get_shape())
        if op.has_dynamic_tiles():
            region = _extracting_unpack_region(op)
            identity = [AffineMap.identity(rank)]
            generic = make_generic([], [op.dest], region, identity, ["parallel"] * rank)
            copy_location(op, generic)
            rewriter.replace(op, generic)
            return
        read = AffineMap(rank, 0, tuple(_packed_exprs(op)))
        generic = make_generic(
            [op.source],
            [op.dest],
            _copy_region(op),
            [read, AffineMap.identity(rank)],
            ["parallel"] * rank,
        )
        copy_location(op, generic)
        rewriter.replace(op, generic)


@dataclass(frozen=True)
class DecomposePackUnPackOpsPass(ModulePass):
    name = "iree-codegen-decompose-pack-unpack-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        kept = _kept_for_ukernels(op)
        for pattern in (DecomposePack(kept), DecomposeUnPack(kept)):
            PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
