"""PackDispatchOperandsPass: dispatch operands become 32-bit push constants.

Mirrors IREE's `iree-stream-pack-dispatch-operands` (Stream/Transforms/PackDispatchOperands.cpp).
The HAL passes operands to kernels as 32-bit push constants, so every scalar operand of a
`stream.cmd.dispatch` becomes one or two `i32`s, on the host right before the
`stream.cmd.execute`, in the same steps IREE takes:

- `index` is cast to i64 (index is 64-bit on the host);
- a float is bitcast to the integer of its width (`arith.bitcast %s : f32 to i32`);
- an integer narrower than 32 bits is zero-extended to i32;
- an i64 is split into its low and high words (`trunci`, `shrui 32` + `trunci`).

Inside the dispatch function each operand's argument(s) become i32 and the value is rebuilt in
reverse: `extui` both words to i64, shift the high one by 32, `ori`; then `index_cast` back to
index, `trunci` to a narrow integer, or `bitcast` back to the float type. Constant integer
operands are split at compile time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerAttr, IntegerType, ModuleOp, i32, i64
from xdsl.ir import Attribute, Block, Operation, SSAValue
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
STAGE = "stream"


def _const(value: int, ty) -> arith.ConstantOp:
    return arith.ConstantOp(_integer_attr(value, ty))


@cache
def _integer_attr(value: int, ty: IntegerType) -> IntegerAttr:
    """`value : ty`, made once per value: every dispatch of a model splits the same few
    offsets into words, and xDSL checks each attribute it makes."""
    return IntegerAttr(value, ty)


def _bit_width(ty: Attribute) -> int | None:
    """Bits of a scalar operand type (index counts as 64), None for other types."""
    if isinstance(ty, IndexType):
        return 64
    if isinstance(ty, IntegerType):
        return ty.width.data
    if isinstance(ty, AnyFloat):
        return ty.bitwidth
    return None


def _split_constant(known: int, width: int) -> list[arith.ConstantOp]:
    if width <= 32:
        return [_const(known & MASK32, i32)]
    return [_const(known & MASK32, i32), _const((known >> 32) & MASK32, i32)]


def _decompose(value: SSAValue, before: Operation, site: Operation) -> list[SSAValue]:
    """`value` as one or two i32 words, computed before `before` (IREE's
    convertAndDecomposeToI32s)."""
    width = _bit_width(value.type)
    if width is None or width > 64:
        raise CompileError.at(
            site, f"dispatch operand of type {value.type} is not supported", STAGE
        )
    known = constant_value(value) if not isinstance(value.type, AnyFloat) else None
    if known is not None:
        consts = _split_constant(known, width)
        Rewriter.insert_op(consts, InsertPoint.before(before))
        return [c.result for c in consts]
    ops: list[Operation] = []
    if isinstance(value.type, IndexType):
        ops.append(arith.IndexCastOp(value, i64))
    elif isinstance(value.type, AnyFloat):
        ops.append(arith.BitcastOp(value, IntegerType(width)))
    if width < 32:
        ops.append(arith.ExtUIOp(ops[-1].results[0] if ops else value, i32))
    elif 32 < width < 64:
        ops.append(arith.ExtUIOp(ops[-1].results[0] if ops else value, i64))
    word = ops[-1].results[0] if ops else value
    if word.type != i64:
        Rewriter.insert_op(ops, InsertPoint.before(before))
        return [word]
    lo = arith.TruncIOp(word, i32)
    shift = _const(32, i64)
    high = arith.ShRUIOp(word, shift.result)
    hi = arith.TruncIOp(high.result, i32)
    Rewriter.insert_op([*ops, lo, shift, high, hi], InsertPoint.before(before))
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
        if value.type == i32:
            packed.append(value)
            continue
        packed.extend(_decompose(value, _host_op(site), site))
    new = stream.CmdDispatchOp(
        site.entry_point,
        packed,
        [(a, r, s, o, n) for a, r, s, o, n in site.bindings()],
        list(site.workload),
    )
    Rewriter.replace_op(site, new)


def _recompose(block: Block, position: int, ty: Attribute) -> tuple[list[Operation], SSAValue]:
    """The i32 argument(s) now at `position` rebuilt into a value of type `ty` (IREE's
    recomposeFromI32sAndConvert); returns the ops to insert and the value."""
    width = _bit_width(ty)
    assert width is not None
    ops: list[Operation] = []
    if width > 32:
        lo, hi = block.args[position], block.args[position + 1]
        wide_lo, wide_hi, shift = arith.ExtUIOp(lo, i64), arith.ExtUIOp(hi, i64), _const(32, i64)
        shifted = arith.ShLIOp(wide_hi.result, shift.result)
        joined = arith.OrIOp(wide_lo.result, shifted.result)
        ops += [wide_lo, wide_hi, shift, shifted, joined]
        value = joined.result
    else:
        value = block.args[position]
    if isinstance(ty, IndexType):
        ops.append(arith.IndexCastOp(value, IndexType()))
    elif width < 32:
        ops.append(arith.TruncIOp(value, IntegerType(width)))
    if isinstance(ty, AnyFloat):
        ops.append(arith.BitcastOp(ops[-1].results[0] if ops else value, ty))
    return ops, ops[-1].results[0] if ops else value


def _unpack_function(fn: func.FuncOp) -> None:
    block = fn.body.block
    scalars = [a for a in block.args if not isinstance(a.type, stream.BindingType)]
    prologue: list[Operation] = []
    for arg in scalars:
        if arg.type == i32:
            continue
        words = 2 if (_bit_width(arg.type) or 0) > 32 else 1
        for _ in range(words):
            block.insert_arg(i32, arg.index)
        ops, value = _recompose(block, arg.index - words, arg.type)
        prologue += ops
        arg.replace_all_uses_with(value)
        block.erase_arg(arg)
    Rewriter.insert_op(prologue, InsertPoint.at_start(block))
    set_function_type(fn)
    annotate_alignment(fn, ALIGNMENT)


@dataclass(frozen=True)
class PackDispatchOperandsPass(ModulePass):
    """Turns scalar dispatch operands into i32 push constants on both sides."""

    name = "iree-stream-pack-dispatch-operands"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn, sites in dispatch_sites(op):
            for site in sites:
                _pack_site(site)
            _unpack_function(fn)
