"""The VM interpreter: runs decoded bytecode against a context's globals and imports
(IREE's `iree/vm/bytecode/dispatch.c`).

Each instruction is turned once, when a context is created, into a Python closure over its
register numbers and resolved operands (import callables, global tables, rodata bytes), so a
call does no decoding, no name lookups and no dispatch on opcodes: it walks blocks of closures.
Registers are one flat Python list per call: the i32 bank, then i64, then refs.
"""

from __future__ import annotations

from collections.abc import Callable

from ireelab.runtime.errors import VMError
from ireelab.runtime.vm import semantics
from ireelab.runtime.vm.decoder import DecodedFunction, Instruction
from ireelab.runtime.vm.opcodes import BANK_SHIFT, IMPORT_BIT, INDEX_MASK

Step = Callable[[list], None]


class Function:
    """One `vm.func`, ready to run: blocks of closures plus a terminator per block."""

    __slots__ = ("name", "size", "zero", "arg_regs", "blocks", "entry")

    def __init__(self, name: str, registers: tuple[int, int, int]):
        self.name = name
        ints = registers[0] + registers[1]
        self.size = ints + registers[2]
        self.zero = [0] * ints + [None] * registers[2]
        self.arg_regs: tuple[int, ...] = ()
        self.blocks: list[Block] = []
        self.entry: Block | None = None

    def __call__(self, *args):
        r = self.zero.copy()
        for reg, value in zip(self.arg_regs, args, strict=True):
            r[reg] = value
        block = self.entry
        while True:
            for step in block.steps:
                step(r)
            block = block.terminator(r)
            if type(block) is tuple:
                return block


class Block:
    __slots__ = ("steps", "terminator")

    def __init__(self):
        self.steps: list[Step] = []
        self.terminator: Callable[[list], Block | tuple] = _missing_terminator


def _missing_terminator(r: list):
    raise VMError("INTERNAL; block has no terminator")


