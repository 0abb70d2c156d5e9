"""A worker's short busy-wait for new work, without the GIL (IREE's worker spin before idling).

An idle `local-task` worker that goes straight to sleep on a condition variable is slow to wake:
measured here (2 vCPUs), a third of the submissions of a two-tile dispatch found one worker
still asleep 0.7-1.8 ms after it was notified, so the other worker ran both tiles and the call
took twice as long. Native thread pools avoid this by spinning a little before they sleep
(IREE's task workers, OpenBLAS's threads). A Python thread cannot spin itself without holding
the GIL, which would stall every other thread; `spin_until_changed` spins in numba code that
released the GIL, polling a submission counter with an atomic load and the CPU's pause hint,
and returns as soon as the counter moves (new work) or its round budget is spent (then the
worker sleeps as before).
"""

from __future__ import annotations

import platform
import time

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

SPIN_SECONDS = 0.0005
"""How long an idle worker polls before it sleeps: long enough to catch the next submission of
a caller that keeps invoking (tens of microseconds apart), short enough to cost nothing that
matters when the caller stops."""

_X86 = platform.machine().lower() in ("x86_64", "amd64", "i386", "i686")


@intrinsic
def _load_acquire(typingctx, array, index):
    # array[index] read with an atomic (acquire) load, which LLVM may not hoist out of the loop
    def codegen(context, builder, signature, args):
        view = context.make_array(signature.args[0])(context, builder, args[0])
        pointer = builder.gep(view.data, [args[1]])
        return builder.load_atomic(pointer, "acquire", 8)

    return types.int64(array, index), codegen


@intrinsic
def _pause(typingctx):
    # x86's PAUSE (eases the sibling hyper-thread and the memory pipeline); nothing elsewhere
    def codegen(context, builder, signature, args):
        if _X86:
            hint = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(ir.VoidType(), []), "llvm.x86.sse2.pause"
            )
            builder.call(hint, [])
        return context.get_dummy_value()

    return types.void(), codegen


@numba.njit(nogil=True, cache=True)
def spin_until_changed(counter, seen, rounds):
    """True as soon as `counter[0] != seen`; False after `rounds` polls."""
    for _ in range(rounds):
        if _load_acquire(counter, 0) != seen:
            return True
        _pause()
    return False


def calibrated_rounds(seconds: float = SPIN_SECONDS) -> int:
    """Poll rounds that take about `seconds` on this CPU (compiles the spinner on first use)."""
    counter = np.zeros(1, np.int64)
    spin_until_changed(counter, 0, 1)
    probe = 20_000
    start = time.perf_counter()
    spin_until_changed(counter, 0, probe)
    per_round = max((time.perf_counter() - start) / probe, 1e-10)
    return max(int(seconds / per_round), 1)
