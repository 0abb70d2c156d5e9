"""`!hal.allocator`: makes buffers for a device (IREE's `iree_hal_allocator_t`), with a block
pool so that buffers of transient lifetime reuse memory across calls, and statistics.

IREE's stream stage packs each execute region's transients into one slab
(`ScheduleAllocationPass`), and IREE's queue-ordered allocations (`hal.device.queue.alloca`)
come from a pool that recycles freed blocks. ireelab's allocator keeps the blocks it made; a
block is free again when nothing but the pool refers to it (the program dropped the buffer
and the caller dropped every array viewing it), which CPython's reference count tells
exactly. A request takes the smallest free block that fits (and is at most twice the size);
otherwise a new block is made, and kept while the pool holds under `POOL_LIMIT` bytes.
Large blocks start at staggered offsets within a page (`colour`), so that the streams a
kernel reads and writes do not all fall on the same cache sets.

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
from ireelab.runtime.hal.native_tasks import data_address

MAX_ALLOCATION = 1 << 34
"""Refuse absurd sizes with an error rather than an exhausted machine."""
POOL_LIMIT = 1 << 30
"""Bytes of blocks the pool keeps for reuse; beyond that, blocks are left to the GC."""
POOL_BLOCKS = 256
"""Blocks the pool keeps at most (each request scans them)."""
ALIGNMENT = 64
"""Block sizes are rounded up to this (IREE aligns host allocations to 64 bytes too)."""
COLOURED = 1 << 16
"""Blocks of at least this many bytes start at staggered offsets within a page (below)."""
PAGE = 4096


def colour(ordinal: int) -> int:
    """Where the pool's block `ordinal` starts within a page: a different multiple of
    `ALIGNMENT` for each of 64 blocks in turn, never 0. Large numpy arrays and unpadded
    blocks all start 16 bytes into a page (glibc's mmap chunks), so without this the
    input, transient and result streams a kernel walks lie at one offset modulo 4 KiB,
    and their loads and stores contend for the same cache sets and alias in the store
    buffer. Measured (layernorm 1024x1024 on local-task, after any module had run at a
    small size so that the blocks fell at such offsets): 10.9 ms a call uncoloured,
    6.1 ms coloured, the same as a fresh process."""
    return ALIGNMENT * ((ordinal + 1) * 17 % (PAGE // ALIGNMENT))


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
    __slots__ = ("storage", "start", "size", "lent", "heap", "address")

    def __init__(self, storage: np.ndarray, start: int = 0, size: int | None = None):
        self.storage = storage
        """The array that owns the block's memory (what every view of it refers to)."""
        self.start = start
        """Where the block starts in `storage` (its `colour`)."""
        self.size = storage.shape[0] if size is None else size
        self.lent = 0
        """Bytes of the request the block currently serves (0 when free)."""
        self.heap = HEAPS[0]
        self.address = 0
        """The address of `storage`, once a buffer of the block was asked for it."""


def _pool_only_references() -> int:
    """What `sys.getrefcount` reports, through `map` over the pool's list of storages, for a
    storage only the pool holds (its block's attribute, the list, the call's argument):
    measured here the way `Allocator._free_blocks` measures."""
    storages = [np.empty(1, np.uint8)]
    block = _Block(storages[0])
    (count,) = map(sys.getrefcount, storages)
    del block
    return count


_POOL_ONLY = _pool_only_references()
"""References to a block's storage when nothing but the pool holds it."""


class Allocator:
    def __init__(self, device_name: str):
        self.device_name = device_name
        self.statistics = {heap: HeapStatistics() for heap in HEAPS}
        self._blocks: list[_Block] = []
        self._storages: list[np.ndarray] = []
        """`block.storage` of each block, in order (counted in one `map` per request)."""
        self._pooled = 0
        self._unpooled_live = dict.fromkeys(HEAPS, 0)
        self._lent = dict.fromkeys(HEAPS, 0)
        """Bytes of the pooled blocks lent out per heap (kept as blocks are lent and found
        free, so a request does not add them up)."""
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
        buffer = Buffer(block.storage, block.start, size, memory_types, usage, self, block.address)
        if not block.address:
            block.address = buffer.address()
        return buffer

    def _take(self, size: int, heap: str) -> _Block | np.ndarray:
        """A pooled block lent to the request, or the storage of an unpooled one."""
        stats = self.statistics[heap]
        rounded = max(-(-size // ALIGNMENT) * ALIGNMENT, ALIGNMENT)  # a multiple of ALIGNMENT
        best: _Block | None = None
        for block in self._free_blocks():
            if rounded <= block.size <= 2 * rounded:
                if best is None or block.size < best.size:
                    best = block
        live = self._unpooled_live[heap] + self._lent[heap]
        stats.requests += 1
        stats.bytes_allocated += size
        if best is not None:
            stats.reused += 1
            best.lent, best.heap = size, heap
            self._lent[heap] += size
        else:
            best = self._new_block(size, rounded, heap)
        stats.bytes_peak = max(stats.bytes_peak, live + size)
        return best

    def _free_blocks(self) -> list[_Block]:
        """The blocks nothing but the pool refers to, those lent until now marked free and
        counted freed. The references are counted in one `map` and the free ones found with
        `list.index`, both in C: blocks the caller still holds (results kept alive) cost no
        Python step each."""
        counts = list(map(sys.getrefcount, self._storages))
        blocks = self._blocks
        free = []
        index = -1
        while True:
            try:
                index = counts.index(_POOL_ONLY, index + 1)
            except ValueError:
                return free
            block = blocks[index]
            if block.lent:
                self.statistics[block.heap].bytes_freed += block.lent
                self._lent[block.heap] -= block.lent
                block.lent = 0
            free.append(block)

    def _collect(self) -> dict[str, int]:
        """Mark blocks nothing refers to any more as free; return the bytes live per heap."""
        self._free_blocks()
        return {heap: self._unpooled_live[heap] + self._lent[heap] for heap in HEAPS}

    def _new_block(self, size: int, rounded: int, heap: str) -> _Block | np.ndarray:
        # A coloured block is a range of a larger array, which the block keeps as its
        # storage: numpy makes every view of the range refer to that array, so its
        # reference count is the one that says whether anyone still holds the block.
        start = 0
        if rounded >= COLOURED:
            storage = np.empty(rounded + PAGE, dtype=np.uint8)
            start = (colour(len(self._blocks)) - data_address(storage)) % PAGE
        else:
            storage = np.empty(rounded, dtype=np.uint8)
        if self._pooled + rounded <= POOL_LIMIT and len(self._blocks) < POOL_BLOCKS:
            block = _Block(storage, start, rounded)
            block.lent, block.heap = size, heap
            self._lent[heap] += size
            self._blocks.append(block)
            self._storages.append(storage)
            self._pooled += rounded
            return block
        self._unpooled_live[heap] += size
        weakref.finalize(storage, self._unpooled_freed, size, heap)
        return storage[start : start + size]

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
