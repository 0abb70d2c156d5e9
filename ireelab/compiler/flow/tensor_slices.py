"""Static offsets, sizes and strides of `tensor.extract_slice` / `tensor.insert_slice`, and
IREE's test for whether a slice is one contiguous run of a row-major tensor.

Mirrors `isOffsetSizeAndStrideMappableToFlow` in IREE's
Dialect/Flow/Conversion/TensorToFlow/Utils.cpp: walking from the innermost dimension, every
dimension must be taken whole until the first partial one; all dimensions outside that one
must have size 1; every stride is 1. Such a slice can become `flow.tensor.slice` /
`flow.tensor.update` (one copy of bytes); any other slice needs a copy kernel.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.dialects.utils.dynamic_index_list import get_dynamic_index_list
from xdsl.ir import SSAValue


@dataclass(frozen=True)
class StaticSlice:
    offsets: list[int]
    sizes: list[int]
    strides: list[int]


def static_slice(op: tensor.ExtractSliceOp | tensor.InsertSliceOp) -> StaticSlice | None:
    """The slice's parameters when all of them are constants (None when one is an SSA value)."""
    params = (op.static_offsets, op.static_sizes, op.static_strides)
    values = [list(p.get_values()) for p in params]
    if any(v == DYNAMIC_INDEX for vs in values for v in vs):
        return None
    return StaticSlice(*values)


@dataclass(frozen=True)
class MixedSlice:
    """A slice's offsets, sizes and strides, each a constant or the SSA value giving it."""

    offsets: list[SSAValue | int]
    sizes: list[SSAValue | int]
    strides: list[SSAValue | int]


def mixed_slice(op: tensor.ExtractSliceOp | tensor.InsertSliceOp) -> MixedSlice:
    def mixed(key: str) -> list[SSAValue | int]:
        static = getattr(op, f"static_{key}").get_values()
        return get_dynamic_index_list(static, getattr(op, key), DYNAMIC_INDEX)

    return MixedSlice(mixed("offsets"), mixed("sizes"), mixed("strides"))


def is_contiguous(s: StaticSlice | MixedSlice, base_shape: list[int]) -> bool:
    """True when the slice of a row-major tensor of `base_shape` is one run of elements. An
    SSA offset or size, or a `?` extent, makes that dimension a partial one (IREE does not
    prove a run-time size equal to the extent)."""
    if len(s.offsets) != len(base_shape) or any(st != 1 for st in s.strides):
        return False
    full = True
    for offset, size, extent in reversed(list(zip(s.offsets, s.sizes, base_shape, strict=True))):
        static = isinstance(offset, int) and isinstance(size, int)
        if not full:
            if not (isinstance(size, int) and size == 1):
                return False
            continue
        if not (static and offset == 0 and size == extent and extent != DYNAMIC_INDEX):
            full = False
    return True


def is_rank_reducing(op: tensor.ExtractSliceOp | tensor.InsertSliceOp) -> bool:
    small = op.result.type if isinstance(op, tensor.ExtractSliceOp) else op.source.type
    big = op.source.type if isinstance(op, tensor.ExtractSliceOp) else op.result.type
    assert isinstance(small, TensorType) and isinstance(big, TensorType)
    return len(small.get_shape()) != len(big.get_shape())
