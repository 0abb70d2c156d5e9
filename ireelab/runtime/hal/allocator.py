"""`!hal.allocator`: makes buffers for a device (IREE's `iree_hal_allocator_t`), with a block
pool so that buffers of transient lifetime reuse memory across calls, and statistics.

IREE's stream stage packs each execute region's transients into one slab
(`ScheduleAllocationPass`), and IREE's queue-ordered allocations (`hal.device.queue.alloca`)
come from a pool that recycles freed blocks. ireelab's allocator keeps the blocks it made; a
block is free again when nothing but the pool refers to it (the program dropped the buffer
and the caller dropped every array viewing it), which CPython's reference count tells
exactly. A request takes the smallest free block that fits (and is at most twice the size);
otherwise a new block is made, and kept while the pool holds under `POOL_LIMIT` bytes.

Statistics follow `iree_hal_allocator_statistics_t`: bytes allocated, bytes freed, live and
peak live, counted per request, plus how many requests reused a block. `peak` is measured
right after each request, when a new maximum can only occur.
"""

from __future__ import annotations

import sys
import threading
import weakref
from dataclasses import dataclass

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


@dataclass
class AllocatorStatistics:
    """IREE's `iree_hal_allocator_statistics_t`, for host-local device memory."""

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

    def format(self) -> str:
        """The table IREE's tools print under `--print_statistics`."""

        def size(n: int) -> str:
            return f"{n}B"

        return (
            "[[ iree_hal_allocator_t memory statistics ]]\n"
            f"  HOST_LOCAL: {size(self.bytes_peak):>12} peak / {size(self.bytes_allocated):>12} "
            f"allocated / {size(self.bytes_freed):>12} freed / {size(self.bytes_live):>12} live\n"
            f"  (ireelab pool: {self.requests} requests, {self.reused} served by a reused block)"
        )


class _Block:
    __slots__ = ("storage", "size", "lent")

    def __init__(self, storage: np.ndarray):
        self.storage = storage
        self.size = storage.shape[0]
        self.lent = 0
        """Bytes of the request the block currently serves (0 when free)."""


def _round(size: int) -> int:
    return max(-(-size // ALIGNMENT) * ALIGNMENT, ALIGNMENT)


def _refs(block: _Block) -> int:
    return sys.getrefcount(block.storage)


_BASELINE = _refs(_Block(np.empty(1, np.uint8)))
"""References to a block's storage when only the pool holds it (measured the same way)."""


class Allocator:
    def __init__(self, device_name: str):
        self.device_name = device_name
        self.statistics = AllocatorStatistics()
        self._blocks: list[_Block] = []
        self._pooled = 0
        self._unpooled_live = 0
        # Reentrant: a block left to the GC may be finalised while the lock is held.
        self._lock = threading.RLock()

    def allocate(self, memory_types: int, usage: int, size: int) -> Buffer:
        if size < 0 or size > MAX_ALLOCATION:
            raise HALError(f"cannot allocate {size} bytes", code="RESOURCE_EXHAUSTED")
        with self._lock:
            storage = self._take(size)
        return Buffer(storage, 0, size, memory_types, usage, self)

    def _take(self, size: int) -> np.ndarray:
        stats = self.statistics
        live = self._collect()
        rounded = _round(size)
        best: _Block | None = None
        for block in self._blocks:
            if block.lent == 0 and rounded <= block.size <= 2 * rounded:
                if best is None or block.size < best.size:
                    best = block
        stats.requests += 1
        stats.bytes_allocated += size
        if best is not None:
            stats.reused += 1
            best.lent = size
            storage = best.storage
        else:
            storage = self._new_block(size, rounded)
        stats.bytes_peak = max(stats.bytes_peak, live + size + self._unpooled_live)
        return storage if storage.shape[0] == size else storage[:size]

    def _collect(self) -> int:
        """Mark blocks nothing refers to any more as free; return the bytes still lent."""
        live = 0
        for block in self._blocks:
            if block.lent and _refs(block) == _BASELINE:
                self.statistics.bytes_freed += block.lent
                block.lent = 0
            live += block.lent
        return live

    def _new_block(self, size: int, rounded: int) -> np.ndarray:
        storage = np.empty(rounded, dtype=np.uint8)
        if self._pooled + rounded <= POOL_LIMIT and len(self._blocks) < POOL_BLOCKS:
            block = _Block(storage)
            block.lent = size
            self._blocks.append(block)
            self._pooled += rounded
            return storage
        self._unpooled_live += size
        weakref.finalize(storage, self._unpooled_freed, size)
        return storage

    def _unpooled_freed(self, size: int) -> None:
        with self._lock:
            self._unpooled_live -= size
            self.statistics.bytes_freed += size

    def wrap(self, storage: np.ndarray, memory_types: int = 0, usage: int = 0) -> Buffer:
        """Import host memory (a 1-D uint8 array) as a buffer without copying."""
        return Buffer(storage, 0, storage.shape[0], memory_types, usage, self)

    def live_bytes(self) -> int:
        with self._lock:
            return self._collect() + self._unpooled_live

    def reset_peak(self) -> int:
        """Start a new peak measurement from the bytes live now; returns them."""
        with self._lock:
            live = self._collect() + self._unpooled_live
            self.statistics.bytes_peak = live
            return live

    def __repr__(self) -> str:
        return f"<hal.allocator {self.device_name}>"
