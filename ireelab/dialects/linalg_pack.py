"""`linalg.pack` and `linalg.unpack`: the data-layout ops of IREE's data tiling.

MLIR's `linalg.pack` (moved from `tensor.pack` in LLVM 20, as IREE 3.13 prints it) cuts the
dimensions `inner_dims_pos` of a tensor into tiles of `inner_tiles` elements, appends the tile
dimensions at the end, orders the outer (tile-index) dimensions by `outer_dims_perm`, and fills
the last partial tile with `padding_value`. `linalg.unpack` is the inverse, and drops the
padding when the destination is smaller than the tiles cover. IREE's data tiling
materialises encoded matmul operands as packs, the matmul as `linalg.mmt4d`, and the result
as an unpack.

Tile sizes are written as MLIR writes them, static (`inner_tiles = [8, 4]`) or mixed with SSA
values (`inner_tiles = [%c8, 4]`: the `inner_tiles` operands, `kDynamic` in
`static_inner_tiles`), which reach the kernel as push constants like any `?` size
(`compiler/codegen/decompose_pack_unpack_ops.py` indexes with them).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IndexType, TensorType, i64
from xdsl.dialects.utils import DynamicIndexList
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


def _layout_properties(
    inner_dims_pos: list[int], inner_tiles: list[int], outer_dims_perm: list[int] | None
) -> dict[str, Attribute]:
    props: dict[str, Attribute] = {
        "inner_dims_pos": DenseArrayBase.from_list(i64, inner_dims_pos),
        "static_inner_tiles": DenseArrayBase.from_list(i64, inner_tiles),
    }
    if outer_dims_perm is not None:
        props["outer_dims_perm"] = DenseArrayBase.from_list(i64, outer_dims_perm)
    return props


class _PackingOp(IRDLOperation):
    """What pack and unpack share: the packed layout and its verification. Operands are
    declared in each op, so they keep MLIR's order (source, dest, padding_value)."""

    T: ClassVar = VarConstraint("T", base(TensorType))

    outer_dims_perm = opt_prop_def(DenseArrayBase.constr(i64))
    """Order of the outer (tile-index) dimensions in the packed tensor; identity if absent."""
    inner_dims_pos = prop_def(DenseArrayBase.constr(i64))
    """Which dimensions of the unpacked tensor are tiled, in the order of the inner dims."""
    static_inner_tiles = prop_def(DenseArrayBase.constr(i64))
    """The tile size of each dimension in `inner_dims_pos` (`kDynamic` where an SSA value
    among the `inner_tiles` operands gives it)."""

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    custom_directives = (DynamicIndexList,)

    traits = traits_def(Pure())

    def unpacked_type(self) -> TensorType:
        raise NotImplementedError

    def packed_type(self) -> TensorType:
        raise NotImplementedError

    def outer_perm(self) -> list[int]:
        rank = len(self.unpacked_type().get_shape())
        if self.outer_dims_perm is None:
            return list(range(rank))
        return list(self.outer_dims_perm.get_values())

    def has_dynamic_tiles(self) -> bool:
        return DYNAMIC_INDEX in self.static_inner_tiles.get_values()

    def tile_values(self) -> dict[int, int | SSAValue]:
        """Tiled dimension -> its tile size: the static size, or the SSA value giving it."""
        dynamic = iter(self.inner_tiles)
        sizes = [
            next(dynamic) if t == DYNAMIC_INDEX else t for t in self.static_inner_tiles.get_values()
        ]
        return dict(zip(self.inner_dims_pos.get_values(), sizes, strict=True))

    def tiles(self) -> dict[int, int]:
        """Tiled dimension of the unpacked tensor -> its tile size."""
        positions = self.inner_dims_pos.get_values()
        return dict(zip(positions, self.static_inner_tiles.get_values(), strict=True))

    def expected_packed_shape(self) -> list[int]:
        shape = list(self.unpacked_type().get_shape())
        tiles = self.tiles()
        outer = [
            -((-size) // tiles[d])
            if d in tiles and DYNAMIC_INDEX not in (size, tiles[d])
            else (DYNAMIC_INDEX if d in tiles else size)
            for d, size in enumerate(shape)
        ]
        return [outer[d] for d in self.outer_perm()] + list(self.static_inner_tiles.get_values())

    def verify_(self) -> None:
        rank = len(self.unpacked_type().get_shape())
        positions = list(self.inner_dims_pos.get_values())
        tiles = list(self.static_inner_tiles.get_values())
        if len(positions) != len(tiles):
            raise VerifyException("inner_dims_pos and inner_tiles must have the same length")
        if len(set(positions)) != len(positions) or any(not 0 <= p < rank for p in positions):
            raise VerifyException(f"invalid inner_dims_pos {positions} for rank {rank}")
        if any(t <= 0 and t != DYNAMIC_INDEX for t in tiles):
            raise VerifyException(f"inner_tiles must be positive sizes, got {tiles}")
        if tiles.count(DYNAMIC_INDEX) != len(self.inner_tiles):
            raise VerifyException("inner_tiles: one SSA value for each dynamic tile size")
        if sorted(self.outer_perm()) != list(range(rank)):
            raise VerifyException(f"outer_dims_perm {self.outer_perm()} is not a permutation")
        packed = list(self.packed_type().get_shape())
        expected = self.expected_packed_shape()
        if len(packed) != len(expected) or any(
            p != e and DYNAMIC_INDEX not in (p, e) for p, e in zip(packed, expected, strict=True)
        ):
            raise VerifyException(
                f"packed type {self.packed_type()} does not match the tiling "
                f"(expected shape {expected})"
            )
        if self.packed_type().element_type != self.unpacked_type().element_type:
            raise VerifyException("packed and unpacked element types differ")


@irdl_op_definition
class PackOp(_PackingOp):
    name = "linalg.pack"

    source = operand_def(TensorType)
    dest = operand_def(_PackingOp.T)
    padding_value = opt_operand_def(AnyAttr())
    """Value of the elements of the last tile that lie outside the source."""
    inner_tiles = var_operand_def(IndexType)
    """The tile sizes given as SSA values, in order."""
    result = result_def(_PackingOp.T)

    assembly_format = (
        "$source (`padding_value` `(` $padding_value^ `:` type($padding_value) `)`)? "
        "(`outer_dims_perm` `=` $outer_dims_perm^)? "
        "`inner_dims_pos` `=` $inner_dims_pos "
        "`inner_tiles` `=` custom<DynamicIndexList>($inner_tiles, $static_inner_tiles) "
        "`into` $dest attr-dict `:` type($source) `->` type($dest)"
    )

    def __init__(
        self,
        source: SSAValue,
        dest: SSAValue,
        inner_dims_pos: list[int],
        inner_tiles: list[int],
        outer_dims_perm: list[int] | None = None,
        padding_value: SSAValue | None = None,
    ):
        props = _layout_properties(inner_dims_pos, inner_tiles, outer_dims_perm)
        pad = [padding_value] if padding_value is not None else []
        super().__init__(
            operands=[source, dest, pad, []], result_types=[dest.type], properties=props
        )

    def unpacked_type(self) -> TensorType:
        return self.source.type

    def packed_type(self) -> TensorType:
        return self.dest.type

    def needs_padding(self) -> bool:
        """True if a static size is not a multiple of its static tile (MLIR's
        `requirePaddingValue`; a `?` is assumed to divide, unless a `padding_value` says
        otherwise)."""
        shape = self.unpacked_type().get_shape()
        return any(
            DYNAMIC_INDEX not in (shape[d], t) and shape[d] % t for d, t in self.tiles().items()
        )

    def pads(self) -> bool:
        """True if some tile may run past the source: the padding value fills it."""
        if self.needs_padding():
            return True
        shape = self.unpacked_type().get_shape()
        dynamic = any(DYNAMIC_INDEX in (shape[d], t) for d, t in self.tiles().items())
        return dynamic and self.padding_value is not None

    def verify_(self) -> None:
        super().verify_()
        if self.padding_value is not None:
            if self.padding_value.type != self.unpacked_type().element_type:
                raise VerifyException("padding_value must have the element type")
        elif self.needs_padding():
            raise VerifyException(
                "a pack whose tiles do not divide the source needs a padding_value"
            )


@irdl_op_definition
class UnPackOp(_PackingOp):
    name = "linalg.unpack"

    source = operand_def(TensorType)
    dest = operand_def(_PackingOp.T)
    inner_tiles = var_operand_def(IndexType)
    """The tile sizes given as SSA values, in order."""
    result = result_def(_PackingOp.T)

    assembly_format = (
        "$source (`outer_dims_perm` `=` $outer_dims_perm^)? "
        "`inner_dims_pos` `=` $inner_dims_pos "
        "`inner_tiles` `=` custom<DynamicIndexList>($inner_tiles, $static_inner_tiles) "
        "`into` $dest attr-dict `:` type($source) `->` type($dest)"
    )

    def __init__(
        self,
        source: SSAValue,
        dest: SSAValue,
        inner_dims_pos: list[int],
        inner_tiles: list[int],
        outer_dims_perm: list[int] | None = None,
    ):
        props = _layout_properties(inner_dims_pos, inner_tiles, outer_dims_perm)
        super().__init__(operands=[source, dest, []], result_types=[dest.type], properties=props)

    def unpacked_type(self) -> TensorType:
        return self.dest.type

    def packed_type(self) -> TensorType:
        return self.source.type
