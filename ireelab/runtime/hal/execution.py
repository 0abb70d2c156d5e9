"""Running recorded commands: one dispatch's workgroup range, a fill, a copy, or a whole
command buffer in order on the calling thread (what IREE's local-sync device and its inline
command buffer do: `iree/hal/local/inline_command_buffer.c`).

Every entry point records a trace event when a `TraceRecorder` is given; a kernel that raises
(or whose C entry point reported an exception: `kernel_faults`) becomes a `DispatchError`
naming the dispatch.
"""

from __future__ import annotations

import threading

import numpy as np

from ireelab.runtime.errors import DispatchError
from ireelab.runtime.hal import kernel_faults
from ireelab.runtime.hal.command_buffer import BindingTable, CommandBuffer, Dispatch, run_transfer
from ireelab.runtime.hal.native_tasks import data_address
from ireelab.runtime.hal.trace_recorder import TraceRecorder


class ArgumentBlock:
    """A dispatch's operands for its C entry point (`native_entries`): the int64 block
    `[grid x, y, z, then per binding: address, length, then the push constants, then the
    lifted constants of a generic kernel (`generic_kernels`)]`, and the
    storages those addresses point into (kept alive with it)."""

    __slots__ = ("array", "address", "storages")

    def __init__(self, values: list[int], storages: list):
        self.array = np.array(values, np.int64)
        self.address = data_address(self.array)
        self.storages = storages


def argument_values(dispatch: Dispatch, table: BindingTable, storages: list) -> list[int]:
    """The argument block values of `dispatch` (see `ArgumentBlock`); the storage arrays the
    addresses point into are appended to `storages`."""
    values = list(dispatch.workgroups)
    for binding in dispatch.bindings:
        buffer, start = binding.locate(table)
        storages.append(buffer.storage)
        values += (buffer.address() + start, binding.length)
    return values + block_tail(dispatch)


def block_tail(dispatch: Dispatch) -> list[int]:
    """What follows the bindings in the block: the push constants, then a generic kernel's
    sizes (`generic_kernels`; a specialised kernel ignores them)."""
    lifted = dispatch.executable.lifted
    return [*dispatch.constants, *lifted[dispatch.ordinal]] if lifted else [*dispatch.constants]


class PreparedArguments:
    """The argument block of a dispatch in a reusable command buffer, kept from one execution
    to the next: the grid, the addresses of its direct bindings (constants), the push
    constants and a generic kernel's sizes are written once; an execution writes only the
    addresses of the bindings it takes from the binding table. One execution at a time uses
    the block (`lock`); a concurrent one builds its own (`resolve_bindings`)."""

    __slots__ = ("block", "slots", "lock")

    def __init__(self, dispatch: Dispatch):
        values = list(dispatch.workgroups)
        storages: list = []
        self.slots: list[tuple[int, object]] = []
        """(index in the block, binding) of each binding-table binding."""
        for binding in dispatch.bindings:
            if binding.buffer is None:
                self.slots.append((len(values), binding))
                values += (0, binding.length)
                continue
            buffer, start = binding.locate([])
            storages.append(buffer.storage)
            values += (buffer.address() + start, binding.length)
        self.block = ArgumentBlock(values + block_tail(dispatch), storages)
        self.lock = threading.Lock()

    def fill(self, table: BindingTable) -> ArgumentBlock:
        """The block with this execution's binding-table addresses written in (the range
        checks of `BufferRef.locate`, inlined: this runs on every call)."""
        array = self.block.array
        for index, binding in self.slots:
            slot, offset, length = binding.slot, binding.offset, binding.length
            if slot >= len(table):
                binding.locate(table)  # raises the range error
            buffer, base, base_length = table[slot]
            start = base + offset
            if (
                offset + length > base_length
                or start < 0
                or length < 0
                or start + length > buffer.length
            ):
                binding.locate(table)  # raises the range error
            array[index] = buffer.address() + buffer.offset + start
        return self.block


class OneShotBlock:
    """The argument block of a one-shot dispatch, kept for the next one-shot dispatch with the
    same export, grid, push constants and binding count (the sizes a `?` program computes per
    call: its next call at the same sizes records the same dispatch again). Everything but the
    bindings' addresses and lengths is written once; `fill` writes those for the dispatch
    being run. A command buffer re-recorded on every call then executes the way a memoized
    one does (`PreparedArguments`); what the dispatch binds is still read per execution, so
    a different buffer, offset or length is never missed. One execution at a time uses a block
    (`lock`); a concurrent one builds its own (`resolve_bindings`). (A one-shot command buffer
    the `hal` module makes replays a kept recording instead, `recording_cache`; these blocks
    serve the rest: one recorded normally because it binds a caller's table slot, or made
    directly.)"""

    __slots__ = ("block", "lock")

    def __init__(self, dispatch: Dispatch):
        values = [*dispatch.workgroups, *[0, 0] * len(dispatch.bindings)]
        self.block = ArgumentBlock(values + block_tail(dispatch), [])
        self.lock = threading.Lock()

    def fill(self, dispatch: Dispatch, table: BindingTable) -> ArgumentBlock:
        array = self.block.array
        index = 3
        for binding in dispatch.bindings:
            buffer, offset, length = binding.buffer, binding.offset, binding.length
            if buffer is None or offset < 0 or length < 0 or offset + length > buffer.length:
                buffer, start = binding.locate(table)  # a table slot, or raises the range error
                array[index] = buffer.address() + start
            else:  # `BufferRef.locate` of a direct binding, inlined
                array[index] = buffer.address() + buffer.offset + offset
            array[index + 1] = length
            index += 2
        return self.block