class Linker:
    """Binds decoded functions to one context: its globals, rodata and resolved imports."""

    def __init__(
        self,
        functions: list[Function],
        imports: list[Callable],
        import_names: list[str],
        globals_by_ordinal: dict[str, list],
        rodata: list[bytes],
    ):
        self.functions = functions
        self.imports = imports
        self.import_names = import_names
        self.globals = globals_by_ordinal
        self.rodata = rodata
        self.registers = (0, 0, 0)

    def flat(self, reg: int) -> int:
        bank, index = reg >> BANK_SHIFT, reg & INDEX_MASK
        return sum(self.registers[:bank]) + index

    def link(self, function: Function, decoded: DecodedFunction) -> None:
        self.registers = decoded.registers
        function.blocks = [Block() for _ in decoded.blocks]
        function.entry = function.blocks[0]
        function.arg_regs = tuple(self.flat(x) for x in decoded.arguments)
        for block, instructions in zip(function.blocks, decoded.blocks, strict=True):
            *body, last = instructions
            block.steps = [self.step(ins) for ins in body]
            block.terminator = self.terminator(last, function.blocks)

    # ---- straight-line instructions -----------------------------------------------------
    def step(self, ins: Instruction) -> Step:
        name, ops = ins.name, ins.operands
        if name.startswith("const."):
            return self._const(name, ops)
        if name.startswith("global."):
            return self._global(name, ops)
        if name in ("call", "call.variadic"):
            return self._call(name, ops)
        if name == "discard.refs":
            regs = [self.flat(x) for x in ops[0]]

            def discard(r):
                for x in regs:
                    r[x] = None

            return discard
        if name.startswith("select."):
            d, c, t, f = (self.flat(x) for x in ops)

            def select(r):
                r[d] = r[t] if r[c] else r[f]

            return select
        if name.startswith("cmp.nz."):
            d, a = self.flat(ops[0]), self.flat(ops[1])
            if name == "cmp.nz.ref":

                def nz_ref(r):
                    r[d] = 0 if r[a] is None else 1

                return nz_ref

            def nz(r):
                r[d] = 1 if r[a] else 0

            return nz
        if name in semantics.CASTS:
            fn = semantics.CASTS[name]
            d, a = self.flat(ops[0]), self.flat(ops[1])

            def cast(r):
                r[d] = fn(r[a])

            return cast
        return self._binary(name, ops)

    def _const(self, name: str, ops: tuple) -> Step:
        d = self.flat(ops[0])
        if name == "const.ref.rodata":
            value = self.rodata[ops[1]]
        elif name in ("const.i32", "const.i64"):
            value = ops[1]
        elif name == "const.ref.zero":
            value = None
        else:
            value = 0

        def const(r):
            r[d] = value

        return const

    def _global(self, name: str, ops: tuple) -> Step:
        kind = name.rsplit(".", 1)[1]
        table = self.globals[kind]
        reg, ordinal = self.flat(ops[0]), ops[1]
        if not 0 <= ordinal < len(table):
            raise VMError(f"INVALID_ARGUMENT; global ordinal {ordinal} out of range")
        if name.startswith("global.load."):

            def load(r):
                r[reg] = table[ordinal]

            return load

        def store(r):
            table[ordinal] = r[reg]

        return store

    def _binary(self, name: str, ops: tuple) -> Step:
        d, a, b = (self.flat(x) for x in ops)
        if name.startswith("cmp."):
            body = name.removeprefix("cmp.")
            if body.endswith(".ref"):
                fn = semantics.compare(body.removesuffix(".ref"), 64)
            else:
                parts = body.split(".")
                op = parts[0] + ("." + parts[2] if len(parts) > 2 else "")
                fn = semantics.compare(op, int(parts[1][1:]))
        else:
            parts = name.split(".")
            op = parts[0] + ("." + parts[2] if len(parts) > 2 else "")
            fn = semantics.binary(op, int(parts[1][1:]))

        def binary(r):
            r[d] = fn(r[a], r[b])

        return binary

    # ---- calls ------------------------------------------------------------------------------
    def _callee(self, callee: int) -> tuple[Callable, str]:
        if callee & IMPORT_BIT:
            index = callee & ~IMPORT_BIT
            if index >= len(self.imports):
                raise VMError(f"INVALID_ARGUMENT; import ordinal {index} out of range")
            return self.imports[index], self.import_names[index]
        if callee >= len(self.functions):
            raise VMError(f"INVALID_ARGUMENT; function ordinal {callee} out of range")
        function = self.functions[callee]
        return function, function.name

    def _arguments(self, segments: tuple | None, regs: tuple[int, ...]) -> Callable:
        """A function building the Python argument list from the registers; each variadic
        segment becomes a list (of tuples for tuple elements)."""
        flat = [self.flat(x) for x in regs]
        if segments is None:
            return lambda r: [r[x] for x in flat]
        plan: list[tuple[int, object]] = []  # (kind, registers): 0 scalar, 1 list, 2 tuples
        pos = 0
        for size, width in segments:
            if size < 0:
                plan.append((0, flat[pos]))
                pos += 1
            elif width == 1:
                plan.append((1, flat[pos : pos + size]))
                pos += size
            else:
                groups = [flat[pos + i * width : pos + (i + 1) * width] for i in range(size)]
                plan.append((2, groups))
                pos += size * width

        def build(r):
            args = []
            for kind, what in plan:
                if kind == 0:
                    args.append(r[what])
                elif kind == 1:
                    args.append([r[x] for x in what])
                else:
                    args.append([tuple(r[x] for x in g) for g in what])
            return args

        return build

    def _call(self, name: str, ops: tuple) -> Step:
        if name == "call":
            callee, arg_regs, result_regs = ops
            segments = None
        else:
            callee, segments, arg_regs, result_regs = ops
        target, label = self._callee(callee)
        build = self._arguments(segments, arg_regs)
        if (
            sum(1 if size < 0 else size * width for size, width in segments or ()) != len(arg_regs)
            and segments is not None
        ):
            raise VMError(f"INVALID_ARGUMENT; call to {label} has malformed variadic segments")
        results = [self.flat(x) for x in result_regs]
        return _call_step(target, label, build, results)

    # ---- terminators ------------------------------------------------------------------------
    def terminator(self, ins: Instruction, blocks: list[Block]) -> Callable:
        name, ops = ins.name, ins.operands
        if name == "return":
            regs = [self.flat(x) for x in ops[0]]
            return lambda r: tuple([r[x] for x in regs])
        if name == "br":
            return self._jump(ops[0], blocks)
        if name == "cond_br":
            c = self.flat(ops[0])
            on_true, on_false = self._jump(ops[1], blocks), self._jump(ops[2], blocks)
            return lambda r: on_true(r) if r[c] else on_false(r)
        if name == "fail":
            c, message = self.flat(ops[0]), ops[1]

            def fail(r):
                raise VMError(f"{semantics.status_name(r[c])}; {message}")

            return fail
        if name == "call.variadic.yieldable":
            callee, segments, arg_regs, block, dest_regs = ops
            if block >= len(blocks):
                raise VMError("INVALID_ARGUMENT; yieldable call resumes in a missing block")
            return self._yieldable(callee, segments, arg_regs, block, dest_regs, blocks)
        raise VMError(f"INVALID_ARGUMENT; '{name}' cannot end a block")

    def _jump(self, target: tuple, blocks: list[Block]) -> Callable:
        index, moves = target
        block = blocks[index]
        sources = [self.flat(s) for s, _ in moves]
        dests = [self.flat(d) for _, d in moves]
        if not moves:
            return lambda r: block
        if len(moves) == 1:
            s, d = sources[0], dests[0]

            def move_one(r):
                r[d] = r[s]
                return block

            return move_one
        pairs = list(zip(dests, sources, strict=True))

        def move_all(r):
            values = [r[s] for s in sources]
            for (d, _), v in zip(pairs, values, strict=True):
                r[d] = v
            return block

        return move_all

    def _yieldable(self, callee, segments, arg_regs, block_index, dest_regs, blocks) -> Callable:
        target, label = self._callee(callee)
        build = self._arguments(segments, arg_regs)
        step = _call_step(target, label, build, [self.flat(x) for x in dest_regs])
        block = blocks[block_index]

        def call_then_branch(r):
            step(r)
            return block

        return call_then_branch


def _call_step(target: Callable, label: str, build: Callable, results: list[int]) -> Step:
    if not results:

        def call_void(r):
            target(*build(r))

        return call_void
    if len(results) == 1:
        (d,) = results

        def call_one(r):
            value = target(*build(r))
            r[d] = value[0] if type(value) is tuple else value

        return call_one

    def call_many(r):
        values = target(*build(r))
        for d, v in zip(results, values, strict=True):
            r[d] = v

    return call_many
