"""PackDispatchOperandsPass: dispatch operands become 32-bit push constants.

Mirrors IREE's `iree-stream-pack-dispatch-operands` (Stream/Transforms/PackDispatchOperands.cpp).
The HAL passes operands to kernels as 32-bit push constants, so every `index` operand of a
`stream.cmd.dispatch` is split into two `i32`s (low and high word; index is 64-bit on the
host), `i32` operands pass as they are. Inside the dispatch function the value is rebuilt:
`extui` both words to i64, shift the high one by 32, `ori`, cast to index. Constant operands
are split at compile time.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, i32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.stream.dispatch_sites import (
    annotate_alignment,
    dispatch_sites,
    set_function_type,
)
from ireelab.compiler.stream.index_constants import constant_value
from ireelab.compiler.stream.schedule_allocation import ALIGNMENT
from ireelab.diagnostics import CompileError
from ireelab.dialects import stream

MASK32 = 0xFFFFFFFF


def _const(value: int, ty) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, ty))


def _split(value: SSAValue, before: Operation) -> list[SSAValue]:
    """An index value as (low, high) i32 words, computed before `before`."""
    known = constant_value(value)
    if known is not None:
        lo, hi = _const(known & MASK32, i32), _const((known >> 32) & MASK32, i32)
        Rewriter.insert_op([lo, hi], InsertPoint.before(before))
        return [lo.result, hi.result]
    wide = arith.IndexCastOp(value, i64)
    lo = arith.TruncIOp(wide.result, i32)
    shift = _const(32, i64)
    high = arith.ShRUIOp(wide.result, shift.result)
    hi = arith.TruncIOp(high.result, i32)
    Rewriter.insert_op([wide, lo, shift, high, hi], InsertPoint.before(before))
    return [lo.result, hi.result]


def _host_op(op: Operation) -> Operation:
    """The `stream.cmd.execute` (host-level op) that records `op`."""
    while not isinstance(op, stream.CmdExecuteOp):
        parent = op.parent_op()
        if parent is None:
            return op
        op = parent
    return op


def _pack_site(site: stream.CmdDispatchOp) -> None:
    packed: list[SSAValue] = []
    for value in site.uniform_operands:
        if isinstance(value.type, IndexType):
            packed.extend(_split(value, _host_op(site)))
        elif value.type == i32:
            packed.append(value)
        else:
            raise CompileError.at(site, f"dispatch operand of type {value.type} is not supported")
    new = stream.CmdDispatchOp(
        site.entry_point,
        packed,
        [(a, r, s, o, n) for a, r, s, o, n in site.bindings()],
        list(site.workload),
    )
    Rewriter.replace_op(site, new)


def _unpack_function(fn: func.FuncOp) -> None:
    block = fn.body.block
    for arg in [a for a in block.args if isinstance(a.type, IndexType)]:
        lo = block.insert_arg(i32, arg.index)
        hi = block.insert_arg(i32, arg.index + 1)
        ops = [
            arith.ExtUIOp(lo, i64),
            arith.ExtUIOp(hi, i64),
            _const(32, i64),
        ]
        shifted = arith.ShLIOp(ops[1].result, ops[2].result)
        joined = arith.OrIOp(ops[0].result, shifted.result)
        value = arith.IndexCastOp(joined.result, IndexType())
        Rewriter.insert_op([*ops, shifted, joined, value], InsertPoint.at_start(block))
        arg.replace_all_uses_with(value.result)
        block.erase_arg(arg)
    set_function_type(fn)
    annotate_alignment(fn, ALIGNMENT)


@dataclass(frozen=True)
class PackDispatchOperandsPass(ModulePass):
    """Splits index dispatch operands into i32 push constants on both sides."""

    name = "iree-stream-pack-dispatch-operands"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn, sites in dispatch_sites(op):
            for site in sites:
                _pack_site(site)
            _unpack_function(fn)
