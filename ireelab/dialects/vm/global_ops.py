"""Module globals: `vm.global.{ref,i32,i64}` and their loads and stores.

Mirrors IREE's global ops (`Dialect/VM/IR/VMOps.td`): `util.global`s such as the device and
the loaded executables become typed VM globals, read and written by the initializer and the
exported functions.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    IntegerAttr,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import SymbolOpInterface

from ireelab.dialects.vm.symbols import symbol_ref
from ireelab.dialects.vm.syntax import (
    parse_extra_attrs,
    parse_visibility,
    print_extra_attrs,
    print_visibility,
)


class _GlobalBase(IRDLOperation):
    sym_name = prop_def(SymbolNameConstraint())
    sym_visibility = opt_prop_def(StringAttr)
    type = prop_def(AnyAttr())
    is_mutable = opt_prop_def(UnitAttr)
    initial_value = opt_prop_def(IntegerAttr)
    traits = traits_def(SymbolOpInterface())

    def __init__(
        self, name: str, type_: Attribute, mutable: bool = True, initial: int | None = None
    ):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "sym_visibility": StringAttr("private"),
                "type": type_,
                "is_mutable": UnitAttr() if mutable else None,
                "initial_value": IntegerAttr(initial, type_) if initial is not None else None,
            }
        )

    @classmethod
    def parse(cls, parser: Parser):
        visibility = parse_visibility(parser)
        mutable = parser.parse_optional_keyword("mutable") is not None
        name = parser.parse_symbol_name().data
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        initial = None
        if parser.parse_optional_punctuation("=") is not None:
            initial = parser.parse_integer()
            if parser.parse_optional_punctuation(":") is not None:
                parser.parse_type()
        op = cls(name, type_, mutable, initial)
        if visibility is not None:
            op.sym_visibility = visibility
        parse_extra_attrs(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        print_visibility(printer, self.sym_visibility)
        if self.is_mutable is not None:
            printer.print_string(" mutable")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" : ")
        printer.print_attribute(self.type)
        if self.initial_value is not None:
            printer.print_string(f" = {self.initial_value.value.data} : ")
            printer.print_attribute(self.type)
        print_extra_attrs(printer, self)


@irdl_op_definition
class GlobalRefOp(_GlobalBase):
    name = "vm.global.ref"


@irdl_op_definition
class GlobalI32Op(_GlobalBase):
    name = "vm.global.i32"


@irdl_op_definition
class GlobalI64Op(_GlobalBase):
    name = "vm.global.i64"


class _GlobalLoadBase(IRDLOperation):
    global_ = prop_def(SymbolRefAttr, prop_name="global")
    value = result_def()
    assembly_format = "$global attr-dict `:` type($value)"

    def __init__(self, global_name: str, type_: Attribute):
        super().__init__(properties={"global": symbol_ref(global_name)}, result_types=[type_])


@irdl_op_definition
class GlobalLoadRefOp(_GlobalLoadBase):
    name = "vm.global.load.ref"


@irdl_op_definition
class GlobalLoadI32Op(_GlobalLoadBase):
    name = "vm.global.load.i32"


@irdl_op_definition
class GlobalLoadI64Op(_GlobalLoadBase):
    name = "vm.global.load.i64"


class _GlobalStoreBase(IRDLOperation):
    value = operand_def()
    global_ = prop_def(SymbolRefAttr, prop_name="global")
    assembly_format = "$value `,` $global attr-dict `:` type($value)"

    def __init__(self, value: SSAValue, global_name: str):
        super().__init__(operands=[value], properties={"global": symbol_ref(global_name)})


@irdl_op_definition
class GlobalStoreRefOp(_GlobalStoreBase):
    name = "vm.global.store.ref"


@irdl_op_definition
class GlobalStoreI32Op(_GlobalStoreBase):
    name = "vm.global.store.i32"


@irdl_op_definition
class GlobalStoreI64Op(_GlobalStoreBase):
    name = "vm.global.store.i64"