ONE_SHOT_SIZES = 8
"""Sizes an executable keeps one-shot argument blocks for (a small LRU per executable: a
program called at more sizes than this in turn builds blocks again, as before)."""


def one_shot_block(dispatch: Dispatch) -> OneShotBlock | None:
    """The kept block for `dispatch` (made on first use), locked for this execution; None
    when another execution holds it."""
    kept = dispatch.executable.one_shot_blocks
    key = (dispatch.ordinal, dispatch.workgroups, dispatch.constants, len(dispatch.bindings))
    block = kept.pop(key, None)  # popped and put back: the most recently used comes last
    if block is None:
        block = OneShotBlock(dispatch)
        while len(kept) >= ONE_SHOT_SIZES:
            try:  # the least recently used; another thread may be changing the dict
                kept.pop(next(iter(kept)), None)
            except (RuntimeError, StopIteration):
                break
    kept[key] = block
    return block if block.lock.acquire(False) else None


def prepare(dispatch: Dispatch) -> PreparedArguments | None:
    """The dispatch's kept argument block, made on its first execution; None when the
    dispatch is one-shot or its executable has no C entry points."""
    if dispatch.prepared is None and dispatch.reusable:
        if dispatch.executable.native_entries() is None:
            dispatch.reusable = False
        else:
            dispatch.prepared = PreparedArguments(dispatch)
    return dispatch.prepared


def resolve_bindings(dispatch: Dispatch, table: BindingTable):
    """The kernel's operands after the workgroup grid (docs/internals.md, Kernels): an
    `ArgumentBlock` when the executable has C entry points, else the bindings as byte arrays
    followed by the push constants."""
    if dispatch.executable.native_entries() is not None:
        storages: list = []
        return ArgumentBlock(argument_values(dispatch, table, storages), storages)
    return [*(binding.resolve(table) for binding in dispatch.bindings), *dispatch.constants]


def run_range(
    dispatch: Dispatch, bindings, begin: int, end: int, recorder: TraceRecorder | None
) -> float:
    """Run workgroups `[begin, end)` of `dispatch` on the calling thread; return the trace
    time it ended (0.0 when not recording)."""
    kernel = dispatch.executable.kernel(dispatch.ordinal)
    if type(bindings) is ArgumentBlock:
        operands = (begin, end, bindings.address)
    else:
        operands = (begin, end, *dispatch.workgroups, *bindings)
    if recorder is None:
        try:
            kernel(*operands)
        except Exception as err:
            raise DispatchError(dispatch.name, err) from err
        fault = kernel_faults.take()
        if fault is not None:
            raise DispatchError(dispatch.name, fault)
        return 0.0
    start = recorder.now()
    try:
        kernel(*operands)
        _raise_fault(dispatch)
    except DispatchError:
        raise
    except Exception as err:
        raise DispatchError(dispatch.name, err) from err
    finally:
        ended = recorder.now()
        args = {"workgroups": [begin, end], "of": dispatch.total}
        recorder.complete(dispatch.name, "dispatch", start, ended, args)
    return ended


def _raise_fault(dispatch: Dispatch) -> None:
    """Fail the dispatch if its kernel's C entry point reported an exception
    (`kernel_faults`)."""
    fault = kernel_faults.take()
    if fault is not None:
        raise DispatchError(dispatch.name, fault)


def run_command(command, table: BindingTable, recorder: TraceRecorder | None) -> float:
    """Run one whole command (every workgroup of a dispatch) on the calling thread; return
    the trace time it ended (0.0 when not recording)."""
    if type(command) is Dispatch:
        prepared = command.prepared or (prepare(command) if command.reusable else None)
        # native_entries() swaps in specialised kernels once compiled; the kept block is the C
        # entries' ABI, so a call whose executable has none now takes the Python path
        if (
            prepared is not None
            and command.executable.native_entries() is not None
            and prepared.lock.acquire(False)
        ):
            try:
                return run_range(command, prepared.fill(table), 0, command.total, recorder)
            finally:
                prepared.lock.release()
        if prepared is None and command.executable.native_entries() is not None:
            kept = one_shot_block(command)
            if kept is not None:
                try:
                    return run_range(command, kept.fill(command, table), 0, command.total, recorder)
                finally:
                    kept.lock.release()
        return run_range(command, resolve_bindings(command, table), 0, command.total, recorder)
    if recorder is None:
        run_transfer(command, table)
        return 0.0
    start = recorder.now()
    try:
        run_transfer(command, table)
    finally:
        ended = recorder.now()
        recorder.complete(command.name, "transfer", start, ended)
    return ended


def run_inline(
    command_buffer: CommandBuffer, table: BindingTable, recorder: TraceRecorder | None
) -> float:
    """Every section in order, every command of a section one after the other; return the
    trace time the last one ended (0.0 when not recording or empty)."""
    ended = 0.0
    for section in command_buffer.sections:
        for command in section:
            ended = run_command(command, table, recorder)
    return ended
