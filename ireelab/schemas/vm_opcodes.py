"""The VM's instruction set: opcode numbers and operand layouts, shared by the encoder
(`ireelab.compiler.vm.bytecode`) and the decoder (`ireelab.runtime.vm.decoder`).

IREE's bytecode op table (`iree/vm/bytecode/utils/generated/op_table.h`) is generated from the
VM dialect's definitions, and the compiler's encoder and the runtime's decoder both build on it;
here the table lives below both, in `ireelab.schemas`, so the compiler never imports the runtime.
The encoding itself is described in `ireelab.compiler.vm.bytecode`.

Operand layout letters:

    r  register (u16: bank << 14 | index; banks 0 i32 (and f32), 1 i64, 2 ref)
    R  register list (u16 count, then registers)
    i  i32 immediate (4 bytes, little-endian, signed)
    I  i64 immediate (8 bytes, little-endian, signed)
    o  ordinal (u32: global slot, rodata segment)
    c  callee (u32: bit 31 set for an import, else an internal function ordinal)
    S  segments (u16 count, then per argument: i16 size, -1 for a non-variadic argument,
       and u8 registers per element, >1 for tuple elements)
    B  branch target (u32 block ordinal, u16 move count, then (source, destination) registers)
    s  string (u32 byte length, then UTF-8)
"""

from __future__ import annotations

BANK_I32, BANK_I64, BANK_REF = 0, 1, 2
BANK_SHIFT = 14
INDEX_MASK = (1 << BANK_SHIFT) - 1
IMPORT_BIT = 1 << 31

INT_BINARY = [
    f"{op}.{w}{sign}"
    for w in ("i32", "i64")
    for op, sign in (
        ("add", ""), ("sub", ""), ("mul", ""), ("div", ".s"), ("div", ".u"), ("rem", ".s"),
        ("rem", ".u"), ("and", ""), ("or", ""), ("xor", ""), ("shl", ""), ("shr", ".s"),
        ("shr", ".u"), ("min", ".s"), ("min", ".u"), ("max", ".s"), ("max", ".u"),
    )
]  # fmt: skip
"""The integer binary ops, by their mnemonic without `vm.` (each `rrr`)."""
INT_COMPARE = [
    f"cmp.{op}.{w}{sign}"
    for w in ("i32", "i64")
    for op, sign in (
        ("eq", ""), ("ne", ""), ("lt", ".s"), ("lt", ".u"), ("lte", ".s"), ("lte", ".u"),
        ("gt", ".s"), ("gt", ".u"), ("gte", ".s"), ("gte", ".u"),
    )
] + ["cmp.eq.ref", "cmp.ne.ref"]  # fmt: skip
"""The compares, by their mnemonic without `vm.` (each `rrr`)."""

FLOAT_COMPARE = [f"cmp.{op}.f32.{kind}" for op in ("eq", "ne", "lt", "lte") for kind in ("o", "u")]
"""EXT_F32's ordered / unordered compares, by their mnemonic without `vm.` (each `rrr`)."""

FLOAT_UNARY = [
    "abs.f32", "neg.f32", "ceil.f32", "floor.f32", "round.f32", "round.f32.even", "sqrt.f32",
]  # fmt: skip
"""EXT_F32's unary rounding and sign ops, by their mnemonic without `vm.` (each `rr`)."""

LAYOUTS: dict[str, str] = {
    "const.i32": "ri",
    "const.i64": "rI",
    "const.i32.zero": "r",
    "const.i64.zero": "r",
    "const.ref.zero": "r",
    "const.ref.rodata": "ro",
    "global.load.i32": "ro",
    "global.load.i64": "ro",
    "global.load.ref": "ro",
    "global.store.i32": "ro",
    "global.store.i64": "ro",
    "global.store.ref": "ro",
    **{name: "rrr" for name in INT_BINARY},
    **{name: "rrr" for name in INT_COMPARE},
    "cmp.nz.i32": "rr",
    "cmp.nz.i64": "rr",
    "cmp.nz.ref": "rr",
    "select.i32": "rrrr",
    "select.i64": "rrrr",
    "select.ref": "rrrr",
    "ext.i32.i64.s": "rr",
    "ext.i32.i64.u": "rr",
    "trunc.i64.i32": "rr",
    "ext.i8.i32.s": "rr",
    "ext.i8.i32.u": "rr",
    "ext.i16.i32.s": "rr",
    "ext.i16.i32.u": "rr",
    "trunc.i32.i8": "rr",
    "trunc.i32.i16": "rr",
    "call": "cRR",
    "call.variadic": "cSRR",
    "call.variadic.yieldable": "cSRoR",  # o: the block receiving the results (R)
    "br": "B",
    "cond_br": "rBB",
    "return": "R",
    "fail": "rs",
    "discard.refs": "R",
    # EXT_F32 (scalar f32 arguments and results); f32 values live in i32 registers.
    "add.f32": "rrr",
    "sub.f32": "rrr",
    "mul.f32": "rrr",
    "div.f32": "rrr",
    "bitcast.f32.i32": "rr",
    "bitcast.i32.f32": "rr",
    # host f32 math on values read back from tensors (ONNX Resize's scales): the constant's
    # i32 immediate holds its bits
    "const.f32": "ri",
    **{name: "rr" for name in FLOAT_UNARY},
    # integer -> f32 conversions (host `arith.sitofp` / `uitofp`, ONNX TfIdf's counts)
    "cast.si32.f32": "rr",
    "cast.ui32.f32": "rr",
    "cast.si64.f32": "rr",
    "cast.ui64.f32": "rr",
    # f32 compares (host `arith.cmpf`: ONNX Loop conditions read back from tensors); `.o`
    # is false and `.u` true when an operand is NaN; gt / gte are lt / lte with the operands
    # swapped, as IREE's ArithToVM writes them
    **{name: "rrr" for name in FLOAT_COMPARE},
}
"""Instruction name (the vm op name without `vm.`) -> operand layout. Results come first."""

OPCODES: dict[str, int] = {name: i for i, name in enumerate(LAYOUTS)}
NAMES: list[str] = list(LAYOUTS)
