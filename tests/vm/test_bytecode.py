"""Bytecode: register allocation reuses registers, every instruction encodes and decodes."""

from __future__ import annotations

from ireelab.compiler.vm.bytecode import SymbolOrdinals, encode_function
from ireelab.compiler.vm.register_allocation import allocate_registers
from ireelab.dialects import vm
from ireelab.runtime.vm.decoder import decode_function
from ireelab.schemas.vm_opcodes import BANK_SHIFT


def _funcs(module) -> list[vm.FuncOp]:
    (vm_module,) = [op for op in module.body.ops if isinstance(op, vm.ModuleOp)]
    return [op for op in vm_module.body.ops if isinstance(op, vm.FuncOp)]


def _symbols(module) -> SymbolOrdinals:
    (m,) = [op for op in module.body.ops if isinstance(op, vm.ModuleOp)]
    ops = list(m.body.ops)
    funcs = [o for o in ops if isinstance(o, vm.FuncOp)]
    imports = [o for o in ops if isinstance(o, vm.ImportOp)]
    rodata = [o for o in ops if isinstance(o, vm.RodataOp)]
    globals_ = [o for o in ops if isinstance(o, vm.GlobalRefOp | vm.GlobalI32Op | vm.GlobalI64Op)]
    return SymbolOrdinals(
        {f.sym_name.data: i for i, f in enumerate(funcs)},
        {f.sym_name.data: i for i, f in enumerate(imports)},
        {r.sym_name.data: i for i, r in enumerate(rodata)},
        {g.sym_name.data: i for i, g in enumerate(globals_)},
    )


def test_registers_are_reused(converted_module):
    # Values whose lifetimes do not overlap share registers: far fewer registers than values.
    for func in _funcs(converted_module):
        allocation = allocate_registers(func)
        values = len(allocation.registers)
        assert sum(allocation.counts) < values


def test_live_values_never_share_a_register(converted_module):
    # Within a block, a value's register is not overwritten while the value is still needed.
    for func in _funcs(converted_module):
        regs = allocate_registers(func).registers
        for block in func.body.blocks:
            ops = list(block.ops)
            for i, op in enumerate(ops):
                for result in op.results:
                    later_uses = [j for j, o in enumerate(ops) if result in o.operands and j > i]
                    if not later_uses:
                        continue
                    last = max(later_uses)
                    for other in ops[i + 1 : last]:
                        for r in other.results:
                            assert regs[r] != regs[result], (func.sym_name.data, str(op))


def test_every_instruction_round_trips(converted_module):
    # Decoding the encoded function gives back one instruction per op, same names, in order.
    symbols = _symbols(converted_module)
    for func in _funcs(converted_module):
        encoded = encode_function(func, symbols)
        decoded = decode_function(
            encoded.name, encoded.code, encoded.register_counts, encoded.block_count
        )
        expected = [[op.name.removeprefix("vm.") for op in b.ops] for b in func.body.blocks]
        assert [[i.name for i in b] for b in decoded.blocks] == expected
        assert len(decoded.arguments) == len(func.function_type.inputs.data)


def _interfere(blocks) -> set[frozenset]:
    # Every pair of values live at one point (right after a definition, or at a block's
    # start), from the liveness sets: the definition of interference, pair by pair.
    from ireelab.compiler.vm.register_allocation import liveness

    pairs: set[frozenset] = set()
    for block, out in liveness(blocks).items():
        live = set(out)
        for op in reversed(list(block.ops)):
            here = live | set(op.results)
            pairs |= {frozenset((r, v)) for r in op.results for v in here if v is not r}
            live = (live - set(op.results)) | set(op.operands)
        here = live | set(block.args)
        pairs |= {frozenset((a, v)) for a in block.args for v in here if v is not a}
    return pairs


def test_interfering_values_get_distinct_registers(converted_module):
    # Across blocks too (loop-carried values, branch arguments); and every register is the
    # lowest free one, so the colouring is the greedy one in program order.
    for func in _funcs(converted_module):
        blocks = list(func.body.blocks)
        regs = allocate_registers(func).registers
        pairs = _interfere(blocks)
        assert all(regs[a] != regs[b] for a, b in map(tuple, pairs))
        order = [v for b in blocks for v in (*b.args, *(r for op in b.ops for r in op.results))]
        seen: set = set()
        for value in order:
            taken = {regs[n] for n in seen if frozenset((value, n)) in pairs}
            lower = range(regs[value] >> BANK_SHIFT << BANK_SHIFT, regs[value])
            assert all(r in taken for r in lower), str(value)
            seen.add(value)
