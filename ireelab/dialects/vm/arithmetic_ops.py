"""Integer arithmetic, comparison, selection and casts: `vm.add.i32`, `vm.cmp.lt.i64.s`,
`vm.select.ref`, `vm.ext.i8.i32.s`, ...; and the f32 extension's arithmetic and bitcasts
(`vm.mul.f32`, `vm.floor.f32`, `vm.bitcast.f32.i32`), which scalar `f32` function arguments
and host math on elements read back from tensors need.

Mirrors IREE's arithmetic op families (`Dialect/VM/IR/VMOps.td`). Each family shares one
format, so one base class per family is written here and one op class per IREE op name is
generated from it (`vm.add.i32` -> `AddI32Op`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import i32
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure

from ireelab.schemas.vm_opcodes import FLOAT_COMPARE, FLOAT_UNARY, INT_BINARY, INT_COMPARE


class _BinaryBase(IRDLOperation):
    T: ClassVar = VarConstraint("T", AnyAttr())
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[lhs, rhs], result_types=[lhs.type])


class _UnaryBase(IRDLOperation):
    T: ClassVar = VarConstraint("T", AnyAttr())
    operand = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "$operand attr-dict `:` type($result)"

    def __init__(self, operand: SSAValue):
        super().__init__(operands=[operand], result_types=[operand.type])


class _CompareBase(IRDLOperation):
    T: ClassVar = VarConstraint("T", AnyAttr())
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(i32)
    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs)"

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[lhs, rhs], result_types=[i32])


class _UnaryTestBase(IRDLOperation):
    operand = operand_def()
    result = result_def(i32)
    traits = traits_def(Pure())
    assembly_format = "$operand attr-dict `:` type($operand)"

    def __init__(self, operand: SSAValue):
        super().__init__(operands=[operand], result_types=[i32])


class _SelectBase(IRDLOperation):
    T: ClassVar = VarConstraint("T", AnyAttr())
    condition = operand_def(i32)
    true_value = operand_def(T)
    false_value = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "$condition `,` $true_value `,` $false_value attr-dict `:` type($result)"

    def __init__(self, condition: SSAValue, true_value: SSAValue, false_value: SSAValue):
        super().__init__(
            operands=[condition, true_value, false_value], result_types=[true_value.type]
        )


class _CastBase(IRDLOperation):
    operand = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    assembly_format = "$operand attr-dict `:` type($operand) `->` type($result)"

    def __init__(self, operand: SSAValue, result_type: Attribute):
        super().__init__(operands=[operand], result_types=[result_type])


def _family(base: type, names: Sequence[str]) -> list[type[IRDLOperation]]:
    """One op class per IREE op name of a family (`vm.add.i32` -> `AddI32Op`)."""
    classes = []
    for op_name in names:
        words = op_name.removeprefix("vm.").replace(".", "_").split("_")
        class_name = "".join(w.capitalize() for w in words) + "Op"
        cls = irdl_op_definition(
            type(class_name, (base,), {"name": op_name, "__module__": __name__})
        )
        globals()[class_name] = cls
        classes.append(cls)
    return classes


_INT_BINARY = [f"vm.{name}" for name in INT_BINARY]
_INT_COMPARE = [f"vm.{name}" for name in INT_COMPARE]
_FLOAT_BINARY = ["vm.add.f32", "vm.sub.f32", "vm.mul.f32", "vm.div.f32"]
"""IREE's EXT_F32 arithmetic (f32 values live in i32 registers, as in IREE)."""
_FLOAT_UNARY = [f"vm.{name}" for name in FLOAT_UNARY]
_UNARY_TEST = ["vm.cmp.nz.i32", "vm.cmp.nz.i64", "vm.cmp.nz.ref"]
_SELECT = ["vm.select.i32", "vm.select.i64", "vm.select.ref"]
_CASTS = [
    "vm.ext.i32.i64.s",
    "vm.ext.i32.i64.u",
    "vm.trunc.i64.i32",
    "vm.ext.i8.i32.s",
    "vm.ext.i8.i32.u",
    "vm.ext.i16.i32.s",
    "vm.ext.i16.i32.u",
    "vm.trunc.i32.i8",
    "vm.trunc.i32.i16",
    "vm.bitcast.f32.i32",
    "vm.bitcast.i32.f32",
    "vm.cast.si32.f32",
    "vm.cast.ui32.f32",
    "vm.cast.si64.f32",
    "vm.cast.ui64.f32",
]

ARITHMETIC_OPS = (
    _family(_BinaryBase, _INT_BINARY)
    + _family(_BinaryBase, _FLOAT_BINARY)
    + _family(_UnaryBase, _FLOAT_UNARY)
    + _family(_CompareBase, _INT_COMPARE)
    + _family(_CompareBase, [f"vm.{name}" for name in FLOAT_COMPARE])
    + _family(_UnaryTestBase, _UNARY_TEST)
    + _family(_SelectBase, _SELECT)
    + _family(_CastBase, _CASTS)
)
"""The generated integer op classes (`AddI32Op`, `CmpLtI64SOp`, `SelectRefOp`, ...)."""
