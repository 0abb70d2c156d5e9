"""Running a whole submission without the GIL: IREE's task workers, for dispatch-only work.

The Python task executor hands each section of a submission to its threads as Python tasks.
Every hand-off needs the GIL, and on a VM whose idle vCPUs halt at once (this machine's guest
does not poll before halting), a thread that blocks for the GIL even for microseconds may wake
a millisecond later: measured, about one call in ten of a two-thread MLP layer lost 1.1 ms
that way, and each barrier between dispatches cost 30-40 us of Python.

So a submission whose sections hold only dispatches becomes a *plan*: flat int64 arrays that
threads run in native code (numba, `nogil`), as IREE's workers run a command buffer's regions:

- `plan`: `[sections, then per section: dispatches, then per dispatch: entry, ctx, total,
  chunk]`. `entry` is the address of the export's C entry point
  (`native_entries`: `void entry(int64 begin, int64 end, int64 *ctx)`), `ctx` the address of
  its argument block (the grid, the bindings as address and length, the push constants),
  `total` its workgroups, `chunk` how many a thread claims at once.
- `state`: `[finisher, host joined, then per section: workgroups not done, then per
  dispatch: next workgroup to claim]`.

`run_plan` claims chunks with atomic adds (IREE's tile reservation), calls the entry points,
and waits at each barrier until the section's last workgroup is done (spinning, yielding the
core now and then). Every participant returns when the whole plan is done; the first to take
`finisher` completes the submission in Python (signals its fence).

Idle workers poll a *board* (`worker_wait`) for the newest plan as well as for Python
submissions, so a spinning worker joins a plan without taking the GIL, and leaves its
completion to the caller when the caller has joined (the caller is in Python next anyway).
Plans published on the board stay alive until no worker is inside the board's protocol
(`MEMBERS`), so a worker that read a plan's addresses never reads freed memory. The board also
counts its pollers (`SPINNERS`), so the publisher queues join tasks only for the cores no
poller covers.

Native plans are used on x86-64 only, the one host they were measured and tested on; others
run every submission as Python tasks.
"""

from __future__ import annotations

import platform

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ireelab.runtime.hal import native_intrinsics, spin_wait, ukernel_cache
from ireelab.runtime.hal.native_intrinsics import atomic_add as _atomic_add
from ireelab.runtime.hal.native_intrinsics import call_entry_at as _call_entry
from ireelab.runtime.hal.spin_wait import _load_acquire, _pause

# the plan loops' cached code holds spin_wait's and native_intrinsics' intrinsics: stamp it
# with the three files
ukernel_cache.track_library([__file__, spin_wait.__file__, native_intrinsics.__file__])

SUPPORTED = platform.machine().lower() in ("x86_64", "amd64")
"""Whether this host runs plans natively (else every submission uses Python tasks)."""

# plan / state layout
FINISHER = 0
HOST = 1
STATE_HEADER = 2
DISPATCH_RECORD = 4

# board layout
GENERATION = 0
PLAN_ADDRESS = 1
PLAN_LENGTH = 2
STATE_ADDRESS = 3
STATE_LENGTH = 4
MEMBERS = 5
SPINNERS = 6
BOARD_LENGTH = 8

_YIELD_EVERY = 2048
"""Barrier polls between two `sched_yield` calls (a few tens of microseconds)."""


@intrinsic
def _sched_yield(typingctx):
    # libc's sched_yield(): let another runnable thread have this core
    def codegen(context, builder, signature, args):
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.IntType(32), []), "sched_yield"
        )
        builder.call(function, [])
        return context.get_dummy_value()

    return types.void(), codegen


@intrinsic
def _store_release(typingctx, array, index, value):
    def codegen(context, builder, signature, args):
        view = context.make_array(signature.args[0])(context, builder, args[0])
        pointer = builder.gep(view.data, [args[1]])
        builder.atomic_rmw("xchg", pointer, args[2], "seq_cst")
        return context.get_dummy_value()

    return types.void(array, index, value), codegen


@intrinsic
def _int64_pointer(typingctx, address):
    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], ir.IntType(64).as_pointer())

    return types.CPointer(types.int64)(types.int64), codegen


@numba.njit(nogil=True, cache=True)
def call_entry(entry, wg_begin, wg_end, ctx):
    """Call the C entry point at address `entry` from Python, without the GIL (a numba
    call with four integers costs about two thirds of the same call through ctypes)."""
    _call_entry(entry, wg_begin, wg_end, ctx)


@numba.njit(cache=True)
def data_address(array):
    """The address of `array`'s first element (several times faster than `.ctypes.data`,
    which builds a ctypes helper object on every use)."""
    return array.ctypes.data


