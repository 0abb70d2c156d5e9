"""FoldUniformOperandsPass: operands every dispatch site passes alike become constants.

Mirrors IREE's `iree-stream-fold-uniform-operands` (Stream/Transforms/FoldUniformOperands.cpp).
When every `stream.cmd.dispatch` of an export passes the same constant for an operand, the
operand is dropped at the sites and the dispatch function uses an `arith.constant` instead;
the integer arithmetic that only depends on constants (PackDispatchOperandsPass's unpacking,
FuseDispatchBindingsPass's offset additions) is then folded, as IREE's canonicalizer does. So
a dispatch called at one place with fixed offsets ends with `stream.binding.subspan %b[%c1048576]`
and no push constants, as in the reference stream IR. (IREE also merges operands that are
equal to each other at every site; that is not modelled.)
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.stream.dispatch_sites import (
    annotate_alignment,
    dispatch_sites,
    set_function_type,
)
from ireelab.compiler.stream.index_constants import constant_value
from ireelab.compiler.stream.schedule_allocation import ALIGNMENT
from ireelab.dialects import stream


def _uniform_constants(sites: list[stream.CmdDispatchOp]) -> dict[int, int]:
    """Operand position -> the constant all sites pass there."""
    found: dict[int, int] = {}
    for position in range(len(sites[0].uniform_operands)):
        values = {constant_value(site.uniform_operands[position]) for site in sites}
        if len(values) == 1 and None not in values:
            found[position] = values.pop()
    return found


def _drop_site_operands(site: stream.CmdDispatchOp, positions: set[int]) -> None:
    kept = [v for i, v in enumerate(site.uniform_operands) if i not in positions]
    new = stream.CmdDispatchOp(site.entry_point, kept, site.bindings(), list(site.workload))
    Rewriter.replace_op(site, new)


def _inline_constants(fn: func.FuncOp, constants: dict[int, int]) -> None:
    block = fn.body.block
    operand_args = [a for a in block.args if not isinstance(a.type, stream.BindingType)]
    for position, value in sorted(constants.items(), reverse=True):
        arg = operand_args[position]
        const = arith.ConstantOp(IntegerAttr(value, arg.type))
        Rewriter.insert_op(const, InsertPoint.at_start(block))
        arg.replace_all_uses_with(const.result)
        block.erase_arg(arg)
    set_function_type(fn)
    annotate_alignment(fn, ALIGNMENT)


_BINARY = {
    arith.ShLIOp: lambda a, b: a << b,
    arith.OrIOp: lambda a, b: a | b,
    arith.AddiOp: lambda a, b: a + b,
}


def _fold(op: Operation) -> int | None:
    """The constant `op` computes, when all its operands are constants."""
    values = [constant_value(v) for v in op.operands]
    if None in values or not values:
        return None
    if isinstance(op, arith.ExtUIOp | arith.IndexCastOp):
        return values[0]
    fn = _BINARY.get(type(op))
    return fn(*values) if fn is not None else None


def _wrap(value: int, ty) -> int:
    if isinstance(ty, IntegerType):
        return value & ((1 << ty.width.data) - 1)
    return value


def fold_integer_arith(fn: func.FuncOp) -> None:
    for op in list(fn.walk()):
        if not isinstance(op, (arith.ExtUIOp, arith.IndexCastOp, *_BINARY)):
            continue
        value = _fold(op)
        if value is None:
            continue
        ty = op.results[0].type
        const = arith.ConstantOp(IntegerAttr(_wrap(value, ty), ty))
        if isinstance(ty, IndexType):
            const.result.name_hint = f"c{value}"
        Rewriter.replace_op(op, const)
    _merge_constants(fn)


def _merge_constants(fn: func.FuncOp) -> None:
    """One constant per value and type at the top of the function; unused ones go."""
    block = fn.body.block
    first: dict[tuple[object, object], arith.ConstantOp] = {}
    for op in list(fn.walk()):
        if not isinstance(op, arith.ConstantOp) or not isinstance(op.value, IntegerAttr):
            continue
        if not op.result.uses:
            Rewriter.erase_op(op)
            continue
        key = (op.value.value.data, op.result.type)
        kept = first.get(key)
        if kept is None:
            first[key] = op
            op.detach()
            Rewriter.insert_op(op, InsertPoint.at_start(block))
            continue
        op.result.replace_all_uses_with(kept.result)
        Rewriter.erase_op(op)


def _erase_unused(values) -> None:
    for value in values:
        op = value.owner
        if isinstance(op, arith.ConstantOp) and not op.result.uses:
            Rewriter.erase_op(op)


@dataclass(frozen=True)
class FoldUniformOperandsPass(ModulePass):
    """Turns operands that are the same constant at every site into constants in the kernel."""

    name = "iree-stream-fold-uniform-operands"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn, sites in dispatch_sites(op):
            constants = _uniform_constants(sites)
            dropped = [v for site in sites for v in site.uniform_operands]
            for site in sites:
                _drop_site_operands(site, set(constants))
            _erase_unused(dict.fromkeys(dropped))
            _inline_constants(fn, constants)
            fold_integer_arith(fn)
