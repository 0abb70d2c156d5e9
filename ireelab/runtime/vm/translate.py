"""Translate one decoded VM function into Python source, once per context.

IREE runs bytecode with a `switch` interpreter (`iree/vm/bytecode/dispatch.c`) and can also
translate `vm` IR ahead of time to C (the EmitC path). In Python an interpreter loop costs a
function call per instruction, so ireelab does what EmitC does, at load time: every function
becomes one Python function whose registers are local variables (`v<flat index>`), whose
blocks are arms of a `while` loop, and whose calls go straight to the resolved import or
function. The source holds only generated names, register numbers and integers; every other
value (import callables, rodata, global tables, `vm.fail` messages, semantics functions) is
referenced by a generated name bound in the namespace the source runs in, so nothing from the
module file is pasted into code.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from ireelab.runtime.errors import VMError
from ireelab.runtime.vm import semantics
from ireelab.runtime.vm.decoder import DecodedFunction, Instruction
from ireelab.schemas.vm_opcodes import BANK_SHIFT, IMPORT_BIT, INDEX_MASK

INDENT = "    "


@dataclass
class Namespace:
    """The values generated code refers to, by generated name."""

    values: dict[str, object] = field(default_factory=dict)
    _ids: dict[int, str] = field(default_factory=dict)

    def name(self, prefix: str, value: object) -> str:
        """A stable generated name for `value` (one per distinct object)."""
        key = id(value)
        existing = self._ids.get(key)
        if existing is not None:
            return existing
        name = f"{prefix}{len(self._ids)}"
        self._ids[key] = name
        self.values[name] = value
        return name


@dataclass(frozen=True)
class Program:
    """What the instructions of one context resolve against."""

    imports: list[Callable]
    import_names: list[str]
    function_count: int
    function_names: list[str]
    globals: dict[str, list]
    rodata: list[bytes]


class FunctionTranslator:
    """Emits the Python source of one decoded function."""

    def __init__(self, program: Program, namespace: Namespace, decoded: DecodedFunction):
        self.program = program
        self.ns = namespace
        self.decoded = decoded
        self.counts = decoded.registers

    def reg(self, reg: int) -> str:
        bank, index = reg >> BANK_SHIFT, reg & INDEX_MASK
        return f"v{sum(self.counts[:bank]) + index}"

    # ---- the whole function ----------------------------------------------------------------
    def source(self, symbol: str) -> str:
        args = [self.reg(r) for r in self.decoded.arguments]
        lines = [f"def {symbol}({', '.join(args)}):"]
        lines += self._initialise(set(args))
        blocks = self.decoded.blocks
        if len(blocks) == 1 and blocks[0][-1].name in ("return", "fail"):
            lines += self._block(blocks[0], 1)
            return "\n".join(lines) + "\n"
        lines.append(f"{INDENT}b = 0")
        lines.append(f"{INDENT}while True:")
        for index, block in enumerate(blocks):
            keyword = "if" if index == 0 else "elif"
            lines.append(f"{INDENT * 2}{keyword} b == {index}:")
            lines += self._block(block, 3)
        lines.append(f"{INDENT * 2}else:")
        lines.append(f"{INDENT * 3}raise VMError('INTERNAL; branch to a missing block')")
        return "\n".join(lines) + "\n"

    def _initialise(self, args: set[str]) -> list[str]:
        # Registers start as the VM's zero values (0, null) so a malformed program reads a
        # defined value instead of raising a Python NameError.
        ints = self.counts[0] + self.counts[1]
        total = ints + self.counts[2]
        zero = [f"v{i}" for i in range(ints) if f"v{i}" not in args]
        null = [f"v{i}" for i in range(ints, total) if f"v{i}" not in args]
        lines = []
        if zero:
            lines.append(f"{INDENT}{' = '.join(zero)} = 0")
        if null:
            lines.append(f"{INDENT}{' = '.join(null)} = None")
        return lines

    def _block(self, instructions: list[Instruction], depth: int) -> list[str]:
        *body, last = instructions
        pad = INDENT * depth
        lines = [pad + line for ins in body for line in self.step(ins)]
        lines += [pad + line for line in self.terminator(last, pad)]
        return lines

    # ---- straight-line instructions --------------------------------------------------------
    def step(self, ins: Instruction) -> list[str]:
        name, ops = ins.name, ins.operands
        if name.startswith("const."):
            return [f"{self.reg(ops[0])} = {self._const(name, ops)}"]
        if name.startswith("global."):
            return [self._global(name, ops)]
        if name in ("call", "call.variadic"):
            return [self._call(name, ops)]
        if name == "discard.refs":
            return [f"{self.reg(x)} = None" for x in ops[0]] or ["pass"]
        if name.startswith("select."):
            d, c, t, f = (self.reg(x) for x in ops)
            return [f"{d} = {t} if {c} else {f}"]
        if name == "cmp.nz.ref":
            return [f"{self.reg(ops[0])} = 0 if {self.reg(ops[1])} is None else 1"]
        if name.startswith("cmp.nz."):
            return [f"{self.reg(ops[0])} = 1 if {self.reg(ops[1])} else 0"]
        if name in semantics.CAST_EXPRESSIONS:
            text = semantics.CAST_EXPRESSIONS[name].format(a=self.reg(ops[1]))
            return [f"{self.reg(ops[0])} = {text}"]
        if name in semantics.CASTS:
            fn = self.ns.name("S", semantics.CASTS[name])
            return [f"{self.reg(ops[0])} = {fn}({self.reg(ops[1])})"]
        if name in semantics.FLOAT_UNARY:
            fn = self.ns.name("S", semantics.FLOAT_UNARY[name])
            return [f"{self.reg(ops[0])} = {fn}({self.reg(ops[1])})"]
        return [self._binary(name, ops)]

    def _const(self, name: str, ops: tuple) -> str:
        if name == "const.ref.rodata":
            if not 0 <= ops[1] < len(self.program.rodata):
                raise VMError(f"INVALID_ARGUMENT; rodata ordinal {ops[1]} out of range")
            return self.ns.name("R", self.program.rodata[ops[1]])
        if name in ("const.i32", "const.i64"):
            return str(int(ops[1]))
        if name == "const.f32":  # a finite float's repr reads back as the same f32 value
            value = semantics.f32_constant(int(ops[1]))
            return repr(value) if math.isfinite(value) else self.ns.name("K", value)
        if name == "const.ref.zero":
            return "None"
        return "0"

    def _global(self, name: str, ops: tuple) -> str:
        kind = name.rsplit(".", 1)[1]
        table = self.program.globals[kind]
        ordinal = ops[1]
        if not 0 <= ordinal < len(table):
            raise VMError(f"INVALID_ARGUMENT; global ordinal {ordinal} out of range")
        table_name = self.ns.name("G", table)
        if name.startswith("global.load."):
            return f"{self.reg(ops[0])} = {table_name}[{ordinal}]"
        return f"{table_name}[{ordinal}] = {self.reg(ops[0])}"

    def _binary(self, name: str, ops: tuple) -> str:
        d, a, b = (self.reg(x) for x in ops)
        if name in semantics.FLOAT_BINARY:
            return f"{d} = {self.ns.name('S', semantics.FLOAT_BINARY[name])}({a}, {b})"
        if name in semantics.FLOAT_COMPARE:
            return f"{d} = {self.ns.name('S', semantics.FLOAT_COMPARE[name])}({a}, {b})"
        if name.startswith("cmp."):
            body = name.removeprefix("cmp.")
            if body.endswith(".ref"):
                fn = semantics.compare(body.removesuffix(".ref"), 64)
                return f"{d} = {self.ns.name('S', fn)}({a}, {b})"
            parts = body.split(".")
            op = parts[0] + ("." + parts[2] if len(parts) > 2 else "")
            width = int(parts[1][1:])
            fn = semantics.compare(op, width)
        else:
            parts = name.split(".")
            op = parts[0] + ("." + parts[2] if len(parts) > 2 else "")
            width = int(parts[1][1:])
            fn = semantics.binary(op, width)
        inline = semantics.expression(op, width, a, b)
        if inline is not None:
            return f"{d} = {inline}"
        return f"{d} = {self.ns.name('S', fn)}({a}, {b})"

    # ---- calls -----------------------------------------------------------------------------
    def _callee(self, callee: int) -> tuple[str, bool]:
        """(expression calling it, returns-a-tuple?)"""
        if callee & IMPORT_BIT:
            index = callee & ~IMPORT_BIT
            if index >= len(self.program.imports):
                raise VMError(f"INVALID_ARGUMENT; import ordinal {index} out of range")
            return self.ns.name("I", self.program.imports[index]), False
        if callee >= self.program.function_count:
            raise VMError(f"INVALID_ARGUMENT; function ordinal {callee} out of range")
        return f"F[{callee}]", True

    def _arguments(self, segments: tuple | None, regs: tuple[int, ...]) -> str:
        names = [self.reg(x) for x in regs]
        if segments is None:
            return ", ".join(names)
        if sum(1 if size < 0 else size * width for size, width in segments) != len(names):
            raise VMError("INVALID_ARGUMENT; call has malformed variadic segments")
        parts, pos = [], 0
        for size, width in segments:
            if size < 0:
                parts.append(names[pos])
                pos += 1
            elif width == 1:
                parts.append(f"[{', '.join(names[pos : pos + size])}]")
                pos += size
            else:
                groups = [names[pos + i * width : pos + (i + 1) * width] for i in range(size)]
                parts.append("[" + ", ".join(f"({', '.join(g)},)" for g in groups) + "]")
                pos += size * width
        return ", ".join(parts)

    def _call_line(self, callee: int, segments, arg_regs, result_regs) -> str:
        target, returns_tuple = self._callee(callee)
        call = f"{target}({self._arguments(segments, arg_regs)})"
        results = [self.reg(x) for x in result_regs]
        if not results:
            return call
        if len(results) == 1 and not returns_tuple:
            return f"{results[0]} = {call}"
        return f"{', '.join(results)}, = {call}"

    def _call(self, name: str, ops: tuple) -> str:
        if name == "call":
            callee, arg_regs, result_regs = ops
            return self._call_line(callee, None, arg_regs, result_regs)
        callee, segments, arg_regs, result_regs = ops
        return self._call_line(callee, segments, arg_regs, result_regs)

    # ---- terminators -----------------------------------------------------------------------
    def terminator(self, ins: Instruction, pad: str) -> list[str]:
        name, ops = ins.name, ins.operands
        if name == "return":
            values = [self.reg(x) for x in ops[0]]
            return [f"return ({', '.join(values)}{',' if values else ''})"]
        if name == "br":
            return self._jump(ops[0])
        if name == "cond_br":
            lines = [f"if {self.reg(ops[0])}:"]
            lines += [INDENT + line for line in self._jump(ops[1])]
            lines.append("else:")
            lines += [INDENT + line for line in self._jump(ops[2])]
            return lines
        if name == "fail":
            message = self.ns.name("M", str(ops[1]))
            status = self.ns.name("S", semantics.status_name)
            return [f"raise VMError({status}({self.reg(ops[0])}) + '; ' + {message})"]
        if name == "call.variadic.yieldable":
            callee, segments, arg_regs, block, dest_regs = ops
            if block >= len(self.decoded.blocks):
                raise VMError("INVALID_ARGUMENT; yieldable call resumes in a missing block")
            return [
                self._call_line(callee, segments, arg_regs, dest_regs),
                f"b = {block}",
                "continue",
            ]
        raise VMError(f"INVALID_ARGUMENT; '{name}' cannot end a block")

    def _jump(self, target: tuple) -> list[str]:
        index, moves = target
        lines = []
        if moves:
            dests = ", ".join(self.reg(d) for _, d in moves)
            sources = ", ".join(self.reg(s) for s, _ in moves)
            lines.append(f"{dests}, = {sources},")  # a parallel move
        return lines + [f"b = {index}", "continue"]
