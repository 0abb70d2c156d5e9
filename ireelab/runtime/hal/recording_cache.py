"""Replaying a one-shot command buffer recorded before (the runtime side of what IREE's
memoization does in the compiler, and of its binding tables: `iree_hal_buffer_binding_table_t`).

A `?` function records its one-shot command buffer on every call, because its workgroup
counts, push constants and binding lengths depend on the sizes it reads (IREE's memoize rule
keeps such a region inline). Recorded at the same sizes, two calls' command buffers differ only
in the buffers they bind. So a one-shot command buffer made by the `hal` module is not recorded
into `Dispatch` objects at once: it *collects* a key (per command: the executable, export,
workgroup counts, push constants and binding lengths; per barrier a marker) and a binding
table (per binding, in order: buffer, offset, length). `finalize` looks the key up in the
context's `RecordingCache`; the recording found (or, on a miss, made and kept) is a reusable
command buffer whose every binding reads its own slot of that table, as a memoized command
buffer run through `hal.device.queue.execute.indirect` does. Its dispatches keep their prepared
argument blocks (`execution.PreparedArguments`) from one call to the next, and the range checks
of each binding still run on every execution against the buffer of this call, so a
reallocated buffer, another offset or a short buffer is never missed.

Anything the key does not describe (a binding or fill that names a slot of a caller's binding
table) materialises what was collected as ordinary commands, and the command buffer records
normally from then on.
"""

from __future__ import annotations

from ireelab.runtime.hal.command_buffer import BufferRef, CommandBuffer, Copy, Dispatch, Fill

BARRIER = None
"""The key entry of an execution barrier."""

RECORDINGS = 32
"""Recordings a context keeps (the oldest dropped first): a program called at more distinct
sizes than this in turn records again, as without the cache."""


class RecordingCache:
    """The recordings of one context, by key; `hits` and `misses` count lookups."""

    __slots__ = ("recordings", "hits", "misses")

    def __init__(self):
        self.recordings: dict[tuple, CommandBuffer] = {}
        self.hits = 0
        self.misses = 0

    def finalize(self, command_buffer: CommandBuffer) -> None:
        """Finalize a collecting command buffer: point it at the recording of its key."""
        key = tuple(command_buffer.collected)
        command_buffer.collected = None
        recordings = self.recordings
        recording = recordings.get(key)
        if recording is None:
            self.misses += 1
            recording = record(key, len(command_buffer.table))
            while len(recordings) >= RECORDINGS:
                try:  # the oldest; another thread may be changing the dict
                    recordings.pop(next(iter(recordings)), None)
                except (RuntimeError, StopIteration):
                    break
            recordings[key] = recording
        else:
            self.hits += 1
        command_buffer.sections = recording.sections
        command_buffer.tiles = recording.tiles
        command_buffer.finalized = True


def record(key: tuple, slots: int) -> CommandBuffer:
    """The reusable command buffer a key describes, binding table slot `i` for the `i`-th
    binding collected."""
    recording = CommandBuffer(slots, modes=0)
    counter = iter(range(slots))
    _replay(recording, key, lambda length: BufferRef(None, next(counter), 0, length))
    recording.finalize()
    return recording


def materialize(command_buffer: CommandBuffer) -> None:
    """Record what a collecting command buffer collected as ordinary commands on their own
    buffers, and let it record normally from now on."""
    key, table = command_buffer.collected, iter(command_buffer.table)
    command_buffer.collected = command_buffer.table = None

    def direct(length: int) -> BufferRef:
        buffer, offset, _ = next(table)
        return BufferRef(buffer, 0, offset, length)

    _replay(command_buffer, key, direct)


def _replay(command_buffer: CommandBuffer, key, ref) -> None:
    """Record the commands of `key` into `command_buffer`; `ref(length)` is the reference of
    the next binding collected."""
    for entry in key:
        if entry is BARRIER:
            command_buffer.execution_barrier()
        elif entry[0] == "fill":
            _, pattern, pattern_length, length = entry
            command_buffer.fill(Fill(ref(length), pattern, pattern_length))
        elif entry[0] == "copy":
            source = ref(entry[1])
            command_buffer.copy(Copy(source, ref(entry[1])))
        else:
            executable, ordinal, x, y, z, constants, lengths = entry
            bound = tuple([ref(n) for n in lengths])
            command_buffer.dispatch(Dispatch(executable, ordinal, (x, y, z), constants, bound))
