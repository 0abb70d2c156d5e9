"""`!hal.command_buffer`: recorded dispatches, fills, copies and barriers
(IREE's `iree_hal_command_buffer_t`).

Commands between two execution barriers form a *section* (IREE's block processor calls it a
region): none depends on another, so a device may run them at the same time (IREE's
stream.cmd.concurrent becomes exactly that). A binding either names a buffer or, when the
buffer is null, a slot of the binding table given at submission
(`hal.device.queue.execute.indirect`), which is how IREE reuses one recorded (memoized) command
buffer for every call.

Commands are plain slotted objects. A reusable command buffer (created without the `OneShot`
mode: IREE's memoized command buffers) is recorded once; its dispatches keep their prepared
argument blocks between executions (`execution.PreparedArguments`). A one-shot one made by the
`hal` module (a `?` function's, recorded by every call) collects a key and a binding table
instead and replays the recording kept for that key (`recording_cache`).
"""

from __future__ import annotations

import numpy as np

from ireelab.runtime.errors import HALError
from ireelab.runtime.hal.buffer import Buffer
from ireelab.runtime.hal.executable import Executable

BindingTable = list[tuple[Buffer, int, int]]


class BufferRef:
    """A buffer range, direct or through a binding-table slot."""

    __slots__ = ("buffer", "slot", "offset", "length")

    def __init__(self, buffer: Buffer | None, slot: int, offset: int, length: int):
        self.buffer = buffer
        self.slot = slot
        self.offset = offset
        self.length = length

    def resolve(self, table: BindingTable) -> np.ndarray:
        buffer, start = self.locate(table)
        return buffer.storage[start : start + self.length]

    def locate(self, table: BindingTable) -> tuple[Buffer, int]:
        """`(buffer, start)`: the bytes this binding names are
        `buffer.storage[start:][:length]`."""
        if self.buffer is not None:
            return self.buffer.locate(self.offset, self.length)
        if self.slot >= len(table):
            raise HALError(
                f"binding table slot {self.slot} is out of range ({len(table)} provided)",
                code="OUT_OF_RANGE",
            )
        buffer, base, base_length = table[self.slot]
        if self.offset + self.length > base_length:
            raise HALError(
                f"binding [{self.offset}, {self.offset + self.length}) exceeds table slot "
                f"{self.slot} of {base_length} bytes",
                code="OUT_OF_RANGE",
            )
        return buffer.locate(base + self.offset, self.length)


class Dispatch:
    __slots__ = (
        "executable", "ordinal", "workgroups", "constants", "bindings", "total", "reusable",
        "prepared",
    )  # fmt: skip

    def __init__(
        self,
        executable: Executable,
        ordinal: int,
        workgroups: tuple[int, int, int],
        constants: tuple[int, ...],
        bindings: tuple[BufferRef, ...],
    ):
        self.executable = executable
        self.ordinal = ordinal
        self.workgroups = workgroups
        self.constants = constants
        self.bindings = bindings
        x, y, z = workgroups
        self.total = x * y * z
        """Workgroups to run: linear ids `[0, total)`."""
        self.reusable = False
        """Recorded in a reusable command buffer (set when recorded): worth preparing."""
        self.prepared = None
        """Its `execution.PreparedArguments`, once a reusable dispatch first runs."""

    @property
    def name(self) -> str:
        return self.executable.names[self.ordinal]

    @property
    def workgroup_total(self) -> int:
        return self.total


class Fill:
    __slots__ = ("target", "pattern", "pattern_length")
    name = "fill"

    def __init__(self, target: BufferRef, pattern: int, pattern_length: int):
        self.target = target
        self.pattern = pattern
        self.pattern_length = pattern_length


class Copy:
    __slots__ = ("source", "target")
    name = "copy"

    def __init__(self, source: BufferRef, target: BufferRef):
        self.source = source
        self.target = target


Command = Dispatch | Fill | Copy


ONE_SHOT = 0x1
"""IREE's `IREE_HAL_COMMAND_BUFFER_MODE_ONE_SHOT`: recorded for one submission."""


