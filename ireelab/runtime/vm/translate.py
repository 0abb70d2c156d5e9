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
from ireelab.runtime.vm import fused_commands, semantics, value_ranges
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
    result_ranges: dict[str, value_ranges.Range] = field(default_factory=dict)
    """Import name -> the range of its one integer result, when the runtime bounds it
    (`hal.buffer_view.dim`)."""
    fused_commands: tuple[Callable, Callable] | None = None
    """(record, check_dispatch) of the `hal` module the imports resolve to, when a run of
    one-shot commands may be fused (`vm.fused_commands`); None: every call as written."""
    nonnull_results: frozenset[str] = frozenset()
    """Imports whose result is never null, as the runtime says (`hal.NONNULL_RESULTS`)."""
    inline_calls: dict[str, tuple[str, tuple[int, ...]]] = field(default_factory=dict)
    """Import name -> (expression standing for a call of it, the arguments that must be
    rodata for it to), as the runtime that provides the import says (`hal.INLINE_CALLS`)."""


class FunctionTranslator:
    """Emits the Python source of one decoded function.

    Within a block, a register holding a constant (an integer, null or a rodata reference) is
    read as that constant, an operation on constants is folded to its result, and a constant
    store overwritten later in the same block is left out: a `?` function's size and
    workgroup-count arithmetic then costs only the operations on values known at run time
    (EmitC leaves this to the C compiler). An integer operation whose operands' ranges prove
    its result in range is written without the wrap (`value_ranges`). Only registers some path
    reads before writing start as the VM's zero value."""

    def __init__(self, program: Program, namespace: Namespace, decoded: DecodedFunction):
        self.program = program
        self.ns = namespace
        self.decoded = decoded
        self.counts = decoded.registers
        self._known: dict[str, tuple[str, object]] = {}
        self._ranges: dict[str, value_ranges.Range] = {}
        """Register -> the range its integer value is known to lie in (within the block)."""
        """Register -> (source text, int value or None) of the constant it holds."""
        self._pending: dict[str, int] = {}
        """Register -> line of its constant store, while no unfolded read needs the store."""
        self._lines: list[str | None] = []
        self._written: set[str] = set()
        self._exposed: set[str] = set()
        """Registers the block being emitted reads before writing them."""
        self._chains: dict[int, fused_commands.Chain] = {}
        """Instruction index -> the fused command-buffer run it belongs to (this block)."""
        self._lookups: dict[str, tuple[str, int, int]] = {}
        """Register -> (executable register, its generation, the register's generation) when
        it holds what `hal.executable.lookup.function` returned for that executable (this
        block): an export ordinal of it, which a dispatch then need not check."""
        self._nonnull: dict[str, int] = {}
        """Register -> its generation, when that value is a `nonnull_results` import's (this
        block)."""
        self._index = 0
        self._generation: dict[str, int] = {}
        """Register -> how many times the function's text so far writes it (a value's identity)."""
        self._ceil: dict[str, _CeilStep] = {}
        """Register -> the step of a `ceildiv` expansion its value is (this block)."""
        self._watch: dict[str, tuple[int, _CeilDiv]] = {}
        """Register -> (generation, folded `ceildiv`) whose expansion's value it still holds:
        a read of it puts the expansion back."""
        self._folded: list[list[_CeilDiv]] = []
        """Per block emitted, its folded `ceildiv`s (put back when a later block reads one of
        the expansion's registers)."""
        self._block_folded: list[_CeilDiv] = []

    def reg(self, reg: int) -> str:
        bank, index = reg >> BANK_SHIFT, reg & INDEX_MASK
        return f"v{sum(self.counts[:bank]) + index}"

    def src(self, reg: int) -> str:
        """Register `reg` read: its constant when the block set it to one."""
        name = self.reg(reg)
        known = self._known.get(name)
        if known is not None:
            return known[0]
        watched = self._watch.get(name)
        if watched is not None and watched[0] == self._generation.get(name):
            watched[1].restore(self._lines, self._watch)
        if name not in self._written:
            self._exposed.add(name)
        return name

    def dst(self, reg: int) -> str:
        """Register `reg` written (read its sources first): an earlier constant store to it
        in this block is dead."""
        name = self.reg(reg)
        self._known.pop(name, None)
        self._ranges.pop(name, None)
        self._ceil.pop(name, None)
        self._generation[name] = self._generation.get(name, 0) + 1
        watched = self._watch.pop(name, None)
        if watched is not None:
            watched[1].watch.pop(name, None)
        line = self._pending.pop(name, None)
        if line is not None:
            self._lines[line] = None
        self._written.add(name)
        return name

    def _constant(self, reg: int, text: str, value: object) -> list[str]:
        """`reg = text`, a constant: later reads in the block use `text`."""
        name = self.dst(reg)
        self._known[name] = (text, value)
        if type(value) is int:
            self._ranges[name] = (value, value)
        self._pending[name] = len(self._lines)
        return [f"{name} = {text}"]

    def _range(self, text: str, width: int) -> value_ranges.Range:
        """The range of an integer operand: a constant's value, what the block proved of a
        register, else every value of its width."""
        value = self._value(text)
        if value is not None:
            return (value, value)
        return self._ranges.get(text) or value_ranges.full(width)

    def _ranged(self, reg: int, text: str, bounds: value_ranges.Range | None) -> list[str]:
        """`reg = text`, its value known to lie in `bounds` (None: nothing known)."""
        name = self.dst(reg)
        if bounds is not None:
            self._ranges[name] = bounds
        return [f"{name} = {text}"]

    @staticmethod
    def _value(text: str) -> int | None:
        """The int a source text stands for when it is an integer literal, else None."""
        try:
            return int(text.strip("()"))
        except ValueError:
            return None

    # ---- the whole function ----------------------------------------------------------------
    def source(self, symbol: str) -> str:
        args = [self.reg(r) for r in self.decoded.arguments]
        lines = [f"def {symbol}({', '.join(args)}):"]
        blocks = self.decoded.blocks
        emitted, exposed, written, successors = [], [], [], []
        for block in blocks:
            lines_, ending, successor = self._block(block)
            emitted.append((lines_, self._pending, ending))
            self._folded.append(self._block_folded)
            exposed.append(self._exposed)
            written.append(self._written)
            successors.append(successor)
        live_out = _live_out(exposed, written, successors)
        bodies = []
        for (body, pending, ending), live, folded in zip(
            emitted, live_out, self._folded, strict=True
        ):
            for ceildiv in folded:
                if not live.isdisjoint(ceildiv.watch):  # a later block reads the expansion
                    ceildiv.restore(body, {})
            for register, line in pending.items():
                if register not in live:  # a constant no later block reads
                    body[line] = None
            bodies.append([line for line in body if line is not None] + ending)
        lines += self._initialise(args, _read_before_written(args, exposed, written, successors))
        arms, inlined = _inline_jumps(bodies, successors)
        if not _jumps(arms[0]):  # every block reached is written where it is entered
            lines += [INDENT + line for line in arms[0]]
            return "\n".join(lines) + "\n"
        lines.append(f"{INDENT}b = 0")
        lines.append(f"{INDENT}while True:")
        for index, body in enumerate(arms):
            if index in inlined:
                continue
            keyword = "if" if index == 0 else "elif"
            lines.append(f"{INDENT * 2}{keyword} b == {index}:")
            lines += [INDENT * 3 + line for line in body]
        lines.append(f"{INDENT * 2}else:")
        lines.append(f"{INDENT * 3}raise VMError('INTERNAL; branch to a missing block')")
        return "\n".join(lines) + "\n"

    def _initialise(self, args: list[str], needed: set[str]) -> list[str]:
        # Registers some path reads before writing start as the VM's zero values (0, null),
        # so a malformed program reads a defined value instead of raising a Python NameError.
        ints = self.counts[0] + self.counts[1]
        total = ints + self.counts[2]
        zero = [f"v{i}" for i in range(ints) if f"v{i}" in needed and f"v{i}" not in args]
        null = [f"v{i}" for i in range(ints, total) if f"v{i}" in needed and f"v{i}" not in args]
        lines = []
        if zero:
            lines.append(f"{INDENT}{' = '.join(zero)} = 0")
        if null:
            lines.append(f"{INDENT}{' = '.join(null)} = None")
        return lines

    def _block(self, instructions: list[Instruction]) -> tuple[list, list[str], list[int]]:
        """The block's body lines (unindented; None for a constant store found dead), its
        ending lines, and the blocks it may branch to."""
        *body, last = instructions
        self._known, self._pending, self._lines, self._ranges = {}, {}, [], {}
        self._written, self._exposed = set(), set()
        self._chains, self._lookups, self._nonnull = {}, {}, {}
        self._ceil, self._watch, self._block_folded = {}, {}, []
        if self.program.fused_commands is not None:
            self._chains = fused_commands.find_chains(body, self.program.import_names)
        for index, ins in enumerate(body):
            self._index = index
            step = self._ceil_operands(ins)
            lines = self.step(ins)
            self._lines += lines
            if step is not None and len(lines) == 1:
                self._ceil_result(ins, step)
        ending, successors = self.terminator(last)
        return self._lines, ending, successors

    # ---- a `ceildiv` by a positive constant, as one expression -----------------------------
    def _ceil_operands(self, ins: Instruction) -> _CeilStep | None:
        """Before `ins` runs: the `ceildiv` expansion step it is, from its operands, or None.

        IREE writes `ceildiv(a, k)` (k > 0, a workgroup count) as `c = a <= 0; n = 0 - a;
        d = a - 1; s = c ? n : d; q = s / k; r = c ? 0 - q : q + 1`. Each step's value is
        tagged with `a` (by its generation) and the lines so far; the last one folds them."""
        name, ops = ins.name, ins.operands
        widths = [part for part in name.split(".") if part in ("i32", "i64")]
        if not widths:
            return None
        width = int(widths[0][1:])
        texts = (
            [self.src(x) for x in ops[1:]]
            if name.startswith(("cmp.", "sub.", "add.", "div.", "select."))
            else []
        )
        return _ceil_step(name, width, texts, self._ceil, self._generation, self._range)

    def _ceil_result(self, ins: Instruction, step: _CeilStep) -> None:
        """After `ins` wrote its one line: tag its result, or fold a finished expansion."""
        target = self.reg(ins.operands[0])
        line = len(self._lines) - 1
        lines = step.lines | {line}
        written = {**step.written, target: self._generation[target]}
        if step.kind != "done":
            self._ceil[target] = _CeilStep(
                step.kind, step.width, step.a, step.generation, step.bounds, step.k, lines, written
            )
            return
        first = min(lines)
        constants = set(self._pending.values())
        between = range(first, line + 1)
        if any(
            i not in lines and self._lines[i] is not None and i not in constants for i in between
        ):
            return  # something other than a constant store runs inside the expansion
        text = _ceildiv_text(step.a, step.k, step.width, step.bounds)
        folded = _CeilDiv({i: self._lines[i] for i in lines}, {})
        for i in lines:
            self._lines[i] = None
        self._lines[first] = f"{target} = {text}"
        low, high = step.bounds
        if low > value_ranges.full(step.width)[0]:  # ceildiv is monotone in `a` (k > 0)
            self._ranges[target] = (-(-low // step.k), -(-high // step.k))
        for register, generation in written.items():
            if register != target and self._generation[register] == generation:
                folded.watch[register] = generation
                self._watch[register] = (generation, folded)
        self._block_folded.append(folded)

    # ---- straight-line instructions --------------------------------------------------------
    def step(self, ins: Instruction) -> list[str]:
        name, ops = ins.name, ins.operands
        if name.startswith("const."):
            return self._const_step(name, ops)
        if name.startswith("global."):
            return [self._global(name, ops)]
        if name in ("call", "call.variadic"):
            chain = self._chains.get(self._index)
            if chain is not None and chain.active:
                fused = self._fused(chain, chain.roles[self._index], ops)
                if fused is not None:
                    return fused
            return [self._call(name, ops)]
        if name == "discard.refs":
            return [f"{self.dst(x)} = None" for x in ops[0]] or ["pass"]
        if name.startswith("select."):
            c, t, f = (self.src(x) for x in ops[1:])
            condition = self._value(c)
            if condition is None:
                if name in ("select.i32", "select.i64"):
                    width = int(name[-2:])
                    bounds = value_ranges.union(self._range(t, width), self._range(f, width))
                    return self._ranged(ops[0], f"{t} if {c} else {f}", bounds)
                return [f"{self.dst(ops[0])} = {t} if {c} else {f}"]
            chosen = t if condition else f
            value = self._value(chosen)
            if value is not None:
                return self._constant(ops[0], chosen, value)
            return [f"{self.dst(ops[0])} = {chosen}"]
        if name == "cmp.nz.ref":
            a = self.src(ops[1])
            return [f"{self.dst(ops[0])} = 0 if {a} is None else 1"]
        if name.startswith("cmp.nz."):
            a = self.src(ops[1])
            value = self._value(a)
            if value is not None:
                return self._constant(ops[0], str(int(value != 0)), int(value != 0))
            return self._ranged(ops[0], f"1 if {a} else 0", (0, 1))
        if name in semantics.CASTS:
            a = self.src(ops[1])
            value = self._value(a)
            if value is not None:
                result = semantics.CASTS[name](value)
                if type(result) is int:
                    return self._constant(ops[0], _literal(result), result)
            ranged = self._cast_in_range(name, a)
            if ranged is not None:
                return self._ranged(ops[0], *ranged)
            if name == "trunc.i64.i32" and _value_is_register(a):
                return [f"{self.dst(ops[0])} = {_truncated(a, self._range(a, 64))}"]
            if name in semantics.CAST_EXPRESSIONS:
                text = semantics.CAST_EXPRESSIONS[name].format(a=a)
                return [f"{self.dst(ops[0])} = {text}"]
            fn = self.ns.name("S", semantics.CASTS[name])
            return [f"{self.dst(ops[0])} = {fn}({a})"]
        if name in semantics.FLOAT_UNARY:
            fn = self.ns.name("S", semantics.FLOAT_UNARY[name])
            a = self.src(ops[1])
            return [f"{self.dst(ops[0])} = {fn}({a})"]
        return self._binary(name, ops)

    def _cast_in_range(self, name: str, a: str) -> tuple[str, value_ranges.Range] | None:
        """(expression, range) of an integer cast its operand's range makes a plain copy."""
        if name == "trunc.i64.i32":
            bounds = self._range(a, 64)
            return (a, bounds) if value_ranges.within(bounds, 32) else None
        if name == "ext.i32.i64.s":
            return (a, self._range(a, 32))
        if name == "ext.i32.i64.u":
            bounds = self._range(a, 32)
            return (a, bounds) if bounds[0] >= 0 else None
        return None

    def _const_step(self, name: str, ops: tuple) -> list[str]:
        text = self._const(name, ops)
        if name in ("const.i32", "const.i64", "const.i32.zero", "const.i64.zero"):
            value = int(text)
            return self._constant(ops[0], _literal(value), value)
        if name in ("const.ref.zero", "const.ref.rodata"):  # null, or immutable bytes
            return self._constant(ops[0], text, None)
        return [f"{self.dst(ops[0])} = {text}"]

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
            return f"{self.dst(ops[0])} = {table_name}[{ordinal}]"
        return f"{table_name}[{ordinal}] = {self.src(ops[0])}"

    def _binary(self, name: str, ops: tuple) -> list[str]:
        a, b = self.src(ops[1]), self.src(ops[2])
        if name in semantics.FLOAT_BINARY:
            return [
                f"{self.dst(ops[0])} = {self.ns.name('S', semantics.FLOAT_BINARY[name])}({a}, {b})"
            ]
        if name in semantics.FLOAT_COMPARE:
            return [
                f"{self.dst(ops[0])} = {self.ns.name('S', semantics.FLOAT_COMPARE[name])}({a}, {b})"
            ]
        if name.startswith("cmp."):
            body = name.removeprefix("cmp.")
            if body.endswith(".ref"):
                fn = semantics.compare(body.removesuffix(".ref"), 64)
                return [f"{self.dst(ops[0])} = {self.ns.name('S', fn)}({a}, {b})"]
            parts = body.split(".")
            op = parts[0] + ("." + parts[2] if len(parts) > 2 else "")
            width = int(parts[1][1:])
            fn = semantics.compare(op, width)
            bounds = (0, 1)
        else:
            parts = name.split(".")
            op = parts[0] + ("." + parts[2] if len(parts) > 2 else "")
            width = int(parts[1][1:])
            fn = semantics.binary(op, width)
            bounds = None
        x, y = self._value(a), self._value(b)
        if x is not None and y is not None:
            try:
                result = fn(x, y)
            except (ArithmeticError, VMError):  # division by zero: raised if it runs
                result = None
            if type(result) is int:
                return self._constant(ops[0], _literal(result), result)
        if bounds is None:
            plain = self._in_range(op, width, a, b)
            if plain is not None:
                return self._ranged(ops[0], *plain)
            if op == "div.s":  # by a positive constant: bounded whatever the dividend
                bounds = value_ranges.exact(op, self._range(a, width), self._range(b, width))
        inline = semantics.expression(op, width, a, b)
        if op == "div.s" and y is not None and y > 0 and _value_is_register(a):
            # a workgroup count's `ceildiv` by a tile size: floor division when `a` >= 0
            inline = f"{a} // {b} if {a} >= 0 else {self.ns.name('S', fn)}({a}, {b})"
        if inline is not None:
            return self._ranged(ops[0], inline, bounds)
        return [f"{self.dst(ops[0])} = {self.ns.name('S', fn)}({a}, {b})"]

    def _in_range(self, op: str, width: int, a: str, b: str) -> tuple[str, tuple] | None:
        """(plain expression, range) of an integer operation its operands' ranges keep in
        range (no wrap needed), or None."""
        ra, rb = self._range(a, width), self._range(b, width)
        symbols = {"add": "+", "sub": "-", "mul": "*"}
        if op in symbols:
            bounds = value_ranges.exact(op, ra, rb)
            if value_ranges.within(bounds, width):
                return f"{a} {symbols[op]} {b}", bounds
            return None
        shift = rb[0] & (width - 1) if rb[0] == rb[1] else 0
        if op == "shr.u" and shift:  # by a constant: the result has `shift` leading zeros
            text = f"{a} >> {shift}" if ra[0] >= 0 else f"({a} & {(1 << width) - 1}) >> {shift}"
            return text, value_ranges.unsigned_shift(ra, shift, width)
        if op == "div.s" and rb[0] == rb[1] and rb[0] > 0 and ra[0] >= 0:
            return f"{a} // {b}", value_ranges.exact(op, ra, rb)
        if op == "shr.s" and rb[0] == rb[1]:
            shift = rb[0] & (width - 1)
            return semantics.expression(op, width, a, b), (ra[0] >> shift, ra[1] >> shift)
        bounds = value_ranges.exact(op, ra, rb)
        if bounds is not None and op == "and":
            return semantics.expression(op, width, a, b), bounds
        return None

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
        return ", ".join(self._argument_parts(segments, regs))

    def _argument_parts(self, segments: tuple | None, regs: tuple[int, ...]) -> list[str]:
        """The text of each argument: a register read, or a list for a variadic segment."""
        names = [self.src(x) for x in regs]
        if segments is None:
            return names
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
        return parts

    def _call_line(self, callee: int, segments, arg_regs, result_regs) -> str:
        target, returns_tuple = self._callee(callee)
        arguments = self._argument_parts(segments, arg_regs)
        call = f"{target}({', '.join(arguments)})"
        if callee & IMPORT_BIT and len(result_regs) == 1:
            call = self._inlined(callee & ~IMPORT_BIT, call, arguments)
        results = [self.dst(x) for x in result_regs]
        if callee & IMPORT_BIT and len(results) == 1:
            name = self.program.import_names[callee & ~IMPORT_BIT]
            if name in self.program.nonnull_results:
                self._nonnull[results[0]] = self._generation[results[0]]
            if name == "hal.executable.lookup.function" and _value_is_register(arguments[0]):
                generation = self._generation.get
                self._lookups[results[0]] = (
                    arguments[0],
                    generation(arguments[0]),
                    generation(results[0]),
                )
        if not results:
            return call
        if len(results) == 1 and callee & IMPORT_BIT:
            name = self.program.import_names[callee & ~IMPORT_BIT]
            bounds = self.program.result_ranges.get(name)
            if bounds is not None:
                self._ranges[results[0]] = bounds
        if len(results) == 1 and not returns_tuple:
            return f"{results[0]} = {call}"
        return f"{', '.join(results)}, = {call}"

    def _inlined(self, index: int, call: str, arguments: list[str]) -> str:
        """The expression standing for `call` of import `index` (`Program.inline_calls`), or
        the call itself."""
        inline = self.program.inline_calls.get(self.program.import_names[index])
        if inline is None or any(not _is_name(a) for a in arguments):
            return call
        template, rodata = inline
        if not all(type(self.ns.values.get(arguments[i])) is bytes for i in rodata):
            return call
        return template.format(call=call, **{f"a{i}": a for i, a in enumerate(arguments)})

    def _call(self, name: str, ops: tuple) -> str:
        if name == "call":
            callee, arg_regs, result_regs = ops
            return self._call_line(callee, None, arg_regs, result_regs)
        callee, segments, arg_regs, result_regs = ops
        return self._call_line(callee, segments, arg_regs, result_regs)

    # ---- a fused run of one-shot commands (`vm.fused_commands`) ----------------------------
    def _fused(self, chain: fused_commands.Chain, role: str, ops: tuple) -> list[str] | None:
        """The lines of one command of a fused run; None for a `create` the run cannot start
        with (its mode not a one-shot constant, or its capacity not a constant): the run is
        then written as separate calls. Each dispatch checks its executable and export where
        it stands (not when the ordinal is what this block looked up in that executable: the
        lookup raised for anything else) and keeps its key entry in `e<register>_<n>`, its bindings' (buffer,
        offset, length) in `u<register>_<n>` and their (ordinal, slot) in `s<register>_<n>`
        (registers the block may overwrite before the run ends); `finalize` passes the key
        and the binding table, built of these, to the one `record` call."""
        record, check = self.program.fused_commands
        if role == "create":
            return self._fused_create(chain, ops)
        previous, chain.previous = chain.previous, role
        if role == "barrier":  # a barrier with nothing before it makes no section
            if previous == "dispatch":
                chain.key.append("None")
            return []
        if role == "finalize":
            call = (
                f"{self.ns.name('H', record)}({chain.capacity}, {chain.modes}, "
                f"({''.join(f'{k}, ' for k in chain.key)}), {_joined(chain.table)}, "
                f"{_joined(chain.slots)}{'' if chain.nullable else ', False'})"
            )
            return [f"{self.dst(chain.register)} = {call}"]
        _, segments, arg_regs, _ = ops
        names = [self.src(r) for r in arg_regs]
        executable, ordinal, x, y, z = names[1:6]
        count = segments[7][0]
        constants = "".join(f"{c}, " for c in names[7 : 7 + count])
        fields = names[7 + count :]
        bound = [fields[i : i + 5] for i in range(0, len(fields), 5)]
        lengths = "".join(f"{b[4]}, " for b in bound)
        generation = self._generation.get
        if any(self._nonnull.get(b[2], -1) != generation(b[2]) for b in bound):
            chain.nullable = True  # a buffer of no `nonnull_results` import: maybe a table slot
        tag = f"{self.reg(chain.register)[1:]}_{len(chain.table)}"
        chain.key.append(f"e{tag}")
        chain.table.append(f"u{tag}")
        chain.slots.append(f"s{tag}")
        looked_up = (executable, generation(executable), generation(ordinal))
        checks = []
        if self._lookups.get(ordinal) != looked_up:  # not an ordinal the lookup found in it
            size = self.ns.name("S", len)
            checks = [
                f"if {executable} is None or not 0 <= {ordinal} < {size}({executable}.functions):",
                f"{INDENT}{self.ns.name('H', check)}({executable}, {ordinal})",
            ]
        return [
            *checks,
            f"e{tag} = ({executable}, {ordinal}, {x}, {y}, {z}, ({constants}), ({lengths}))",
            f"u{tag} = ({''.join(f'({b[2]}, {b[3]}, {b[4]}), ' for b in bound)})",
            f"s{tag} = ({''.join(f'({b[0]}, {b[1]}), ' for b in bound)})",
        ]

    def _fused_create(self, chain: fused_commands.Chain, ops: tuple) -> list[str] | None:
        callee, arg_regs, _ = ops
        device, modes, _, _, capacity = (self.src(x) for x in arg_regs)
        mode, slots = self._value(modes), self._value(capacity)
        if mode is None or not mode & fused_commands.ONE_SHOT or slots is None:
            chain.active = False
            return None
        chain.modes, chain.capacity = _literal(mode), _literal(slots)
        target, _ = self._callee(callee)
        raises = f"{target}({', '.join(self.src(x) for x in arg_regs)})"
        self.dst(chain.register)  # holds nothing until `finalize`: nothing reads it before
        return [f"if {device} is None:", f"{INDENT}{raises}"]

    # ---- terminators -----------------------------------------------------------------------
    def terminator(self, ins: Instruction) -> tuple[list[str], list[int]]:
        """The lines ending a block and the blocks they may branch to."""
        name, ops = ins.name, ins.operands
        if name == "return":
            values = [self.src(x) for x in ops[0]]
            return [f"return ({', '.join(values)}{',' if values else ''})"], []
        if name == "br":
            return self._jump(ops[0]), [ops[0][0]]
        if name == "cond_br":
            condition = self.src(ops[0])
            value = self._value(condition)
            if value is not None:  # a branch on a constant: only the branch taken
                target = ops[1] if value else ops[2]
                return self._jump(target), [target[0]]
            taken, other = self._jump(ops[1]), self._jump(ops[2])
            lines = [f"if {condition}:", *(INDENT + line for line in taken), "else:"]
            lines += [INDENT + line for line in other]
            return lines, [ops[1][0], ops[2][0]]
        if name == "fail":
            message = self.ns.name("M", str(ops[1]))
            status = self.ns.name("S", semantics.status_name)
            return [f"raise VMError({status}({self.src(ops[0])}) + '; ' + {message})"], []
        if name == "call.variadic.yieldable":
            callee, segments, arg_regs, block, dest_regs = ops
            if block >= len(self.decoded.blocks):
                raise VMError("INVALID_ARGUMENT; yieldable call resumes in a missing block")
            line = self._call_line(callee, segments, arg_regs, dest_regs)
            return [line, f"b = {block}", "continue"], [block]
        raise VMError(f"INVALID_ARGUMENT; '{name}' cannot end a block")

    def _jump(self, target: tuple) -> list[str]:
        index, moves = target
        lines = []
        if moves:
            sources = ", ".join(self.src(s) for s, _ in moves)
            dests = ", ".join(self.dst(d) for _, d in moves)
            lines.append(f"{dests}, = {sources},")  # a parallel move
        return lines + [f"b = {index}", "continue"]


@dataclass(frozen=True)
class _CeilStep:
    kind: str
    """le0 (c), neg (n), dec (d), sel (s), quot (q), negq, incq; done: the expansion's result."""
    width: int
    a: str
    generation: int
    bounds: value_ranges.Range
    k: int = 0
    lines: frozenset[int] | set[int] = frozenset()
    written: dict = field(default_factory=dict)


@dataclass
class _CeilDiv:
    """A folded `ceildiv`: the expansion's lines (to put back) and the registers, by
    generation, still holding one of its intermediate values."""

    original: dict[int, str | None]
    watch: dict[str, int]

    def restore(self, lines: list, watching: dict) -> None:
        for index, text in self.original.items():
            lines[index] = text
        for register in self.watch:
            watching.pop(register, None)
        self.watch = {}


def _ceil_step(
    name: str, width: int, texts: list[str], tags: dict, generation: dict, bounds
) -> _CeilStep | None:
    """The `ceildiv` expansion step `name` on operand texts `texts` makes, or None."""

    def tag(text: str, kind: str) -> _CeilStep | None:
        found = tags.get(text)
        return found if found is not None and found.kind == kind else None

    def same(*steps) -> bool:
        return (
            all(s is not None for s in steps)
            and len({(s.a, s.generation, s.k) for s in steps}) == 1
        )

    def merged(kind: str, *steps: _CeilStep, k: int | None = None) -> _CeilStep:
        first = steps[0]
        lines = set().union(*(s.lines for s in steps))
        written = {}
        for s in steps:
            written.update(s.written)
        return _CeilStep(
            kind,
            width,
            first.a,
            first.generation,
            first.bounds,
            first.k if k is None else k,
            lines,
            written,
        )

    if name == f"cmp.lte.i{width}.s" and texts[1] == "0" and _value_is_register(texts[0]):
        a = texts[0]
        return _CeilStep("le0", width, a, generation.get(a, 0), bounds(a, width))
    if name == f"sub.i{width}":
        x, y = texts
        if x == "0" and _value_is_register(y):  # 0 - a, or 0 - q
            q = tag(y, "quot")
            if q is not None:
                return merged("negq", q)
            return _CeilStep("neg", width, y, generation.get(y, 0), bounds(y, width))
        if y == "1" and _value_is_register(x):
            return _CeilStep("dec", width, x, generation.get(x, 0), bounds(x, width))
        return None
    if name == f"add.i{width}":
        x, y = texts
        q = tag(x, "quot") if y == "1" else tag(y, "quot") if x == "1" else None
        return merged("incq", q) if q is not None else None
    if name == f"div.i{width}.s":
        s, k = tags.get(texts[0]), FunctionTranslator._value(texts[1])
        if s is not None and s.kind == "sel" and k is not None and k > 0:
            return merged("quot", s, k=k)
        return None
    if name == f"select.i{width}":
        c, t, f = (tags.get(x) for x in texts)
        if c is None or c.kind != "le0" or t is None or f is None:
            return None
        if not (c.a, c.generation) == (t.a, t.generation) == (f.a, f.generation):
            return None
        if (t.kind, f.kind) == ("neg", "dec"):
            return merged("sel", c, t, f)
        if (t.kind, f.kind) == ("negq", "incq") and t.k == f.k:
            return merged("done", t, c, f)
    return None


def _ceildiv_text(a: str, k: int, width: int, bounds: value_ranges.Range) -> str:
    """`ceildiv(a, k)` (k > 0) as one Python expression, the expansion's value for every `a`
    in `bounds`: for `a` the width's minimum, `0 - a` wraps, and so does the expansion."""
    if bounds[0] >= 0:
        return a if k == 1 else f"({a} + {k - 1}) // {k}"
    if bounds[0] > value_ranges.full(width)[0]:
        return f"-(-{a} // {k})"
    low = value_ranges.full(width)[0]
    sub, div = semantics.binary("sub", width), semantics.binary("div.s", width)
    wrapped = sub(0, div(sub(0, low), k))
    return f"-(-{a} // {k}) if {a} > {low} else {_literal(wrapped)}"


def _truncated(a: str, bounds: value_ranges.Range) -> str:
    """`trunc.i64.i32` of register `a` (in `bounds`, not all of them i32 values): the wrap,
    testing only the side of the i32 range `bounds` can leave (a size is never negative)."""
    low, high = value_ranges.full(32)
    wrap = f"(({a} + {high + 1}) & {(1 << 32) - 1}) - {high + 1}"
    if bounds[0] >= low:
        return f"({a} if {a} <= {high} else {wrap})"
    if bounds[1] <= high:
        return f"({a} if {a} >= {low} else {wrap})"
    return semantics.CAST_EXPRESSIONS["trunc.i64.i32"].format(a=a)


def _is_name(text: str) -> bool:
    """Whether an argument's text is a register, a generated name or an integer literal (not
    a list or an expression)."""
    return text.isidentifier() or text.lstrip("(-").rstrip(")").isdigit()


def _value_is_register(text: str) -> bool:
    """`text` names a register (read twice by an inline expression, computed once)."""
    return text.startswith("v") and text[1:].isdigit()


INLINE_DEPTH = 24
"""How deep blocks entered from one place are written into each other (Python's tokenizer
allows 100 levels of indentation; a long chain of checks stays a `while` arm past this)."""


def _inline_jumps(
    bodies: list[list[str]], successors: list[list[int]]
) -> tuple[list[list[str]], set[int]]:
    """Every block's lines with each jump to a block that only that jump enters (not the
    entry block) replaced by the block's lines, as EmitC writes a structured region: a
    function without loops or merging branches becomes straight-line code, with no `while`
    dispatch. Returns the blocks' lines and the blocks written into another."""
    entries = [0] * len(bodies)
    for targets in successors:
        for target in targets:
            if 0 <= target < len(bodies):
                entries[target] += 1
    inlined = {t for t in range(1, len(bodies)) if entries[t] == 1}

    def expand(body: list[str], depth: int) -> list[str]:
        out: list[str] = []
        index = 0
        while index < len(body):
            line = body[index]
            target = _jump_target(line)
            following = body[index + 1] if index + 1 < len(body) else ""
            indent = line[: len(line) - len(line.lstrip())]
            if target in inlined and depth < INLINE_DEPTH and following == f"{indent}continue":
                out += [indent + inner for inner in expand(bodies[target], depth + 1)]
                index += 2
                continue
            out.append(line)
            index += 1
        return out

    arms = [expand(body, 0) for body in bodies]
    written_in = {t for arm in arms for t in map(_jump_target, arm) if t is not None}
    return arms, {t for t in inlined if t not in written_in}


def _jump_target(line: str) -> int | None:
    """The block a `b = <n>` line of a block's ending jumps to, else None."""
    text = line.strip()
    if text.startswith("b = ") and text[4:].isdigit():
        return int(text[4:])
    return None


def _jumps(lines: list[str]) -> bool:
    return any(_jump_target(line) is not None for line in lines)


def _joined(names: list[str]) -> str:
    """The tuples `names` hold, as one tuple (`()` for none)."""
    return " + ".join(names) if names else "()"


def _literal(value: int) -> str:
    """An integer constant as source text (parenthesised when negative, so that it reads as
    one operand wherever a register name could stand)."""
    return str(value) if value >= 0 else f"({value})"


def _live_out(
    exposed: list[set[str]], written: list[set[str]], successors: list[list[int]]
) -> list[set[str]]:
    """Per block, the registers some block after it may read before writing them (backward
    liveness): a constant store to any other register at the block's end is dead."""
    count = len(exposed)
    live_in = [set(e) for e in exposed]
    live_out: list[set[str]] = [set() for _ in range(count)]
    changed = True
    while changed:
        changed = False
        for block in reversed(range(count)):
            out = set().union(*(live_in[t] for t in successors[block] if 0 <= t < count))
            if out != live_out[block]:
                live_out[block] = out
                live_in[block] = exposed[block] | (out - written[block])
                changed = True
    return live_out


def _read_before_written(
    args: list[str], exposed: list[set[str]], written: list[set[str]], successors: list[list[int]]
) -> set[str]:
    """Registers some path from the entry reads before any instruction writes them (a
    forward must-be-assigned analysis over the blocks): only these need a zero value."""
    count = len(exposed)
    everything = set(args).union(*exposed, *written)
    predecessors: list[list[int]] = [[] for _ in range(count)]
    for block, targets in enumerate(successors):
        for target in targets:
            if 0 <= target < count:
                predecessors[target].append(block)
    assigned_in = [set(args)] + [set(everything) for _ in range(count - 1)]
    changed = True
    while changed:
        changed = False
        for block in range(count):
            entering = set(args) if block == 0 else set(everything)
            for pred in predecessors[block]:
                entering &= assigned_in[pred] | written[pred]
            if entering != assigned_in[block]:
                assigned_in[block] = entering
                changed = True
    return set().union(*(exposed[b] - assigned_in[b] for b in range(count)))
