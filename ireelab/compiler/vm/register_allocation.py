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


def _interference(blocks: list[Block]) -> dict[SSAValue, set[SSAValue]]:
    graph: dict[SSAValue, set[SSAValue]] = {}

    def add(a: SSAValue, others) -> None:
        graph.setdefault(a, set())
        for b in others:
            if b is not a:
                graph[a].add(b)
                graph.setdefault(b, set()).add(a)

    for block, out in liveness(blocks).items():
        live = set(out)
        for op in reversed(list(block.ops)):
            for result in op.results:
                add(result, live | set(op.results))
            live -= set(op.results)
            live |= set(op.operands)
        for arg in block.args:
            add(arg, live | set(block.args))
    return graph


def allocate_registers(func: vm.FuncOp) -> Allocation:
    blocks = list(func.body.blocks)
    graph = _interference(blocks)
    allocation = Allocation()
    for block in blocks:
        values = list(block.args) + [r for op in block.ops for r in op.results]
        for value in values:
            bank = bank_of(value.type, value.owner if hasattr(value.owner, "name") else func)
            taken = {
                allocation.registers[n] for n in graph.get(value, ()) if n in allocation.registers
            }
            index = 0
            while (bank << BANK_SHIFT | index) in taken:
                index += 1
            allocation.registers[value] = bank << BANK_SHIFT | index
            allocation.counts[bank] = max(allocation.counts[bank], index + 1)
    return allocation
