"""Keep the micro-kernels' BLAS single-threaded while kernels that call it run.

A workgroup's GEMM runs on one worker of the local-task device; letting OpenBLAS spread it over
its own threads as well would oversubscribe the cores and serialise concurrent callers on
OpenBLAS's server lock. OpenBLAS offers `openblas_set_num_threads_local`, but in the builds numpy
and scipy ship it sets one process-wide value: two workers each setting 1 and restoring what
they saw leave it at 1 for good (measured: numpy's own 1024^3 matmul then ran at half speed for
the rest of the process). So the runtime counts the kernels in flight: the first one in sets
one thread and remembers the setting, the last one out restores it. A numpy call made while
ireelab kernels run is single-threaded for that moment; afterwards numpy has its threads back.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable


class SingleThreadedBlas:
    """A reentrant, multi-thread scope: `with scope:` around every kernel call that uses BLAS."""

    __slots__ = ("_set_threads", "_lock", "_active", "_saved")

    def __init__(self, set_threads: Callable[[int], int]):
        self._set_threads = set_threads
        """`openblas_set_num_threads_local`: sets the count, returns the previous one."""
        self._lock = threading.Lock()
        self._active = 0
        self._saved = 0

    def __enter__(self) -> None:
        with self._lock:
            if self._active == 0:
                self._saved = self._set_threads(1)
            self._active += 1

    def __exit__(self, *exc) -> None:
        with self._lock:
            self._active -= 1
            if self._active == 0:
                self._set_threads(self._saved)

    def holding(self, kernel: Callable) -> Callable:
        """`kernel` called inside the scope: the same counting as `with self:`, inlined (the
        context-manager protocol's two Python method calls cost as much as the two OpenBLAS
        calls themselves, ~1.2 us per call measured)."""
        lock, set_threads, scope = self._lock, self._set_threads, self

        def call(*args):
            with lock:
                if scope._active == 0:
                    scope._saved = set_threads(1)
                scope._active += 1
            try:
                return kernel(*args)
            finally:
                with lock:
                    scope._active -= 1
                    if scope._active == 0:
                        set_threads(scope._saved)

        return call


_SCOPE: SingleThreadedBlas | None = None


def blas_scope(set_threads_address: int | None) -> SingleThreadedBlas | None:
    """The process's scope for the OpenBLAS whose `openblas_set_num_threads_local` is at
    `set_threads_address` (None: a BLAS without one, nothing to do)."""
    global _SCOPE
    if set_threads_address is None:
        return None
    if _SCOPE is None:
        function = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int)(set_threads_address)
        _SCOPE = SingleThreadedBlas(function)
    return _SCOPE
