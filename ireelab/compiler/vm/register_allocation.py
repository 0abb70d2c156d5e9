"""Register allocation for `vm.func`s: every SSA value gets a register in its typed bank.

Mirrors IREE's `VM/Analysis/RegisterAllocation.cpp` in purpose (values -> i32/ref registers,
reusing a register once its value is dead) with a simpler method: block-level liveness by
dataflow, an interference graph, and greedy colouring in program order. Banks: i32 (i1,
booleans and f32 too), i64 (IREE pairs two i32 registers; here it is its own bank), and refs
(`!vm.ref<...>`, `!vm.buffer`). Block arguments are registers too; a branch moves its operands
into them as one parallel copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import Float32Type, IntegerType
from xdsl.ir import Attribute, Block, SSAValue

from ireelab.diagnostics import CompileError
from ireelab.dialects import vm
from ireelab.schemas.vm_opcodes import BANK_I32, BANK_I64, BANK_REF, BANK_SHIFT


def bank_of(type_: Attribute, where=None) -> int:
    if isinstance(type_, IntegerType) and type_.width.data in (1, 8, 16, 32):
        return BANK_I32
    if isinstance(type_, Float32Type):
        return BANK_I32  # IREE keeps f32 in the 32-bit register file too
    if isinstance(type_, IntegerType) and type_.width.data == 64:
        return BANK_I64
    if vm.is_ref(type_):
        return BANK_REF
    raise CompileError.at(where, f"the VM has no register for values of type {type_}", "vm")


@dataclass
class Allocation:
    registers: dict[SSAValue, int] = field(default_factory=dict)
    """Value -> tagged register (bank << 14 | index)."""
    counts: list[int] = field(default_factory=lambda: [0, 0, 0])
    """Registers used per bank (i32, i64, ref)."""


def _uses_and_defs(block: Block) -> tuple[set[SSAValue], set[SSAValue]]:
    uses: set[SSAValue] = set()
    defs: set[SSAValue] = set(block.args)
    for op in block.ops:
        uses.update(v for v in op.operands if v not in defs)
        defs.update(op.results)
    return uses, defs


def _successor_args(block: Block) -> list[Block]:
    terminator = block.last_op
    return list(terminator.successors) if terminator is not None else []


def liveness(blocks: list[Block]) -> dict[Block, set[SSAValue]]:
    """Live-out set of every block (values still needed after its terminator)."""
    info = {b: _uses_and_defs(b) for b in blocks}
    live_in: dict[Block, set[SSAValue]] = {b: set() for b in blocks}
    live_out: dict[Block, set[SSAValue]] = {b: set() for b in blocks}
    changed = True
    while changed:
        changed = False
        for block in reversed(blocks):
            out: set[SSAValue] = set()
            for succ in _successor_args(block):
                out |= live_in[succ] - set(succ.args)
            uses, defs = info[block]
            new_in = uses | (out - defs)
            if out != live_out[block] or new_in != live_in[block]:
                live_out[block], live_in[block] = out, new_in
                changed = True
    return live_out


class _Numbering:
    """Values as small integers: the function's definitions in allocation order (block
    arguments, then results, block by block), anything else after them. Sets of integers
    hash in C; `SSAValue.__hash__` is a Python call, which made the interference graph of a
    large function (an MLP's 130 weights live at once) most of the module write."""

    def __init__(self, blocks: list[Block]):
        self.values: list[SSAValue] = [
            v for b in blocks for v in (*b.args, *(r for op in b.ops for r in op.results))
        ]
        self._index: dict[int, int] = {id(v): k for k, v in enumerate(self.values)}

    def __call__(self, value: SSAValue) -> int:
        number = self._index.get(id(value))
        if number is None:
            number = self._index[id(value)] = len(self.values)
            self.values.append(value)
        return number

    def all(self, values) -> set[int]:
        return {self(v) for v in values}


def _interference(blocks: list[Block], number: _Numbering) -> list[set[int]]:
    """Neighbours of every numbered value: the values live where it is defined, and those
    defined where it is live. Earlier-numbered neighbours are what colouring looks at."""
    graph: list[set[int]] = [set() for _ in number.values]
    late: list[tuple[int, int]] = []
    """(a, b): b is numbered before a and interferes with it because a is live at b's
    definition (a block order in which a use comes before its definition's block)."""

    def add(a: int, live: set[int], defined_with: set[int]) -> None:
        """`a` interferes with the values `live` at its definition and with the others
        defined with it (an op's results, a block's arguments). Only the few of them
        numbered after `a` go to `late`: `max` over the live set runs in C, where testing
        each live value in Python made this most of the allocator on a large function."""
        while len(graph) < len(number.values):
            graph.append(set())
        neighbours = graph[a]
        neighbours |= live
        neighbours |= defined_with
        neighbours.discard(a)
        if live and max(live) > a:
            late.extend((b, a) for b in live if b > a)
        late.extend((b, a) for b in defined_with if b > a)

    for block, out in liveness(blocks).items():
        live = number.all(out)
        for op in reversed(list(block.ops)):
            results = number.all(op.results)
            for result in results:
                add(result, live, results)
            live -= results
            live |= number.all(op.operands)
        args = number.all(block.args)
        for arg in args:
            add(arg, live, args)
    for a, b in late:
        graph[a].add(b)
    return graph


def allocate_registers(func: vm.FuncOp) -> Allocation:
    """Greedy colouring in program order: each value takes the lowest register of its bank
    that no earlier-coloured neighbour holds."""
    blocks = list(func.body.blocks)
    number = _Numbering(blocks)
    defined = len(number.values)
    graph = _interference(blocks, number)
    allocation = Allocation()
    held: list[int | None] = [None] * len(number.values)
    for k in range(defined):
        value = number.values[k]
        bank = bank_of(value.type, value.owner if hasattr(value.owner, "name") else func)
        taken = set(map(held.__getitem__, graph[k]))  # in C: a large function's graph is big
        index = 0
        while (bank << BANK_SHIFT | index) in taken:
            index += 1
        held[k] = allocation.registers[value] = bank << BANK_SHIFT | index
        allocation.counts[bank] = max(allocation.counts[bank], index + 1)
    return allocation
