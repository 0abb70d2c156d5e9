"""The values the workgroup tiling analysis computes with (`tile_regions.py`) and the pack /
unpack regions (`packing_regions.py`) build on: symbolic offsets, the region of a tensor a
workgroup needs, and the plan that maps every tensor value to its region.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from xdsl.ir import Operation, SSAValue


@dataclass(frozen=True)
class Offset:
    """`constant + sum(coefficient * workgroup_offset[dim])` over dims of the stored tensor."""

    terms: tuple[tuple[int, int], ...] = ()
    constant: int = 0

    @staticmethod
    def of_dim(dim: int) -> Offset:
        return Offset(((dim, 1),), 0)

    def __add__(self, other: Offset) -> Offset:
        merged = dict(self.terms)
        for dim, coefficient in other.terms:
            merged[dim] = merged.get(dim, 0) + coefficient
        terms = tuple(sorted((d, c) for d, c in merged.items() if c != 0))
        return Offset(terms, self.constant + other.constant)

    def scaled(self, factor: int | Fraction) -> Offset:
        """`factor` times this offset; a fraction (an unpack's tile index, `offset / tile`)
        stays one until the workgroup tile it multiplies makes it whole."""
        if factor == 0:
            return Offset()
        terms = tuple((d, _whole_if_integral(c * factor)) for d, c in self.terms)
        return Offset(terms, int(self.constant * factor))

    @property
    def dims(self) -> set[int]:
        return {d for d, _ in self.terms}


def _whole_if_integral(value: int | Fraction) -> int | Fraction:
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


Range = tuple[Offset, int]
"""A slice of one dimension: its offset and its static size."""

Region = tuple[Range, ...]


class TilingFailure(Exception):
    """The dispatch cannot be tiled this way; the caller runs it as one workgroup."""


@dataclass
class TilingPlan:
    """Regions of every tensor value the stored result depends on."""

    regions: dict[SSAValue, Region] = field(default_factory=dict)
    use_regions: dict[tuple[Operation, int], Region] = field(default_factory=dict)
    """(user, operand index) -> region, for operands made per use: `dispatch.tensor.load` and
    `tensor.empty` results."""
    loops: dict[Operation, list[Range]] = field(default_factory=dict)
    """Loop ranges of every linalg op that is tiled (for a pack or unpack: its result's
    region, the iteration space MLIR's tiling interface gives them)."""
    whole_dims: set[int] = field(default_factory=set)
    """Stored dims that must not be distributed (a padded pack or unpack reads through them)."""
    tile_multiples: dict[int, int] = field(default_factory=dict)
    """Stored dim -> what its workgroup tile must be a multiple of (an unpack reads whole
    packed tiles along it)."""
