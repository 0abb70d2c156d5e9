"""Host-side ops to the `vm` dialect: `arith` integers, f32 constants, arithmetic, rounding
and bitcasts (a scalar `f32` argument is bitcast to its i32 push constant; ONNX Resize
computes sizes from scales read back from a tensor with `math.floor`), `cf` branches, `util` globals,
calls, returns and status checks. Mirrors IREE's `VM/Conversion/ArithToVM`, `StandardToVM`
and `UtilToVM` patterns, written as one converter function per op.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith, cf
from xdsl.dialects.builtin import FloatAttr, IndexType, IntegerAttr, IntegerType, f32, i32, i64
from xdsl.ir import Operation, SSAValue

from ireelab.compiler.stream.index_constants import constant_value
from ireelab.compiler.vm.conversion_state import STAGE, ConversionState, convert_type
from ireelab.diagnostics import CompileError
from ireelab.dialects import util, vm

Converter = Callable[[Operation, ConversionState], None]


def _width(type_) -> str:
    return "i64" if type_ == i64 else "i32"


def _constant(op: arith.ConstantOp, s: ConversionState) -> None:
    value = op.value
    if isinstance(value, FloatAttr) and op.result.type == f32:
        s.map(op.result, s.emit(vm.ConstF32Op(value.value.data)).result)
        return
    if not isinstance(value, IntegerAttr) or not isinstance(
        op.result.type, IntegerType | IndexType
    ):
        raise CompileError.at(
            op, f"only integer and f32 constants reach the VM, not {value}", STAGE
        )
    number = value.value.data
    if isinstance(op.result.type, IntegerType) and op.result.type.width.data == 1:
        number = 1 if number else 0
    new_type = convert_type(op.result.type, op)
    s.map(op.result, s.const_i64(number) if new_type == i64 else s.const_i32(number))


_CMPI = {
    "eq": "eq", "ne": "ne", "slt": "lt.{w}.s", "sle": "lte.{w}.s", "sgt": "gt.{w}.s",
    "sge": "gte.{w}.s", "ult": "lt.{w}.u", "ule": "lte.{w}.u", "ugt": "gt.{w}.u",
    "uge": "gte.{w}.u",
}  # fmt: skip
_PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]


def _cmpi(op: arith.CmpiOp, s: ConversionState) -> None:
    lhs, rhs = s.get(op.lhs), s.get(op.rhs)
    width = _width(lhs.type)
    predicate = _PREDICATES[op.predicate.value.data]
    spelled = _CMPI[predicate]
    name = f"vm.cmp.{spelled.format(w=width)}" if "{w}" in spelled else f"vm.cmp.{spelled}.{width}"
    s.map(op.result, s.emit(vm.op_class(name)(lhs, rhs)).results[0])


_CMPF = {
    "oeq": ("eq.f32.o", False), "one": ("ne.f32.o", False), "olt": ("lt.f32.o", False),
    "ole": ("lte.f32.o", False), "ogt": ("lt.f32.o", True), "oge": ("lte.f32.o", True),
    "ueq": ("eq.f32.u", False), "une": ("ne.f32.u", False), "ult": ("lt.f32.u", False),
    "ule": ("lte.f32.u", False), "ugt": ("lt.f32.u", True), "uge": ("lte.f32.u", True),
}  # fmt: skip
"""`arith.cmpf` predicate -> (EXT_F32 compare, operands swapped?)."""
_CMPF_PREDICATES = [
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
]  # fmt: skip


def _cmpf(op: arith.CmpfOp, s: ConversionState) -> None:
    """`arith.cmpf` on f32 -> `vm.cmp.{eq,ne,lt,lte}.f32.{o,u}` (gt / ge swap the operands)."""
    lhs, rhs = s.get(op.lhs), s.get(op.rhs)
    predicate = _CMPF_PREDICATES[op.predicate.value.data]
    if lhs.type != f32 or predicate not in _CMPF:
        raise CompileError.at(
            op, f"'arith.cmpf {predicate}' on {lhs.type} has no VM equivalent", STAGE
        )
    name, swapped = _CMPF[predicate]
    if swapped:
        lhs, rhs = rhs, lhs
    s.map(op.result, s.emit(vm.op_class(f"vm.cmp.{name}")(lhs, rhs)).results[0])


def _binary(vm_op: str) -> Converter:
    def convert(op: Operation, s: ConversionState) -> None:
        lhs, rhs = s.get(op.operands[0]), s.get(op.operands[1])
        width = _width(lhs.type)
        base, _, sign = vm_op.partition(".")
        name = f"vm.{base}.{width}" + (f".{sign}" if sign else "")
        s.map(op.results[0], s.emit(vm.op_class(name)(lhs, rhs)).results[0])

    return convert


def _zero_one(s: ConversionState, w: str) -> tuple[SSAValue, SSAValue]:
    """The constants 0 and 1 of VM width `w`."""
    if w == "i64":
        return s.const_i64(0), s.const_i64(1)
    return s.const_i32(0), s.const_i32(1)


def _ceildivui(op: arith.CeilDivUIOp, s: ConversionState) -> None:
    """The VM has no ceiling division: `a == 0 ? 0 : (a - 1) / b + 1`, as MLIR's arith-expand
    rewrites it (a pack's outer sizes are computed on the host so)."""
    lhs, rhs = s.get(op.lhs), s.get(op.rhs)
    w = _width(lhs.type)
    zero, one = _zero_one(s, w)
    below = s.emit(vm.op_class(f"vm.sub.{w}")(lhs, one)).results[0]
    quotient = s.emit(vm.op_class(f"vm.div.{w}.u")(below, rhs)).results[0]
    up = s.emit(vm.op_class(f"vm.add.{w}")(quotient, one)).results[0]
    is_zero = s.emit(vm.op_class(f"vm.cmp.eq.{w}")(lhs, zero)).results[0]
    s.map(op.result, s.emit(vm.op_class(f"vm.select.{w}")(is_zero, zero, up)).results[0])


def _align(op: util.AlignOp, s: ConversionState) -> None:
    """`util.align %v, %a` -> `(v + (a - 1)) & ~(a - 1)` (IREE's UtilToVM), the mask folded
    when the alignment is a constant, as it always is for the slab layouts."""
    value, alignment = s.get(op.value), s.get(op.alignment)
    w = _width(value.type)
    const = s.const_i64 if w == "i64" else s.const_i32
    known = constant_value(op.alignment)
    if known is not None:
        bumped = s.emit(vm.op_class(f"vm.add.{w}")(value, const(known - 1))).results[0]
        mask = const(~(known - 1))
    else:
        below = s.emit(vm.op_class(f"vm.sub.{w}")(alignment, const(1))).results[0]
        bumped = s.emit(vm.op_class(f"vm.add.{w}")(value, below)).results[0]
        mask = s.emit(vm.op_class(f"vm.xor.{w}")(below, const(-1))).results[0]
    s.map(op.result, s.emit(vm.op_class(f"vm.and.{w}")(bumped, mask)).results[0])


def _floordivsi(op: arith.FloorDivSIOp, s: ConversionState) -> None:
    """The VM divides toward zero: one less where the remainder is not zero and its sign
    differs from the divisor's, as MLIR's arith-expand rewrites `floordivsi` (ONNX's
    CenterCropPad halves its padding so)."""
    lhs, rhs = s.get(op.lhs), s.get(op.rhs)
    w = _width(lhs.type)
    zero, one = _zero_one(s, w)
    quotient = s.emit(vm.op_class(f"vm.div.{w}.s")(lhs, rhs)).results[0]
    remainder = s.emit(vm.op_class(f"vm.rem.{w}.s")(lhs, rhs)).results[0]
    signs = s.emit(vm.op_class(f"vm.xor.{w}")(remainder, rhs)).results[0]
    differ = s.emit(vm.op_class(f"vm.cmp.lt.{w}.s")(signs, zero)).results[0]
    inexact = s.emit(vm.op_class(f"vm.cmp.ne.{w}")(remainder, zero)).results[0]
    adjust = s.emit(vm.op_class("vm.and.i32")(differ, inexact)).results[0]
    lower = s.emit(vm.op_class(f"vm.sub.{w}")(quotient, one)).results[0]
    s.map(op.result, s.emit(vm.op_class(f"vm.select.{w}")(adjust, lower, quotient)).results[0])


def _float_binary(vm_op: str) -> Converter:
    def convert(op: Operation, s: ConversionState) -> None:
        lhs, rhs = s.get(op.operands[0]), s.get(op.operands[1])
        if lhs.type != f32:
            raise CompileError.at(op, f"'{op.name}' on {lhs.type} has no VM equivalent", STAGE)
        s.map(op.results[0], s.emit(vm.op_class(f"vm.{vm_op}.f32")(lhs, rhs)).results[0])

    return convert


def _float_unary(vm_op: str) -> Converter:
    def convert(op: Operation, s: ConversionState) -> None:
        operand = s.get(op.operands[0])
        if operand.type != f32:
            raise CompileError.at(op, f"'{op.name}' on {operand.type} has no VM equivalent", STAGE)
        s.map(op.results[0], s.emit(vm.op_class(f"vm.{vm_op}")(operand)).results[0])

    return convert


def _bitcast(op: arith.BitcastOp, s: ConversionState) -> None:
    """`arith.bitcast` between f32 and i32 -> `vm.bitcast.f32.i32` / `vm.bitcast.i32.f32`."""
    source = s.get(op.operands[0])
    target = convert_type(op.results[0].type, op)
    names = {(f32, i32): "vm.bitcast.f32.i32", (i32, f32): "vm.bitcast.i32.f32"}
    name = names.get((source.type, target))
    if name is None:
        raise CompileError.at(
            op, f"bitcast from {source.type} to {target} has no VM equivalent", STAGE
        )
    s.map(op.results[0], s.emit(vm.op_class(name)(source, target)).results[0])


def _int_to_float(op: Operation, s: ConversionState) -> None:
    """`arith.sitofp` / `uitofp` of an i32 or i64 to f32 -> `vm.cast.{s,u}i{32,64}.f32`."""
    source = s.get(op.operands[0])
    target = convert_type(op.results[0].type, op)
    if target != f32 or source.type not in (i32, i64):
        raise CompileError.at(
            op, f"'{op.name}' from {source.type} to {target} has no VM equivalent", STAGE
        )
    sign = "u" if op.name == "arith.uitofp" else "s"
    name = f"vm.cast.{sign}i{source.type.width.data}.f32"
    s.map(op.results[0], s.emit(vm.op_class(name)(source, target)).results[0])


def _select(op: arith.SelectOp, s: ConversionState) -> None:
    cond, lhs, rhs = (s.get(v) for v in op.operands)
    kind = "ref" if vm.is_ref(lhs.type) else _width(lhs.type)
    s.map(op.result, s.emit(vm.op_class(f"vm.select.{kind}")(cond, lhs, rhs)).results[0])


def _cast(op: Operation, s: ConversionState) -> None:
    """index_cast / extsi / extui / trunci between the VM's i32 and i64. An i8 or i16 lives
    in an i32 register, so extending one first extends its low bits within the register
    (`vm.ext.i8.i32.u`, as IREE emits after a `hal.buffer.load` of one byte)."""
    source = s.get(op.operands[0])
    target = convert_type(op.results[0].type, op)
    narrow = op.operands[0].type
    if op.name in ("arith.extsi", "arith.extui") and narrow.width.data in (8, 16):
        sign = "u" if op.name == "arith.extui" else "s"
        widen = vm.op_class(f"vm.ext.i{narrow.width.data}.i32.{sign}")(source, i32)
        source = s.emit(widen).results[0]
    if source.type == target:
        s.map(op.results[0], source)
        return
    if target == i64:
        unsigned = op.name in ("arith.extui", "arith.index_castui")
        name = "vm.ext.i32.i64.u" if unsigned else "vm.ext.i32.i64.s"
        s.map(op.results[0], s.emit(vm.op_class(name)(source, i64)).results[0])
        return
    s.map(op.results[0], s.emit(vm.op_class("vm.trunc.i64.i32")(source, i32)).results[0])


def _branch_args(operands, s: ConversionState) -> list[SSAValue]:
    return [s.get(v) for v in operands]


def _br(op: cf.BranchOp, s: ConversionState) -> None:
    s.emit(vm.BranchOp(s.blocks[op.successor], _branch_args(op.arguments, s)))


def _cond_br(op: cf.ConditionalBranchOp, s: ConversionState) -> None:
    s.emit(
        vm.CondBranchOp(
            s.get(op.cond),
            s.blocks[op.then_block],
            _branch_args(op.then_arguments, s),
            s.blocks[op.else_block],
            _branch_args(op.else_arguments, s),
        )
    )


def _global_kind(type_) -> str:
    return "ref" if vm.is_ref(type_) else _width(type_)


def _global_load(op: util.GlobalLoadOp, s: ConversionState) -> None:
    name = op.global_.root_reference.data
    kind = s.global_kinds.get(name)
    if kind is None:
        raise CompileError.at(op, f"util.global.load of unknown global @{name}", STAGE)
    cls = vm.op_class(f"vm.global.load.{kind}")
    s.map(op.result, s.emit(cls(name, convert_type(op.result.type, op))).results[0])


def _global_store(op: util.GlobalStoreOp, s: ConversionState) -> None:
    name = op.global_.root_reference.data
    kind = s.global_kinds.get(name)
    if kind is None:
        raise CompileError.at(op, f"util.global.store to unknown global @{name}", STAGE)
    s.emit(vm.op_class(f"vm.global.store.{kind}")(s.get(op.value), name))


def _null(op: util.NullOp, s: ConversionState) -> None:
    type_ = convert_type(op.result.type, op)
    if vm.is_ref(type_):
        s.map(op.result, s.null(type_))
    else:
        s.map(op.result, s.const_i64(0) if type_ == i64 else s.const_i32(0))


def _cmp_eq(op: util.CmpEQOp, s: ConversionState) -> None:
    lhs, rhs = s.get(op.lhs), s.get(op.rhs)
    kind = "ref" if vm.is_ref(lhs.type) else _width(lhs.type)
    s.map(op.result, s.emit(vm.op_class(f"vm.cmp.eq.{kind}")(lhs, rhs)).results[0])


def _check_ok(op: util.StatusCheckOkOp, s: ConversionState) -> None:
    """`util.status.check_ok %s, "msg"` -> branch to a `vm.fail` block when nonzero."""
    status = s.get(op.status)
    fail_block = s.split()
    rest = s.split()
    s.emit(vm.CondBranchOp(status, fail_block, [], rest, []))
    message = op.message.data if op.message is not None else ""
    fail_block.add_op(vm.FailOp(status, message))
    s.block = rest


def _call(op: util.CallOp, s: ConversionState) -> None:
    callee = op.callee.root_reference.data
    results = [convert_type(r.type, op) for r in op.results]
    call = s.emit(vm.CallOp(callee, [s.get(a) for a in op.operands], results))
    for old, new in zip(op.results, call.results, strict=True):
        s.map(old, new)


def _return(op: util.ReturnOp, s: ConversionState) -> None:
    if s.return_target is not None:
        s.emit(vm.BranchOp(s.return_target))
        return
    s.emit(vm.ReturnOp([s.get(v) for v in op.operands]))


def _buffer_constant(op: util.BufferConstantOp, s: ConversionState) -> None:
    """Constant bytes -> a `vm.rodata` segment and `vm.const.ref.rodata` (IREE's UtilToVM)."""
    s.map(op.result, s.constant_rodata(op))


def _optimization_barrier(op: util.OptimizationBarrierOp, s: ConversionState) -> None:
    """A scalar barrier that reached the VM passes its registers through (IREE's
    `vm.optimization_barrier` does nothing at run time either)."""
    for operand, result in zip(op.operands_, op.results_, strict=True):
        s.map(result, s.get(operand))


HOST_CONVERTERS: dict[str, Converter] = {
    "arith.constant": _constant,
    "arith.cmpi": _cmpi,
    "arith.cmpf": _cmpf,
    "arith.addi": _binary("add"),
    "arith.subi": _binary("sub"),
    "arith.muli": _binary("mul"),
    "arith.divsi": _binary("div.s"),
    "arith.divui": _binary("div.u"),
    "arith.ceildivui": _ceildivui,
    "arith.floordivsi": _floordivsi,
    "arith.remsi": _binary("rem.s"),
    "arith.remui": _binary("rem.u"),
    "arith.andi": _binary("and"),
    "arith.ori": _binary("or"),
    "arith.xori": _binary("xor"),
    "arith.shli": _binary("shl"),
    "arith.shrsi": _binary("shr.s"),
    "arith.shrui": _binary("shr.u"),
    "arith.minsi": _binary("min.s"),
    "arith.minui": _binary("min.u"),
    "arith.maxsi": _binary("max.s"),
    "arith.maxui": _binary("max.u"),
    "arith.addf": _float_binary("add"),
    "arith.subf": _float_binary("sub"),
    "arith.mulf": _float_binary("mul"),
    "arith.divf": _float_binary("div"),
    "arith.negf": _float_unary("neg.f32"),
    "math.absf": _float_unary("abs.f32"),
    "math.ceil": _float_unary("ceil.f32"),
    "math.floor": _float_unary("floor.f32"),
    "math.round": _float_unary("round.f32"),
    "math.roundeven": _float_unary("round.f32.even"),
    "math.sqrt": _float_unary("sqrt.f32"),
    "arith.bitcast": _bitcast,
    "arith.select": _select,
    "arith.sitofp": _int_to_float,
    "arith.uitofp": _int_to_float,
    "arith.index_cast": _cast,
    "arith.index_castui": _cast,
    "arith.extsi": _cast,
    "arith.extui": _cast,
    "arith.trunci": _cast,
    "cf.br": _br,
    "cf.cond_br": _cond_br,
    "util.global.load": _global_load,
    "util.global.store": _global_store,
    "util.null": _null,
    "util.buffer.constant": _buffer_constant,
    "util.cmp.eq": _cmp_eq,
    "util.status.check_ok": _check_ok,
    "util.optimization_barrier": _optimization_barrier,
    "util.align": _align,
    "util.call": _call,
    "util.return": _return,
}
