"""Keep the micro-kernels' BLAS single-threaded while kernels that call it run.

A workgroup's GEMM runs on one worker of the local-task device; letting OpenBLAS spread it over
its own threads as well would oversubscribe the cores and serialise concurrent callers on
OpenBLAS's server lock. OpenBLAS offers `openblas_set_num_threads_local`, but in the builds numpy
and scipy ship it sets one process-wide value: two workers each setting 1 and restoring what
they saw leave it at 1 for good (measured: numpy's own 1024^3 matmul then ran at half speed for
the rest of the process). So the runtime counts the kernels in flight: the first one in sets
one thread and remembers the setting, the last one out restores it. A numpy call made while
ireelab kernels run is single-threaded for that moment; afterwards numpy has its threads back.

The count lives in native memory (`[lock, kernels in flight, saved setting]`) and is changed
by numba code without the GIL, under a spin lock held only while the setting changes: a C entry
point is then called with its scope in one native call (`entry_call`), instead of two
Python-level lock round trips and two ctypes calls around a third (measured on the 2x4x2
matmul: 2.3 us per kernel call before, under 1 us after).
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from functools import partial

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from ireelab.runtime.hal.native_intrinsics import atomic_add, call_entry_at
from ireelab.runtime.hal.spin_wait import _pause

SET_THREADS = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int)
"""`int openblas_set_num_threads_local(int)`: sets the count, returns the previous one."""

LOCK, ACTIVE, SAVED = 0, 1, 2
"""The words of a scope's state."""


@intrinsic
def _call_set_threads(typingctx, function, count):
    # function(count) for an `int (*)(int)` by address; the int result widened to int64
    def codegen(context, builder, signature, args):
        i32 = ir.IntType(32)
        pointer = builder.inttoptr(args[0], ir.FunctionType(i32, [i32]).as_pointer())
        return builder.sext(builder.call(pointer, [builder.trunc(args[1], i32)]), ir.IntType(64))

    return types.int64(types.int64, types.int64), codegen


@numba.njit(nogil=True, cache=True, inline="always")
def _enter(state, set_threads):
    while atomic_add(state, LOCK, 1) != 0:  # taken: undo and wait for the holder
        atomic_add(state, LOCK, -1)
        _pause()
    if state[ACTIVE] == 0:
        state[SAVED] = _call_set_threads(set_threads, 1)
    state[ACTIVE] += 1
    atomic_add(state, LOCK, -1)


@numba.njit(nogil=True, cache=True, inline="always")
def _exit(state, set_threads):
    while atomic_add(state, LOCK, 1) != 0:
        atomic_add(state, LOCK, -1)
        _pause()
    state[ACTIVE] -= 1
    if state[ACTIVE] == 0:
        _call_set_threads(set_threads, state[SAVED])
    atomic_add(state, LOCK, -1)


@numba.njit(nogil=True, cache=True)
def enter_scope(state, set_threads):
    _enter(state, set_threads)


@numba.njit(nogil=True, cache=True)
def exit_scope(state, set_threads):
    _exit(state, set_threads)


@numba.njit(nogil=True, cache=True)
def call_entry_in_scope(state, set_threads, entry, wg_begin, wg_end, ctx):
    """A C entry point (`native_entries`) called inside the scope, in one native call (a
    kernel's C entry point never raises: `kernel_faults`, so the exit always runs)."""
    _enter(state, set_threads)
    call_entry_at(entry, wg_begin, wg_end, ctx)
    _exit(state, set_threads)


class SingleThreadedBlas:
    """A reentrant, multi-thread scope: `with scope:` around every kernel call that uses BLAS.

    `set_threads` is OpenBLAS's function (a ctypes function) or any Python callable of that
    signature (tests), which native code then calls back through ctypes."""

    __slots__ = ("_set_threads", "address", "state")

    def __init__(self, set_threads: Callable[[int], int]):
        if not isinstance(set_threads, ctypes._CFuncPtr):
            set_threads = SET_THREADS(set_threads)
        self._set_threads = set_threads
        """Kept alive: native code calls it by address."""
        self.address: int = ctypes.cast(set_threads, ctypes.c_void_p).value
        self.state = np.zeros(3, np.int64)

    @property
    def active(self) -> int:
        """Kernels inside the scope now."""
        return int(self.state[ACTIVE])

    def __enter__(self) -> None:
        enter_scope(self.state, self.address)

    def __exit__(self, *exc) -> None:
        exit_scope(self.state, self.address)

    def holding(self, kernel: Callable) -> Callable:
        """`kernel` (a Python callable) called inside the scope."""
        state, address = self.state, self.address

        def call(*args):
            enter_scope(state, address)
            try:
                return kernel(*args)
            finally:
                exit_scope(state, address)

        return call

    def entry_call(self, entry: int) -> Callable[[int, int, int], None]:
        """The C entry point at `entry`, called as `(wg_begin, wg_end, argument block
        address)` inside the scope."""
        return partial(call_entry_in_scope, self.state, self.address, entry)


_SCOPE: SingleThreadedBlas | None = None


def blas_scope(set_threads_address: int | None) -> SingleThreadedBlas | None:
    """The process's scope for the OpenBLAS whose `openblas_set_num_threads_local` is at
    `set_threads_address` (None: a BLAS without one, nothing to do)."""
    global _SCOPE
    if set_threads_address is None:
        return None
    if _SCOPE is None:
        _SCOPE = SingleThreadedBlas(SET_THREADS(set_threads_address))
    return _SCOPE
