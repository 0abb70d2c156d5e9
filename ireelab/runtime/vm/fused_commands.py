"""Finding the one-shot command buffers a block records in one straight run, for the
translator to fuse (`translate.FunctionTranslator`).

A `?` function records its command buffer on every call: `hal.command_buffer.create`, then
per dispatch an executable lookup, size arithmetic and `hal.command_buffer.dispatch`, an
`execution_barrier` after each, and `finalize`. As separate import calls that is a Python
call per command, each with its null checks, plus the collecting the `hal` module does for
its recording cache (`hal.recording_cache`). When one block holds the whole run, and nothing
in it but those commands touches the command buffer's register, the translator writes the
run as plain Python around one call to `HALModule.command_buffer_record`:

- `create`: a null device still calls the import there, which raises what it raises;
- each `dispatch`: a null executable or an export ordinal out of range raises there, as the
  import would (`hal.module.check_dispatch`); otherwise its recording key entry and its
  bindings are kept in generated locals (the block may overwrite their registers);
- each `execution_barrier`: a None entry of the key;
- `finalize`: the `record` call, given the key and the binding table as tuples, which returns
  the finalized command buffer (or, for a binding naming a slot of a caller's binding table,
  makes the separate calls after all).

Everything else in between runs where it stood. Only the generated Python changes: the
bytecode, and so the printed IR and dumps, are the compiler's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ireelab.runtime.hal.command_buffer import ONE_SHOT
from ireelab.runtime.vm.decoder import Instruction
from ireelab.schemas.vm_opcodes import IMPORT_BIT

__all__ = ["ONE_SHOT", "Chain", "find_chains"]

CREATE = "hal.command_buffer.create"
DISPATCH = "hal.command_buffer.dispatch"
BARRIER = "hal.command_buffer.execution_barrier"
FINALIZE = "hal.command_buffer.finalize"

DISPATCH_SEGMENTS = 9
"""`dispatch`'s operand groups: command buffer, executable, ordinal, x, y, z, flags, then the
push constants (a list) and the bindings (5-tuples: ordinal, slot, buffer, offset, length)."""


@dataclass
class Chain:
    """One run: the command buffer's register and the role of each instruction of the block
    that belongs to it (by index: "create", "dispatch", "barrier", "finalize")."""

    register: int
    roles: dict[int, str]
    active: bool = True
    """False once the translator found it cannot fuse the run (its mode or capacity is not a
    constant): every instruction is then written as usual."""
    capacity: str = "0"
    modes: str = "0"
    key: list[str] = field(default_factory=list)
    """The generated names (or `None`) of the run's recording key entries, in order."""
    table: list[str] = field(default_factory=list)
    """Per dispatch, the generated name of its bindings' (buffer, offset, length) tuple."""
    slots: list[str] = field(default_factory=list)
    """Per dispatch, the generated name of its bindings' (ordinal, slot) tuple."""
    nullable: bool = False
    """Whether a binding's buffer may be null (a register the translator knows nothing of)."""
    previous: str = "create"
    """The role of the run's command written last (a barrier after no dispatch is left out,
    as the `hal` module leaves out an empty section)."""


def find_chains(instructions: list[Instruction], import_names: list[str]) -> dict[int, Chain]:
    """Instruction index -> the chain it belongs to, for every run in the block."""
    chains: dict[int, Chain] = {}
    for index, ins in enumerate(instructions):
        if index in chains or _import(ins, import_names) != CREATE:
            continue
        chain = _chain_from(instructions, index, import_names)
        if chain is not None:
            chains.update(dict.fromkeys(chain.roles, chain))
    return chains


def _chain_from(instructions: list[Instruction], start: int, names: list[str]) -> Chain | None:
    """The run starting at the `create` at `start`, or None when the block does anything
    else with its command buffer before finalizing it (or does not finalize it)."""
    arguments, results = _registers(instructions[start])
    if len(arguments) != 5 or len(results) != 1:
        return None
    (register,) = results
    roles = {start: "create"}
    for index in range(start + 1, len(instructions)):
        ins = instructions[index]
        role = _role(ins, names, register)
        if role == "finalize":
            roles[index] = role
            return Chain(register, roles)
        if role is not None:
            roles[index] = role
        elif register in _integers(ins.operands):  # anything else reading or writing it
            return None
    return None


def _role(ins: Instruction, names: list[str], register: int) -> str | None:
    """The instruction's role in the run of `register`'s command buffer, or None."""
    name = _import(ins, names)
    if name not in (DISPATCH, BARRIER, FINALIZE):
        return None
    arguments, results = _registers(ins)
    if results or not arguments or arguments[0] != register or register in arguments[1:]:
        return None
    if name == FINALIZE:
        return "finalize" if len(arguments) == 1 else None
    if name == BARRIER:
        return "barrier" if ins.name == "call" and len(arguments) == 4 else None
    return "dispatch" if _dispatch_segments(ins) else None


def _dispatch_segments(ins: Instruction) -> bool:
    """Whether a `dispatch` call's operands come in the groups `DISPATCH_SEGMENTS` names."""
    if ins.name != "call.variadic":
        return False
    segments = ins.operands[1]
    if len(segments) != DISPATCH_SEGMENTS:
        return False
    scalars, constants, bindings = segments[:7], segments[7], segments[8]
    return (
        all(size < 0 for size, _ in scalars)
        and constants[0] >= 0
        and constants[1] == 1
        and bindings[0] >= 0
        and bindings[1] == 5
    )


def _import(ins: Instruction, names: list[str]) -> str | None:
    """The name of the import a call instruction calls, else None."""
    if ins.name not in ("call", "call.variadic"):
        return None
    callee = ins.operands[0]
    if not callee & IMPORT_BIT:
        return None
    index = callee & ~IMPORT_BIT
    return names[index] if index < len(names) else None


def _registers(ins: Instruction) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(argument registers, result registers) of a call."""
    if ins.name == "call":
        return ins.operands[1], ins.operands[2]
    return ins.operands[2], ins.operands[3]


def _integers(value) -> set[int]:
    """Every integer in an instruction's operands (registers among them, and immediates: a
    run is only ever refused for an immediate that equals its register, never fused wrongly)."""
    if type(value) is int:
        return {value}
    if isinstance(value, tuple):
        return set().union(*(_integers(v) for v in value))
    return set()
