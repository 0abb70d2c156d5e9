"""`!hal.allocator`: makes buffers for a device (IREE's `iree_hal_allocator_t`), with a block
pool so that buffers of transient lifetime reuse memory across calls, and statistics.

IREE's stream stage packs each execute region's transients into one slab
(`ScheduleAllocationPass`), and IREE's queue-ordered allocations (`hal.device.queue.alloca`)
come from a pool that recycles freed blocks. ireelab's allocator keeps the blocks it made; a
block is free again when nothing but the pool refers to it (the program dropped the buffer
and the caller dropped every array viewing it), which CPython's reference count tells
exactly. A request takes the smallest free block that fits (and is at most twice the size);
otherwise a new block is made, and kept while the pool holds under `POOL_LIMIT` bytes.

Statistics follow `iree_hal_allocator_statistics_t`: per heap (`HOST_LOCAL`, `DEVICE_LOCAL`:
a request asking for device-local memory counts as device-local, as on IREE's local devices)
bytes allocated, bytes freed, live and peak live, counted per request, plus how many requests
reused a block. Peaks are measured right after each request, when a new maximum can only
occur; a block's bytes count as freed when the pool finds it free again.
"""

from __future__ import annotations

import sys
import threading
import weakref
from dataclasses import dataclass, replace

import numpy as np

from ireelab.runtime.errors import HALError
from ireelab.runtime.hal.buffer import Buffer

MAX_ALLOCATION = 1 << 34
"""Refuse absurd sizes with an error rather than an exhausted machine."""
POOL_LIMIT = 1 << 30
"""Bytes of blocks the pool keeps for reuse; beyond that, blocks are left to the GC."""
POOL_BLOCKS = 256
"""Blocks the pool keeps at most (each request scans them)."""
ALIGNMENT = 64
"""Block sizes are rounded up to this (IREE aligns host allocations to 64 bytes too)."""


DEVICE_LOCAL_BIT = 0x20
"""The bit of IREE's `iree_hal_memory_type_t` that `DeviceLocal` adds to `DeviceVisible`."""
HEAPS = ("HOST_LOCAL", "DEVICE_LOCAL")


@dataclass
class HeapStatistics:
    """IREE's `iree_hal_allocator_statistics_t` counters for one heap."""

    bytes_allocated: int = 0
    bytes_freed: int = 0
    bytes_peak: int = 0
    requests: int = 0
    reused: int = 0
    """Requests served by an existing free block."""

    @property
    def bytes_live(self) -> int:
        return self.bytes_allocated - self.bytes_freed

    def as_dict(self) -> dict[str, int]:
        return {
            "bytes_allocated": self.bytes_allocated,
            "bytes_freed": self.bytes_freed,
            "bytes_live": self.bytes_live,
            "bytes_peak": self.bytes_peak,
            "requests": self.requests,
            "reused": self.reused,
        }


def format_statistics(heaps: dict[str, HeapStatistics]) -> str:
    """The table IREE's tools print under `--print_statistics`."""
    lines = ["[[ iree_hal_allocator_t memory statistics ]]"]
    for name in HEAPS:
        h = heaps[name]
        lines.append(
            f"{name:>12}: {h.bytes_peak:>12}B peak / {h.bytes_allocated:>12}B allocated / "
            f"{h.bytes_freed:>12}B freed / {h.bytes_live:>12}B live"
        )
    return "\n".join(lines)


class _Block:
    __slots__ = ("storage", "size", "lent", "heap", "address")

    def __init__(self, storage: np.ndarray):
        self.storage = storage
        self.size = storage.shape[0]
        self.lent = 0
        """Bytes of the request the block currently serves (0 when free)."""
        self.heap = HEAPS[0]
        self.address = 0
        """The address of `storage`, once a buffer of the block was asked for it."""


def _refs(block: _Block) -> int:
    return sys.getrefcount(block.storage)


_BASELINE = _refs(_Block(np.empty(1, np.uint8)))
"""References to a block's storage when only the pool holds it (measured the same way:
`getrefcount(block.storage)`, in a function or inlined, sees the attribute and its argument)."""


