"""Constants: `vm.const.{i32,i64,f32}`, the integer `.zero` forms, `vm.const.ref.zero` and
`vm.const.ref.rodata`.

Mirrors IREE's constant ops (`Dialect/VM/IR/VMOps.td`).
"""

from __future__ import annotations

from functools import cache
from typing import ClassVar

from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType, SymbolRefAttr, f32, i32, i64
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from ireelab.dialects.vm.symbols import symbol_ref
from ireelab.dialects.vm.syntax import parse_extra_attrs, print_extra_attrs
from ireelab.dialects.vm.types import BufferType


@cache
def _integer_attr(value: int, width: int) -> IntegerAttr:
    """`value : i<width>`, made once per value: a VM function holds hundreds of constants,
    most of them the same few numbers, and xDSL checks each attribute it makes."""
    return IntegerAttr(value, IntegerType(width))


class _ConstIntBase(IRDLOperation):
    """`%c = vm.const.i32 16`: IREE prints the bare number."""

    WIDTH: ClassVar[int]
    value = prop_def(IntegerAttr)
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, value: int):
        if type(value) is int:
            attr = _integer_attr(value, self.WIDTH)
        else:  # a bool or an IntAttr-like value: made as before, not shared
            attr = IntegerAttr(value, IntegerType(self.WIDTH))
        super().__init__(properties={"value": attr}, result_types=[attr.type])

    @classmethod
    def parse(cls, parser: Parser):
        op = cls(parser.parse_integer())
        parse_extra_attrs(parser, op, with_keyword=False)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.value.value.data}")
        print_extra_attrs(printer, self, with_keyword=False)


@irdl_op_definition
class ConstI32Op(_ConstIntBase):
    name = "vm.const.i32"
    WIDTH: ClassVar[int] = 32


@irdl_op_definition
class ConstI64Op(_ConstIntBase):
    name = "vm.const.i64"
    WIDTH: ClassVar[int] = 64


@irdl_op_definition
class ConstF32Op(IRDLOperation):
    """`%c = vm.const.f32 4.000000e+00` (IREE's EXT_F32): the bytecode holds its bits."""

    name = "vm.const.f32"
    value = prop_def(FloatAttr)
    result = result_def(f32)
    traits = traits_def(Pure())

    def __init__(self, value: float):
        super().__init__(properties={"value": FloatAttr(value, f32)}, result_types=[f32])

    @classmethod
    def parse(cls, parser: Parser):
        op = cls(parser.parse_float())
        parse_extra_attrs(parser, op, with_keyword=False)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_float(self.value.value.data, f32)
        print_extra_attrs(printer, self, with_keyword=False)


@irdl_op_definition
class ConstI32ZeroOp(IRDLOperation):
    name = "vm.const.i32.zero"
    result = result_def(i32)
    traits = traits_def(Pure())
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[i32])


@irdl_op_definition
class ConstI64ZeroOp(IRDLOperation):
    name = "vm.const.i64.zero"
    result = result_def(i64)
    traits = traits_def(Pure())
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[i64])


@irdl_op_definition
class ConstRefZeroOp(IRDLOperation):
    """`%null = vm.const.ref.zero : !vm.ref<!hal.fence>`: a null ref."""

    name = "vm.const.ref.zero"
    result = result_def()
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, type_: Attribute):
        super().__init__(result_types=[type_])


@irdl_op_definition
class ConstRefRodataOp(IRDLOperation):
    """`%b = vm.const.ref.rodata @name : !vm.buffer`: a ref to a rodata segment."""

    name = "vm.const.ref.rodata"
    rodata = prop_def(SymbolRefAttr)
    result = result_def(BufferType)
    traits = traits_def(Pure())
    assembly_format = "$rodata attr-dict `:` type($result)"

    def __init__(self, rodata: str):
        super().__init__(properties={"rodata": symbol_ref(rodata)}, result_types=[BufferType()])
