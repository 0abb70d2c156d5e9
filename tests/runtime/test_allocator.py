"""The allocator's block pool: blocks come back when nothing refers to them and are reused
across calls; memory someone still holds is never handed out again; statistics count it as
IREE's allocator statistics do."""

from __future__ import annotations

import numpy as np

from ireelab.runtime import load_module
from ireelab.runtime.hal import allocator as allocator_module
from ireelab.runtime.hal.allocator import Allocator, format_statistics

DEVICE_LOCAL = 0x30
A = np.arange(8, dtype=np.float32).reshape(2, 4)
B = np.arange(8, dtype=np.float32).reshape(4, 2) / 4


def test_dropped_buffer_is_reused():
    allocator = Allocator("test")
    first = allocator.allocate(DEVICE_LOCAL, 0, 1000)
    address = first.storage.ctypes.data
    del first
    second = allocator.allocate(DEVICE_LOCAL, 0, 1000)
    assert second.storage.ctypes.data == address
    stats = allocator.snapshot()["DEVICE_LOCAL"]
    assert (stats.requests, stats.reused, stats.bytes_freed, stats.bytes_live) == (2, 1, 1000, 1000)


def test_memory_still_viewed_is_not_reused():
    # The buffer is gone but an array viewing its memory is alive: the block stays lent.
    allocator = Allocator("test")
    buffer = allocator.allocate(DEVICE_LOCAL, 0, 64)
    view = buffer.bytes(0, 64)
    view[:] = 7
    del buffer
    other = allocator.allocate(DEVICE_LOCAL, 0, 64)
    other.bytes()[:] = 1
    assert (view == 7).all()
    assert allocator.snapshot()["DEVICE_LOCAL"].bytes_peak == 128


def test_blocks_fit_by_size():
    # A free block serves requests between half its size and its size, no larger.
    allocator = Allocator("test")
    dropped = allocator.allocate(0, 0, 4096)
    del dropped
    small = allocator.allocate(0, 0, 64)  # too small for the 4 KiB block: a new one
    fitting = allocator.allocate(0, 0, 3000)
    stats = allocator.snapshot()["HOST_LOCAL"]
    assert stats.reused == 1 and fitting.length == 3000 and small.length == 64


def test_blocks_beyond_the_pool_limit_are_counted_until_collected(monkeypatch):
    monkeypatch.setattr(allocator_module, "POOL_LIMIT", 0)
    allocator = Allocator("test")
    buffer = allocator.allocate(DEVICE_LOCAL, 0, 256)
    assert allocator.snapshot()["DEVICE_LOCAL"].bytes_live == 256
    del buffer
    assert allocator.snapshot()["DEVICE_LOCAL"].bytes_freed == 256


def test_statistics_table_is_irees():
    allocator = Allocator("test")
    keep = allocator.allocate(DEVICE_LOCAL, 0, 16)
    text = format_statistics(allocator.snapshot())
    assert text.splitlines() == [
        "[[ iree_hal_allocator_t memory statistics ]]",
        "  HOST_LOCAL:            0B peak /            0B allocated /            0B freed /"
        "            0B live",
        "DEVICE_LOCAL:           16B peak /           16B allocated /            0B freed /"
        "           16B live",
    ]
    assert keep.length == 16


def test_calls_reuse_result_memory_and_never_clobber_kept_results(matmul_bytes):
    # Results the caller keeps stay intact; once dropped, their memory serves the next call.
    module = load_module(matmul_bytes)
    allocator = module.context("local-task").device.allocator
    kept = [module.invoke("matmul", A * k, B, device="local-task")[0] for k in range(3)]
    for k, result in enumerate(kept):
        np.testing.assert_array_equal(result, (A * k) @ B)
    before = allocator.snapshot()["DEVICE_LOCAL"]
    for _ in range(5):
        module.invoke("matmul", A, B, device="local-task")
    after = allocator.snapshot()["DEVICE_LOCAL"]
    assert after.requests - before.requests == 5
    assert after.reused - before.reused >= 4


def test_large_blocks_start_at_staggered_offsets_within_a_page():
    # Large numpy arrays start 16 bytes into a page; blocks that did too would put every
    # stream a kernel walks on the same cache sets. Each large block starts at its own
    # multiple of 64 bytes, none at a page's start, and is reused like any other.
    allocator = Allocator("test")
    size = allocator_module.COLOURED
    buffers = [allocator.allocate(DEVICE_LOCAL, 0, size) for _ in range(8)]
    offsets = [b.bytes().ctypes.data % allocator_module.PAGE for b in buffers]
    assert len(set(offsets)) == 8 and all(o % 64 == 0 and o != 0 for o in offsets)
    assert [b.length for b in buffers] == [size] * 8
    buffers[4].bytes()[:] = 0
    buffers[3].bytes()[:] = 5  # the block's bytes are the buffer's, and no neighbour's
    assert (buffers[3].bytes() == 5).all() and (buffers[4].bytes() == 0).all()
    address = buffers[3].bytes().ctypes.data
    del buffers[3]
    again = allocator.allocate(DEVICE_LOCAL, 0, size)
    assert again.bytes().ctypes.data == address
    stats = allocator.snapshot()["DEVICE_LOCAL"]
    assert (stats.requests, stats.reused, stats.bytes_live) == (9, 1, 8 * size)
    kept = buffers[5].bytes()  # the buffer goes, an array viewing its block stays
    kept[:] = 9
    del buffers[5]
    other = allocator.allocate(DEVICE_LOCAL, 0, size)
    other.bytes()[:] = 1
    assert (kept == 9).all() and other.bytes().ctypes.data != kept.ctypes.data