class Allocator:
    def __init__(self, device_name: str):
        self.device_name = device_name
        self.statistics = {heap: HeapStatistics() for heap in HEAPS}
        self._blocks: list[_Block] = []
        self._pooled = 0
        self._unpooled_live = dict.fromkeys(HEAPS, 0)
        # Reentrant: a block left to the GC may be finalised while the lock is held.
        self._lock = threading.RLock()

    def allocate(self, memory_types: int, usage: int, size: int) -> Buffer:
        if size < 0 or size > MAX_ALLOCATION:
            raise HALError(f"cannot allocate {size} bytes", code="RESOURCE_EXHAUSTED")
        heap = HEAPS[1] if memory_types & DEVICE_LOCAL_BIT else HEAPS[0]
        with self._lock:
            block = self._take(size, heap)
        if type(block) is not _Block:  # not pooled
            return Buffer(block, 0, size, memory_types, usage, self)
        buffer = Buffer(block.storage, 0, size, memory_types, usage, self, block.address)
        if not block.address:
            block.address = buffer.address()
        return buffer

    def _take(self, size: int, heap: str) -> _Block | np.ndarray:
        """A pooled block lent to the request, or the storage of an unpooled one."""
        stats = self.statistics[heap]
        # `_collect`, inlined (this runs on every call of every function)
        live = dict(self._unpooled_live)
        rounded = max(-(-size // ALIGNMENT) * ALIGNMENT, ALIGNMENT)  # a multiple of ALIGNMENT
        best: _Block | None = None
        refs = sys.getrefcount
        for block in self._blocks:
            if block.lent:
                if refs(block.storage) != _BASELINE:
                    live[block.heap] += block.lent
                    continue
                self.statistics[block.heap].bytes_freed += block.lent
                block.lent = 0
            if rounded <= block.size <= 2 * rounded:
                if best is None or block.size < best.size:
                    best = block
        stats.requests += 1
        stats.bytes_allocated += size
        if best is not None:
            stats.reused += 1
            best.lent, best.heap = size, heap
        else:
            best = self._new_block(size, rounded, heap)
        stats.bytes_peak = max(stats.bytes_peak, live[heap] + size)
        return best

    def _collect(self) -> dict[str, int]:
        """Mark blocks nothing refers to any more as free; return the bytes live per heap."""
        live = dict(self._unpooled_live)
        for block in self._blocks:
            if not block.lent:
                continue
            if _refs(block) == _BASELINE:
                self.statistics[block.heap].bytes_freed += block.lent
                block.lent = 0
            else:
                live[block.heap] += block.lent
        return live

    def _new_block(self, size: int, rounded: int, heap: str) -> _Block | np.ndarray:
        storage = np.empty(rounded, dtype=np.uint8)
        if self._pooled + rounded <= POOL_LIMIT and len(self._blocks) < POOL_BLOCKS:
            block = _Block(storage)
            block.lent, block.heap = size, heap
            self._blocks.append(block)
            self._pooled += rounded
            return block
        self._unpooled_live[heap] += size
        weakref.finalize(storage, self._unpooled_freed, size, heap)
        return storage[:size]

    def _unpooled_freed(self, size: int, heap: str) -> None:
        with self._lock:
            self._unpooled_live[heap] -= size
            self.statistics[heap].bytes_freed += size

    def wrap(self, storage: np.ndarray, memory_types: int = 0, usage: int = 0) -> Buffer:
        """Import host memory (a 1-D uint8 array) as a buffer without copying."""
        return Buffer(storage, 0, storage.shape[0], memory_types, usage, self)

    def snapshot(self) -> dict[str, HeapStatistics]:
        """Up-to-date statistics (blocks found free since the last request counted freed)."""
        with self._lock:
            self._collect()
            return {heap: replace(stats) for heap, stats in self.statistics.items()}

    def reset_peaks(self) -> dict[str, int]:
        """Start new peak measurements from the bytes live now; returns them per heap."""
        with self._lock:
            live = self._collect()
            for heap, stats in self.statistics.items():
                stats.bytes_peak = live[heap]
            return live

    def __repr__(self) -> str:
        return f"<hal.allocator {self.device_name}>"