@numba.njit(nogil=True, cache=True)
def run_plan(plan, state):
    """Run every workgroup this thread can claim, section by section; return when the whole
    plan is done."""
    sections = plan[0]
    offset = 1
    claims = STATE_HEADER + sections
    dispatch = 0
    for section in range(sections):
        count = plan[offset]
        offset += 1
        for j in range(count):
            record = offset + DISPATCH_RECORD * j
            entry, ctx, total, chunk = (
                plan[record],
                plan[record + 1],
                plan[record + 2],
                plan[record + 3],
            )
            while True:
                begin = _atomic_add(state, claims + dispatch + j, chunk)
                if begin >= total:
                    break
                end = min(begin + chunk, total)
                _call_entry(entry, begin, end, ctx)
                _atomic_add(state, STATE_HEADER + section, begin - end)
        offset += DISPATCH_RECORD * count
        dispatch += count
        polls = 0
        while _load_acquire(state, STATE_HEADER + section) > 0:
            _pause()
            polls += 1
            if polls % _YIELD_EVERY == 0:
                _sched_yield()


@numba.njit(nogil=True, cache=True)
def worker_wait(board, events, seen, rounds, last):
    """An idle worker's wait: join plans published on `board` (natively) until `events`
    moves (0: Python work; return 1), a plan this worker must complete in Python (return 2,
    its generation in `last[0]`), or `rounds` polls pass with nothing to do (return 0)."""
    _atomic_add(board, SPINNERS, 1)
    woke = 0
    polls = 0
    while True:
        if polls >= rounds:
            # Leave the spinners, then look once more: a plan published before the count
            # was read by its publisher (who then counted this worker) is seen here.
            _atomic_add(board, SPINNERS, -1)
            if _load_acquire(board, GENERATION) == last[0]:
                return 0
            _atomic_add(board, SPINNERS, 1)
        if _load_acquire(board, GENERATION) != last[0]:
            _atomic_add(board, MEMBERS, 1)
            while True:  # a seqlock read: an odd generation is being written
                generation = _load_acquire(board, GENERATION)
                plan_address = _load_acquire(board, PLAN_ADDRESS)
                plan_length = _load_acquire(board, PLAN_LENGTH)
                state_address = _load_acquire(board, STATE_ADDRESS)
                state_length = _load_acquire(board, STATE_LENGTH)
                if generation % 2 == 0 and _load_acquire(board, GENERATION) == generation:
                    break
                _pause()
            last[0] = generation
            if plan_address != 0:
                plan = numba.carray(_int64_pointer(plan_address), plan_length)
                state = numba.carray(_int64_pointer(state_address), state_length)
                run_plan(plan, state)
                if _load_acquire(state, HOST) == 0 and _atomic_add(state, FINISHER, 1) == 0:
                    woke = 2
            _atomic_add(board, MEMBERS, -1)
            if woke:
                break
            polls = 0
            continue
        if _load_acquire(events, 0) != seen:
            woke = 1
            break
        _pause()
        polls += 1
    _atomic_add(board, SPINNERS, -1)
    return woke


@numba.njit(nogil=False, cache=True)
def publish(board, plan, state):
    """Put a plan on the board (a seqlock write: the generation is odd while it changes);
    return how many workers were inside the board's protocol (none: no plan published before
    is reachable any more) and how many were polling it (each of those joins this plan)."""
    generation = board[GENERATION]
    _store_release(board, GENERATION, generation + 1)
    _store_release(board, PLAN_ADDRESS, plan.ctypes.data)
    _store_release(board, PLAN_LENGTH, plan.size)
    _store_release(board, STATE_ADDRESS, state.ctypes.data)
    _store_release(board, STATE_LENGTH, state.size)
    _store_release(board, GENERATION, generation + 2)
    return _load_acquire(board, MEMBERS), _load_acquire(board, SPINNERS)


@numba.njit(nogil=True, cache=True)
def join(plan, state, host):
    """Run a plan from Python (a queued join task or the waiting caller); True if this thread
    must complete the submission."""
    if host:
        _store_release(state, HOST, 1)
    run_plan(plan, state)
    return _atomic_add(state, FINISHER, 1) == 0


def build(sections: list[list[tuple[int, int, int, int]]]) -> tuple[np.ndarray, np.ndarray]:
    """Plan and fresh state for sections of `(entry, ctx, total, chunk)` dispatches."""
    plan = [len(sections)]
    state = [0] * STATE_HEADER
    for section in sections:
        plan.append(len(section))
        state.append(sum(d[2] for d in section))
        for record in section:
            plan.extend(record)
    state.extend([0] * sum(len(s) for s in sections))
    return np.array(plan, np.int64), np.array(state, np.int64)