class CommandBuffer:
    __slots__ = (
        "binding_capacity", "sections", "finalized", "tiles", "reusable", "_units", "collected",
        "table",
    )  # fmt: skip

    def __init__(self, binding_capacity: int = 0, modes: int = ONE_SHOT):
        self.binding_capacity = binding_capacity
        self.reusable = not modes & ONE_SHOT
        self.sections: list[list[Command]] = [[]]
        self.finalized = False
        self.tiles = 0
        """The most units of work any one section has: workgroups of its dispatches plus its
        transfers (final once `finalize` ran). A command buffer whose sections hold at most one
        unit each cannot run anything in parallel."""
        self._units = 0
        """Units of the section being recorded (counted as commands are recorded: a one-shot
        command buffer is recorded and finalized by every call)."""
        self.collected: list | None = None
        """While the `hal` module collects this one-shot command buffer's key instead of
        recording it (`recording_cache`): the key's entries so far; else None."""
        self.table: BindingTable | None = None
        """The binding table a collected command buffer executes with (its bindings' buffers,
        offsets and lengths, in order); None for one recorded normally."""

    def _record(self, command: Command, units: int = 1) -> None:
        if self.finalized:
            raise HALError("command buffer is finalized", code="FAILED_PRECONDITION")
        self.sections[-1].append(command)
        self._units += units

    def dispatch(self, command: Dispatch) -> None:
        if not 0 <= command.ordinal < len(command.executable.functions):
            raise HALError(f"dispatch function ordinal {command.ordinal} is out of range")
        if self.finalized:
            raise HALError("command buffer is finalized", code="FAILED_PRECONDITION")
        command.reusable = self.reusable
        self.sections[-1].append(command)  # `_record`, inlined: recorded on every `?` call
        self._units += command.total

    def fill(self, command: Fill) -> None:
        self._record(command)

    def copy(self, command: Copy) -> None:
        self._record(command)

    def execution_barrier(self) -> None:
        if self.finalized:
            raise HALError("command buffer is finalized", code="FAILED_PRECONDITION")
        if self.sections[-1]:
            self.sections.append([])
            if self._units > self.tiles:
                self.tiles = self._units
            self._units = 0

    def finalize(self) -> None:
        if self.sections and not self.sections[-1]:
            self.sections.pop()
        if self._units > self.tiles:
            self.tiles = self._units
        self._units = 0
        self.finalized = True

    def __repr__(self) -> str:
        count = sum(len(s) for s in self.sections)
        return f"<hal.command_buffer {count} commands in {len(self.sections)} sections>"


def replaying(
    binding_capacity: int, modes: int, recording: CommandBuffer, table: BindingTable
) -> CommandBuffer:
    """The finalized command buffer a collecting one that `finalize` pointed at `recording`
    is (`recording_cache`), made without the collecting: what the `hal` module returns for a
    fused run of one-shot commands whose key was recorded before (`command_buffer_record`)."""
    command_buffer = _NEW(CommandBuffer)
    command_buffer.binding_capacity = binding_capacity
    command_buffer.reusable = not modes & ONE_SHOT
    command_buffer.sections = recording.sections
    command_buffer.finalized = True
    command_buffer.tiles = recording.tiles
    command_buffer._units = 0
    command_buffer.collected = None
    command_buffer.table = table
    return command_buffer


_NEW = object.__new__


def run_transfer(command: Fill | Copy, table: BindingTable) -> None:
    """Run a fill or a copy (memcpy-sized work, done by whichever thread holds it)."""
    if type(command) is Copy:
        command.target.resolve(table)[:] = command.source.resolve(table)
        return
    target = command.target.resolve(table)
    pattern = int(command.pattern).to_bytes(8, "little", signed=command.pattern < 0)
    unit = np.frombuffer(pattern[: command.pattern_length], dtype=np.uint8)
    if target.shape[0] % command.pattern_length:
        raise HALError("fill length is not a multiple of the pattern length", "INVALID_ARGUMENT")
    target.reshape(-1, command.pattern_length)[:] = unit
