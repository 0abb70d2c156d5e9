"""VM bytecode: every `vm.func` as register-allocated instructions (IREE's
`Target/Bytecode/BytecodeEncoder.cpp`, with ireelab's own, simpler encoding).

A function's bytecode is

    u16 i32_registers, u16 i64_registers, u16 ref_registers, u16 block_count
    u16 argument_count, u16 argument_register[argument_count]
    u32 block_offset[block_count]          (from the start of the instruction stream)
    instructions

and an instruction is `u8 opcode` followed by its operands as laid out in
`ireelab.schemas.vm_opcodes.LAYOUTS` (results first, then operands). All integers are
little-endian. Registers are u16 `bank << 14 | index` (banks: 0 i32, 1 i64, 2 ref), so a
register list can mix banks (call arguments, branch moves). A branch target carries the block
ordinal and the parallel moves that pass its operands into the block's argument registers,
as IREE's `vm.br ^bb1(%r1->%r2, ...)` shows in `iree-dump-module`. Callees are function
ordinals, or import ordinals with bit 31 set. Globals are ordinals into the module's i32, i64
and ref global tables; `vm.const.ref.rodata` names a rodata segment ordinal.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerAttr, TupleType
from xdsl.ir import Block, Operation, SSAValue

from ireelab.compiler.vm.register_allocation import Allocation, allocate_registers
from ireelab.diagnostics import CompileError
from ireelab.dialects import vm
from ireelab.schemas.vm_opcodes import IMPORT_BIT, LAYOUTS, OPCODES


@dataclass(frozen=True)
class SymbolOrdinals:
    """Module-level ordinals the instructions refer to."""

    functions: dict[str, int]
    imports: dict[str, int]
    rodata: dict[str, int]
    globals: dict[str, int]
    """Global name -> ordinal within its own table (i32, i64 or ref)."""


@dataclass(frozen=True)
class EncodedFunction:
    name: str
    code: bytes
    register_counts: tuple[int, int, int]
    block_count: int


class _Writer:
    def __init__(self, allocation: Allocation, symbols: SymbolOrdinals, blocks: dict[Block, int]):
        self.out = bytearray()
        self.allocation = allocation
        self.symbols = symbols
        self.blocks = blocks

    def u8(self, v: int) -> None:
        self.out += struct.pack("<B", v)

    def u16(self, v: int) -> None:
        self.out += struct.pack("<H", v)

    def u32(self, v: int) -> None:
        self.out += struct.pack("<I", v)

    def reg(self, value: SSAValue) -> None:
        self.u16(self.allocation.registers[value])

    def regs(self, values) -> None:
        values = list(values)
        self.u16(len(values))
        for value in values:
            self.reg(value)

    def target(self, block: Block, operands) -> None:
        self.u32(self.blocks[block])
        moves = list(zip(operands, block.args, strict=True))
        self.u16(len(moves))
        for source, dest in moves:
            self.reg(source)
            self.reg(dest)

    def symbol(self, table: dict[str, int], name: str, op: Operation, what: str) -> int:
        if name not in table:
            raise CompileError.at(op, f"{op.name} refers to unknown {what} @{name}", "vm")
        return table[name]


def _const_value(op: Operation) -> int:
    value = op.properties["value"]
    assert isinstance(value, IntegerAttr)
    return value.value.data


def _callee(w: _Writer, op: Operation) -> int:
    name = op.callee.root_reference.data
    if name in w.symbols.imports:
        return w.symbols.imports[name] | IMPORT_BIT
    return w.symbol(w.symbols.functions, name, op, "function")


def _encode_op(w: _Writer, op: Operation) -> None:
    short = op.name.removeprefix("vm.")
    if short not in OPCODES:
        raise CompileError.at(op, f"'{op.name}' has no VM bytecode encoding", "vm")
    w.u8(OPCODES[short])
    if isinstance(op, vm.ConstI32Op):
        w.reg(op.result)
        w.out += struct.pack("<i", _const_value(op))
    elif isinstance(op, vm.ConstI64Op):
        w.reg(op.result)
        w.out += struct.pack("<q", _const_value(op))
    elif isinstance(op, vm.ConstF32Op):  # the f32's bits as the i32 immediate
        w.reg(op.result)
        w.out += struct.pack("<f", op.value.value.data)
    elif isinstance(op, vm.ConstRefRodataOp):
        w.reg(op.result)
        w.u32(w.symbol(w.symbols.rodata, op.rodata.root_reference.data, op, "rodata"))
    elif short.startswith("global.load."):
        w.reg(op.results[0])
        w.u32(
            w.symbol(w.symbols.globals, op.properties["global"].root_reference.data, op, "global")
        )
    elif short.startswith("global.store."):
        w.reg(op.operands[0])
        w.u32(
            w.symbol(w.symbols.globals, op.properties["global"].root_reference.data, op, "global")
        )
    elif isinstance(op, vm.CallOp):
        w.u32(_callee(w, op))
        w.regs(op.args)
        w.regs(op.res)
    elif isinstance(op, vm.CallVariadicOp | vm.CallVariadicYieldableOp):
        w.u32(_callee(w, op))
        sizes = [int(s) for s in op.segment_sizes.get_values()]
        types = list(op.segment_types.data)
        if len(types) != len(sizes):
            raise CompileError.at(op, "segment_sizes and segment_types differ in length", "vm")
        w.u16(len(sizes))
        for size, seg_type in zip(sizes, types, strict=True):
            width = len(seg_type.types.data) if isinstance(seg_type, TupleType) else 1
            w.out += struct.pack("<hB", size, width)
        w.regs(op.args)
        if isinstance(op, vm.CallVariadicOp):
            w.regs(op.res)
        else:
            w.u32(w.blocks[op.dest])
            w.regs(op.dest.args)
    elif isinstance(op, vm.BranchOp):
        w.target(op.dest, op.dest_operands)
    elif isinstance(op, vm.CondBranchOp):
        w.reg(op.condition)
        w.target(op.true_dest, op.true_operands)
        w.target(op.false_dest, op.false_operands)
    elif isinstance(op, vm.ReturnOp | vm.DiscardRefsOp):
        w.regs(op.operands)
    elif isinstance(op, vm.FailOp):
        w.reg(op.status)
        message = op.message.data.encode("utf-8")
        w.u32(len(message))
        w.out += message
    else:
        _encode_plain(w, op, LAYOUTS[short])


def _encode_plain(w: _Writer, op: Operation, layout: str) -> None:
    """Ops whose layout is registers only: results first, then operands, in order."""
    values = list(op.results) + list(op.operands)
    if layout != "r" * len(values):
        raise CompileError.at(op, f"'{op.name}' does not match its encoding '{layout}'", "vm")
    for value in values:
        w.reg(value)


def encode_function(func: vm.FuncOp, symbols: SymbolOrdinals) -> EncodedFunction:
    if not func.body.blocks:
        raise CompileError.at(func, f"vm.func @{func.sym_name.data} has no body", "vm")
    allocation = allocate_registers(func)
    blocks = {block: i for i, block in enumerate(func.body.blocks)}
    w = _Writer(allocation, symbols, blocks)
    offsets: list[int] = []
    for block in func.body.blocks:
        offsets.append(len(w.out))
        for op in block.ops:
            _encode_op(w, op)
    entry_args = [allocation.registers[a] for a in func.body.blocks.first.args]
    header = struct.pack("<4H", *allocation.counts, len(offsets))
    header += struct.pack(f"<H{len(entry_args)}H", len(entry_args), *entry_args)
    header += struct.pack(f"<{len(offsets)}I", *offsets)
    return EncodedFunction(
        func.sym_name.data, header + bytes(w.out), tuple(allocation.counts), len(offsets)
    )
