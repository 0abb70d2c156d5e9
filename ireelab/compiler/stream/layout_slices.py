"""LayoutSlicesPass: lay out the slices of every `stream.resource.pack` as host arithmetic.

Mirrors IREE's `iree-stream-layout-slices` (Stream/Transforms/LayoutSlices.cpp), which runs
after ScheduleAllocationPass and PackConstantsPass. A pack lists the slices of one slab, each
with a lifetime (the steps of its execution region that use it) and a size; this pass
replaces it with the offsets and the total length:

- slices of constant size are placed first, by the lifetime-aware packing static slabs get
  (`pack_slices`: largest first, each at the lowest 64-byte aligned offset no live slice
  uses); their offsets are constants;
- slices sized at run time follow, placed as IREE places them, conservatively: slices are
  grouped by their size value (the same SSA value: the same number of bytes in every call),
  and within a group a slice reuses the place of an earlier one whose lifetime it does not
  overlap; every other slice gets a place of its own after the last. Offsets and the total are
  computed on the host (`util.align %size, %c64`, `arith.addi`), so each call lays out its
  slab for its own sizes.

The sums of aligned values are known to be aligned, so no `util.align` is repeated (what
IREE's canonicalizer folds away).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.stream.host_blocks import host_blocks
from ireelab.compiler.stream.index_constants import IndexConstants, constant_value
from ireelab.dialects import stream, util

ALIGNMENT = 64
"""Byte alignment of every slice in a slab (IREE's default minimum offset alignment)."""


def align(n: int) -> int:
    return (n + ALIGNMENT - 1) // ALIGNMENT * ALIGNMENT


@dataclass
class Slice:
    """A value's place in a slab: [offset, offset + size), live over [start, end] steps."""

    value: SSAValue | None
    size: int | SSAValue
    """bytes; an SSA value when computed at run time."""
    start: int = 0
    end: int = 0
    offset: int | SSAValue = 0

    def intersects(self, other: Slice) -> bool:
        return self.start <= other.end and other.start <= self.end


def pack_slices(slices: list[Slice]) -> int:
    """Sets each (static) slice's offset, lifetime-aware, largest first; returns the slab
    size."""
    placed: list[Slice] = []
    for s in sorted(slices, key=lambda s: -s.size):
        live = sorted((p for p in placed if p.intersects(s)), key=lambda p: p.offset)
        offset = 0
        for p in live:
            if offset + s.size <= p.offset:
                break
            offset = max(offset, align(p.offset + p.size))
        s.offset = offset
        placed.append(s)
    return max((s.offset + s.size for s in slices), default=0)


def pack_back_to_back(slices: list[Slice]) -> int:
    offset = 0
    for s in slices:
        s.offset = align(offset)
        offset = s.offset + s.size
    return offset


@dataclass
class HostIndexMath:
    """Index arithmetic emitted before one op, folding what is known: constants stay numbers,
    and values known to be multiples of `ALIGNMENT` are not aligned again."""

    before: InsertPoint
    constants: IndexConstants
    aligned: set[SSAValue] = field(default_factory=set)

    def align(self, value: int | SSAValue) -> int | SSAValue:
        if isinstance(value, int):
            return align(value)
        if value in self.aligned:
            return value
        op = util.AlignOp(value, self.constants.get(ALIGNMENT))
        Rewriter.insert_op(op, self.before)
        self.aligned.add(op.result)
        return op.result

    def add(self, a: int | SSAValue, b: int | SSAValue) -> int | SSAValue:
        if isinstance(a, int) and isinstance(b, int):
            return a + b
        if a == 0:
            return b
        if b == 0:
            return a
        op = arith.AddiOp(self.index(a), self.index(b))
        Rewriter.insert_op(op, self.before)
        if self._is_aligned(a) and self._is_aligned(b):
            self.aligned.add(op.result)
        return op.result

    def index(self, value: int | SSAValue) -> SSAValue:
        return self.constants.get(value) if isinstance(value, int) else value

    def _is_aligned(self, value: int | SSAValue) -> bool:
        return value % ALIGNMENT == 0 if isinstance(value, int) else value in self.aligned


def pack_dynamic_slices(
    base: int | SSAValue, slices: list[Slice], math: HostIndexMath
) -> int | SSAValue:
    """Places slices sized at run time after `base` (IREE's conservative packing: only slices
    of the same size value share memory, when their lifetimes do not overlap); returns the
    end of the last place."""
    buckets: dict[SSAValue, list[Slice]] = {}
    for s in slices:
        buckets.setdefault(s.size, []).append(s)
    offset = base
    for size, bucket in buckets.items():
        slice_size = math.align(size)
        bins: list[tuple[int | SSAValue, list[Slice]]] = []
        for s in bucket:
            target = next((b for b in bins if not any(p.intersects(s) for p in b[1])), None)
            if target is None:
                target = (offset, [])
                bins.append(target)
                offset = math.align(math.add(offset, slice_size))
            target[1].append(s)
            s.offset = target[0]
    return math.align(offset)


def layout_pack(pack: stream.ResourcePackOp, constants: IndexConstants) -> None:
    """Replaces `pack` with its slices' offsets and its total length."""
    slices = [
        Slice(None, _size(size), start, end)
        for size, (start, end) in zip(pack.dynamic_slice_sizes, pack.lifetimes(), strict=True)
    ]
    math = HostIndexMath(InsertPoint.before(pack), constants)
    base: int | SSAValue = 0 if pack.offset is None else _size(pack.offset)
    static = [s for s in slices if isinstance(s.size, int)]
    if static:
        end = align(pack_slices(static))
        for s in static:
            s.offset = math.add(base, s.offset)
        base = math.add(base, end)
    dynamic = [s for s in slices if not isinstance(s.size, int)]
    total = pack_dynamic_slices(base, dynamic, math) if dynamic else base
    pack.total_length.replace_all_uses_with(math.index(total))
    for result, s in zip(pack.packed_offsets, slices, strict=True):
        result.replace_all_uses_with(math.index(s.offset))
    Rewriter.erase_op(pack)


def _size(value: SSAValue) -> int | SSAValue:
    found = constant_value(value)
    return value if found is None else found


@dataclass(frozen=True)
class LayoutSlicesPass(ModulePass):
    """Lowers every `stream.resource.pack` to offsets computed by host arithmetic."""

    name = "iree-stream-layout-slices"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for block in host_blocks(op):
            packs = [o for o in block.ops if isinstance(o, stream.ResourcePackOp)]
            if not packs:
                continue
            constants = IndexConstants(block)
            for pack in packs:
                layout_pack(pack, constants)
