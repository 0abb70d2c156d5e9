"""`!hal.command_buffer`: recorded dispatches, fills, copies and barriers
(IREE's `iree_hal_command_buffer_t`).

Commands between two execution barriers form a *section*: none depends on another, so a
device may run them at the same time (IREE's stream.cmd.concurrent becomes exactly that).
A binding either names a buffer or, when the buffer is null, a slot of the binding table given
at submission (`hal.device.queue.execute.indirect`), which is how IREE reuses one recorded
(memoized) command buffer for every call.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ireelab.runtime.errors import HALError
from ireelab.runtime.hal.buffer import Buffer
from ireelab.runtime.hal.executable import Executable

BindingTable = list[tuple[Buffer, int, int]]


@dataclass(frozen=True)
class BufferRef:
    """A buffer range, direct or through a binding-table slot."""

    buffer: Buffer | None
    slot: int
    offset: int
    length: int

    def resolve(self, table: BindingTable) -> np.ndarray:
        if self.buffer is not None:
            return self.buffer.bytes(self.offset, self.length)
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
        return buffer.bytes(base + self.offset, self.length)


@dataclass(frozen=True)
class Dispatch:
    executable: Executable
    ordinal: int
    workgroups: tuple[int, int, int]
    constants: tuple[int, ...]
    bindings: tuple[BufferRef, ...]

    @property
    def name(self) -> str:
        return self.executable.names[self.ordinal]

    @property
    def workgroup_total(self) -> int:
        x, y, z = self.workgroups
        return x * y * z


@dataclass(frozen=True)
class Fill:
    target: BufferRef
    pattern: int
    pattern_length: int


@dataclass(frozen=True)
class Copy:
    source: BufferRef
    target: BufferRef


Command = Dispatch | Fill | Copy


@dataclass
class CommandBuffer:
    binding_capacity: int = 0
    sections: list[list[Command]] = field(default_factory=lambda: [[]])
    finalized: bool = False

    def _record(self, command: Command) -> None:
        if self.finalized:
            raise HALError("command buffer is finalized", code="FAILED_PRECONDITION")
        self.sections[-1].append(command)

    def dispatch(self, command: Dispatch) -> None:
        if not 0 <= command.ordinal < len(command.executable.functions):
            raise HALError(f"dispatch function ordinal {command.ordinal} is out of range")
        self._record(command)

    def fill(self, command: Fill) -> None:
        self._record(command)

    def copy(self, command: Copy) -> None:
        self._record(command)

    def execution_barrier(self) -> None:
        if self.finalized:
            raise HALError("command buffer is finalized", code="FAILED_PRECONDITION")
        if self.sections[-1]:
            self.sections.append([])

    def finalize(self) -> None:
        if self.sections and not self.sections[-1]:
            self.sections.pop()
        self.finalized = True

    def __repr__(self) -> str:
        count = sum(len(s) for s in self.sections)
        return f"<hal.command_buffer {count} commands in {len(self.sections)} sections>"


def run_transfer(command: Fill | Copy, table: BindingTable) -> None:
    """Fills and copies run on the submitting thread (they are memcpy-sized)."""
    if isinstance(command, Copy):
        command.target.resolve(table)[:] = command.source.resolve(table)
        return
    target = command.target.resolve(table)
    pattern = int(command.pattern).to_bytes(8, "little", signed=command.pattern < 0)
    unit = np.frombuffer(pattern[: command.pattern_length], dtype=np.uint8)
    if target.shape[0] % command.pattern_length:
        raise HALError("fill length is not a multiple of the pattern length", "INVALID_ARGUMENT")
    target.reshape(-1, command.pattern_length)[:] = unit
