"""The structure of a VM module: `vm.module`, `vm.func`, `vm.export`, `vm.import`.

Mirrors IREE's structural ops in `Dialect/VM/IR/VMOps.td`: the VM conversion puts each host
function in a `vm.func`, exports the public ones, and declares the `hal.*` functions it calls
as `vm.import`s (with IREE's signatures: `...` variadic markers and tuple operand groups).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    FunctionType,
    IntegerAttr,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    i32,
)
from xdsl.dialects.utils import parse_func_op_like, print_func_op_like
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, NoTerminator, SymbolOpInterface, SymbolTable

from ireelab.dialects.vm.syntax import (
    parse_extra_attrs,
    parse_visibility,
    print_extra_attrs,
    print_types,
    print_visibility,
)


@irdl_op_definition
class ModuleOp(IRDLOperation):
    """`vm.module public @module { ... }`: one loadable module."""

    name = "vm.module"
    sym_name = prop_def(SymbolNameConstraint())
    sym_visibility = opt_prop_def(StringAttr)
    version = opt_prop_def(IntegerAttr)
    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), SymbolTable(), NoTerminator())

    def __init__(
        self, name: str, body: Sequence[Operation] | Region = (), visibility: str = "public"
    ):
        region = body if isinstance(body, Region) else Region(Block(body))
        super().__init__(
            properties={"sym_name": StringAttr(name), "sym_visibility": StringAttr(visibility)},
            regions=[region],
        )

    @classmethod
    def parse(cls, parser: Parser) -> ModuleOp:
        visibility = parse_visibility(parser)
        name = parser.parse_symbol_name()
        version = None
        if parser.parse_optional_keyword("version"):
            version = IntegerAttr(parser.parse_integer(), 32)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        op = cls(name.data, region, visibility.data if visibility else "public")
        op.version = version
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        print_visibility(printer, self.sym_visibility)
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        if self.version is not None:
            printer.print_string(f" version {self.version.value.data}")
        print_extra_attrs(printer, self)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)


@irdl_op_definition
class FuncOp(IRDLOperation):
    """`vm.func private @f(%arg0: i32) -> !vm.ref<...> attributes {...} { ... }`."""

    name = "vm.func"
    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    body = region_def()
    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface())

    def __init__(
        self,
        name: str,
        function_type: FunctionType,
        region: Region | None = None,
        visibility: str = "private",
    ):
        if region is None:
            region = Region(Block(arg_types=function_type.inputs.data))
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "function_type": function_type,
                "sym_visibility": StringAttr(visibility),
            },
            regions=[region],
        )

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        visibility = parse_visibility(parser)
        name, inputs, outputs, region, extra, _, _ = parse_func_op_like(
            parser, reserved_attr_names=("sym_name", "function_type", "sym_visibility")
        )
        op = cls(
            name,
            FunctionType.from_lists(inputs, outputs),
            region,
            visibility.data if visibility else "private",
        )
        if extra is not None:
            op.attributes |= extra.data
        return op

    def print(self, printer: Printer) -> None:
        print_visibility(printer, self.sym_visibility)
        print_func_op_like(
            printer,
            self.sym_name,
            self.function_type,
            self.body,
            self.attributes,
            reserved_attr_names=("sym_name", "function_type", "sym_visibility"),
        )


@irdl_op_definition
class ExportOp(IRDLOperation):
    """`vm.export @f` (or `vm.export @f as("name")`): make a function callable from outside."""

    name = "vm.export"
    function_ref = prop_def(SymbolRefAttr)
    export_name = prop_def(StringAttr)

    def __init__(self, function: str, export_name: str | None = None):
        super().__init__(
            properties={
                "function_ref": SymbolRefAttr(function),
                "export_name": StringAttr(export_name or function),
            }
        )

    @classmethod
    def parse(cls, parser: Parser) -> ExportOp:
        function = parser.parse_symbol_name().data
        export_name = None
        if parser.parse_optional_keyword("as"):
            parser.parse_punctuation("(")
            export_name = parser.parse_str_literal()
            parser.parse_punctuation(")")
        op = cls(function, export_name)
        parse_extra_attrs(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.function_ref.root_reference.data)
        if self.export_name.data != self.function_ref.root_reference.data:
            printer.print_string(" as(")
            printer.print_string_literal(self.export_name.data)
            printer.print_string(")")
        print_extra_attrs(printer, self)


@irdl_op_definition
class ImportOp(IRDLOperation):
    """`vm.import private @hal.fence.await(%timeout_millis : i32, %fences : !vm.ref<!hal.fence> ...) -> i32`.

    A variadic argument's type is the type of one element (a `tuple<...>` for grouped ones);
    `variadic` holds one 0/1 flag per argument.
    """

    name = "vm.import"
    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_names = prop_def(ArrayAttr[StringAttr])
    variadic = prop_def(DenseArrayBase)
    traits = traits_def(SymbolOpInterface())

    def __init__(
        self,
        name: str,
        args: Sequence[tuple[str, Attribute, bool]],
        results: Sequence[Attribute],
        visibility: str = "private",
    ):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "function_type": FunctionType.from_lists([t for _, t, _ in args], results),
                "sym_visibility": StringAttr(visibility),
                "arg_names": ArrayAttr([StringAttr(n) for n, _, _ in args]),
                "variadic": DenseArrayBase.from_list(i32, [int(v) for _, _, v in args]),
            }
        )

    @property
    def is_variadic(self) -> tuple[bool, ...]:
        return tuple(bool(v) for v in self.variadic.get_values())

    @classmethod
    def parse(cls, parser: Parser) -> ImportOp:
        visibility = parse_visibility(parser)
        name = parser.parse_symbol_name().data

        def parse_arg() -> tuple[str, Attribute, bool]:
            arg_name = parser.parse_argument(expect_type=False).name.text[1:]
            parser.parse_punctuation(":")
            arg_type = parser.parse_type()
            return arg_name, arg_type, parser.parse_optional_punctuation("...") is not None

        args = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parse_arg)
        results: list[Attribute] = []
        if parser.parse_optional_punctuation("->"):
            if parser.parse_optional_punctuation("(") is not None:
                results = parser.parse_comma_separated_list(
                    Parser.Delimiter.NONE, parser.parse_type
                )
                parser.parse_punctuation(")")
            else:
                results = [parser.parse_type()]
        op = cls(name, args, results, visibility.data if visibility else "private")
        parse_extra_attrs(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        print_visibility(printer, self.sym_visibility)
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string("(")
        args = zip(
            self.arg_names.data, self.function_type.inputs.data, self.is_variadic, strict=True
        )
        for i, (arg_name, arg_type, variadic) in enumerate(args):
            if i:
                printer.print_string(", ")
            printer.print_string(f"%{arg_name.data} : ")
            printer.print_attribute(arg_type)
            if variadic:
                printer.print_string(" ...")
        printer.print_string(")")
        outputs = self.function_type.outputs.data
        if len(outputs) == 1:
            printer.print_string(" -> ")
            printer.print_attribute(outputs[0])
        elif outputs:
            printer.print_string(" -> (")
            print_types(printer, outputs)
            printer.print_string(")")
        print_extra_attrs(printer, self)
