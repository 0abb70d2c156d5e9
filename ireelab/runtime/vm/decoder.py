"""Decode a function's bytecode (encoding: `ireelab.compiler.vm.bytecode`) into blocks of
`(name, operands)` instructions, checking every byte it reads.

Used by the interpreter (once per module and device, so calls never decode) and by
`ireelab-dump-module`'s disassembly. Malformed bytecode raises `ModuleFileError`.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from ireelab.runtime.errors import ModuleFileError
from ireelab.schemas.vm_opcodes import BANK_SHIFT, INDEX_MASK, LAYOUTS, NAMES


@dataclass(frozen=True)
class Instruction:
    name: str
    """The vm op name without `vm.` (`call.variadic`)."""
    operands: tuple
    """Per layout letter: r -> int, R -> tuple, S -> ((size, width), ...), i/I/o/c -> int, s -> str,
    B -> (block, ((source, dest), ...))."""


@dataclass(frozen=True)
class DecodedFunction:
    name: str
    registers: tuple[int, int, int]
    arguments: tuple[int, ...]
    """Registers receiving the arguments, in order."""
    blocks: list[list[Instruction]]


class _Reader:
    def __init__(self, data: bytes, function: str):
        self.data = data
        self.pos = 0
        self.function = function

    def take(self, fmt: str):
        size = struct.calcsize(fmt)
        if self.pos + size > len(self.data):
            raise ModuleFileError(f"bytecode of function '{self.function}' is truncated")
        values = struct.unpack_from(fmt, self.data, self.pos)
        self.pos += size
        return values


def _check_register(reader: _Reader, reg: int, counts: tuple[int, int, int]) -> int:
    bank, index = reg >> BANK_SHIFT, reg & INDEX_MASK
    if bank > 2 or index >= counts[bank]:
        raise ModuleFileError(
            f"bytecode of function '{reader.function}' uses register {reg:#x} out of range"
        )
    return reg


def _operand(reader: _Reader, letter: str, counts, block_count: int):
    if letter == "r":
        return _check_register(reader, reader.take("<H")[0], counts)
    if letter == "R":
        (count,) = reader.take("<H")
        return tuple(_check_register(reader, r, counts) for r in reader.take(f"<{count}H"))
    if letter == "i":
        return reader.take("<i")[0]
    if letter == "I":
        return reader.take("<q")[0]
    if letter in "oc":
        return reader.take("<I")[0]
    if letter == "S":
        (count,) = reader.take("<H")
        pairs = reader.take("<" + "hB" * count)
        return tuple(zip(pairs[0::2], pairs[1::2], strict=True))
    if letter == "B":
        block, count = reader.take("<IH")
        if block >= block_count:
            raise ModuleFileError(
                f"bytecode of function '{reader.function}' branches to a missing block"
            )
        flat = [_check_register(reader, r, counts) for r in reader.take(f"<{2 * count}H")]
        return block, tuple(zip(flat[0::2], flat[1::2], strict=True))
    if letter == "s":
        (length,) = reader.take("<I")
        raw = reader.take(f"<{length}s")[0]
        return raw.decode("utf-8", "replace")
    raise AssertionError(letter)


def decode_function(
    name: str, code: bytes, registers: tuple[int, int, int], block_count: int
) -> DecodedFunction:
    header = _Reader(code, name)
    counts = header.take("<4H")
    if tuple(counts[:3]) != tuple(registers) or counts[3] != block_count:
        raise ModuleFileError(
            f"bytecode header of function '{name}' disagrees with its table entry"
        )
    (arg_count,) = header.take("<H")
    arguments = tuple(_check_register(header, r, registers) for r in header.take(f"<{arg_count}H"))
    offsets = list(header.take(f"<{block_count}I"))
    body = code[header.pos :]
    bounds = offsets + [len(body)]
    blocks: list[list[Instruction]] = []
    for start, end in zip(bounds, bounds[1:], strict=False):
        if not 0 <= start <= end <= len(body):
            raise ModuleFileError(f"bytecode of function '{name}' has a bad block offset")
        reader = _Reader(body[:end], name)
        reader.pos = start
        instructions: list[Instruction] = []
        while reader.pos < end:
            (opcode,) = reader.take("<B")
            if opcode >= len(NAMES):
                raise ModuleFileError(f"bytecode of function '{name}' has unknown opcode {opcode}")
            op_name = NAMES[opcode]
            operands = tuple(_operand(reader, c, registers, block_count) for c in LAYOUTS[op_name])
            instructions.append(Instruction(op_name, operands))
        if not instructions:
            raise ModuleFileError(f"bytecode of function '{name}' has an empty block")
        blocks.append(instructions)
    return DecodedFunction(name, registers, arguments, blocks)
