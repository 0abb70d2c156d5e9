"""Running recorded commands: one dispatch's workgroup range, a fill, a copy, or a whole
command buffer in order on the calling thread (what IREE's local-sync device and its inline
command buffer do: `iree/hal/local/inline_command_buffer.c`).

Every entry point records a trace event when a `TraceRecorder` is given; a kernel that raises
becomes a `DispatchError` naming the dispatch.
"""

from __future__ import annotations

from ireelab.runtime.errors import DispatchError
from ireelab.runtime.hal.command_buffer import BindingTable, CommandBuffer, Dispatch, run_transfer
from ireelab.runtime.hal.trace_recorder import TraceRecorder


def resolve_bindings(dispatch: Dispatch, table: BindingTable) -> list:
    """The kernel's operands after the workgroup grid (docs/internals.md, Kernels): the
    bindings as byte arrays, then the push constants."""
    return [*(binding.resolve(table) for binding in dispatch.bindings), *dispatch.constants]


def run_range(
    dispatch: Dispatch, bindings: list, begin: int, end: int, recorder: TraceRecorder | None
) -> float:
    """Run workgroups `[begin, end)` of `dispatch` on the calling thread; return the trace
    time it ended (0.0 when not recording)."""
    kernel = dispatch.executable.kernel(dispatch.ordinal)
    x, y, z = dispatch.workgroups
    if recorder is None:
        try:
            kernel(begin, end, x, y, z, *bindings)
        except Exception as err:
            raise DispatchError(dispatch.name, err) from err
        return 0.0
    start = recorder.now()
    try:
        kernel(begin, end, x, y, z, *bindings)
    except Exception as err:
        raise DispatchError(dispatch.name, err) from err
    finally:
        ended = recorder.now()
        args = {"workgroups": [begin, end], "of": dispatch.total}
        recorder.complete(dispatch.name, "dispatch", start, ended, args)
    return ended


def run_command(command, table: BindingTable, recorder: TraceRecorder | None) -> float:
    """Run one whole command (every workgroup of a dispatch) on the calling thread; return
    the trace time it ended (0.0 when not recording)."""
    if type(command) is Dispatch:
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
