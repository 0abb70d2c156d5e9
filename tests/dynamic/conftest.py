"""Fixtures the dynamic-shape tests share."""

from __future__ import annotations

import gc

import numba.core.compiler
import pytest

from ireelab.runtime.hal import command_buffer, recording_cache


@pytest.fixture
def dispatched(monkeypatch):
    """The workgroup counts of every dispatch recorded while the test runs (on the HAL
    command buffer, so they are the counts the host computed at dispatch time). The
    recording caches are emptied first and around each finalize, so no recording is kept for a
    later call at the same sizes (which would replay without `dispatch`, and a fused command
    run would not even finalize): every call records again here."""
    counts: list[tuple[int, int, int]] = []
    record = command_buffer.CommandBuffer.dispatch

    def recording(self, command):
        counts.append(command.workgroups)
        return record(self, command)

    finalize = recording_cache.RecordingCache.finalize

    def recording_again(self, buffer):
        self.recordings.clear()
        finalize(self, buffer)
        self.recordings.clear()

    for cache in gc.get_objects():  # recordings kept by contexts made before the test
        # `type`, not `isinstance`: some objects of other libraries (lazy proxies) raise
        # when asked for their `__class__`, and the suite has loaded them by now
        if type(cache) is recording_cache.RecordingCache:
            cache.recordings.clear()
    monkeypatch.setattr(command_buffer.CommandBuffer, "dispatch", recording)
    monkeypatch.setattr(recording_cache.RecordingCache, "finalize", recording_again)
    return counts


@pytest.fixture
def numba_compiles(monkeypatch):
    """The functions numba compiles while the test runs (loading from its cache is not a
    compile): once a `?` program has run at one size, other sizes must compile nothing. Its
    module is best loaded with `IREELAB_GENERIC_KERNELS=0`, so no swap from the generic
    kernel tier to the specialised one happens mid-test."""
    compiled: list[str] = []
    compile_extra = numba.core.compiler.compile_extra

    def counting(typingctx, targetctx, func, *args, **kwargs):
        compiled.append(getattr(func, "__qualname__", str(func)))
        return compile_extra(typingctx, targetctx, func, *args, **kwargs)

    monkeypatch.setattr(numba.core.compiler, "compile_extra", counting)
    return compiled
