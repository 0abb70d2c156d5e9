"""Stream executables: `stream.executable`, `stream.executable.export` (its workgroup count
region ended by `stream.return`) and `stream.binding.subspan`.

Mirrors IREE's executable ops in `Dialect/Stream/IR/StreamOps.td`: `ConvertToStreamPass`
turns each `flow.executable` into one, whose dispatch functions take `!stream.binding`
arguments and read them with `stream.binding.subspan`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IndexType, StringAttr, SymbolNameConstraint, SymbolRefAttr
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    opt_region_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    Pure,
    SymbolOpInterface,
    SymbolTable,
)

from ireelab.dialects.flow_directives import (
    parse_optional_workgroup_count_region,
    parse_shaped_type,
    parse_symbol_alias,
    parse_visibility,
    print_shaped_type,
    print_symbol_alias,
    print_visibility,
    print_workgroup_count_region,
)
from ireelab.dialects.stream.syntax import parse_trailing_attrs, print_trailing_attrs
from ireelab.dialects.stream.types import BindingType


@irdl_op_definition
class ExecutableOp(IRDLOperation):
    """`stream.executable private @name { exports... builtin.module {...} }`"""

    name = "stream.executable"

    sym_visibility = opt_prop_def(StringAttr)
    sym_name = prop_def(SymbolNameConstraint())
    body = region_def("single_block")

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), SymbolTable(), NoTerminator())

    def __init__(
        self, sym_name: str, body: Region | None = None, visibility: str | None = "private"
    ):
        props: dict[str, Attribute] = {"sym_name": StringAttr(sym_name)}
        if visibility is not None:
            props["sym_visibility"] = StringAttr(visibility)
        super().__init__(properties=props, regions=[body if body is not None else Region(Block())])

    @classmethod
    def parse(cls, parser: Parser) -> ExecutableOp:
        visibility = parse_visibility(parser)
        name = parser.parse_symbol_name()
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        if not body.blocks:
            body.add_block(Block())
        op = cls(name.data, body, visibility.data if visibility else None)
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer) -> None:
        print_visibility(printer, self.sym_visibility)
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        print_trailing_attrs(printer, self)
        printer.print_string(" ")
        printer.print_region(self.body)


@irdl_op_definition
class ExecutableExportOp(IRDLOperation):
    """`stream.executable.export public @fn workgroups(...) -> (index, index, index) {...}`"""

    name = "stream.executable.export"

    sym_visibility = opt_prop_def(StringAttr)
    sym_name = prop_def(SymbolNameConstraint())
    function_ref = prop_def(SymbolRefAttr)
    workgroup_count = opt_region_def()

    traits = traits_def(SymbolOpInterface())

    def __init__(
        self,
        sym_name: str,
        workgroup_count: Region | None = None,
        function_ref: str | None = None,
        visibility: str | None = "public",
    ):
        props: dict[str, Attribute] = {
            "sym_name": StringAttr(sym_name),
            "function_ref": SymbolRefAttr(function_ref or sym_name),
        }
        if visibility is not None:
            props["sym_visibility"] = StringAttr(visibility)
        super().__init__(
            properties=props,
            regions=[workgroup_count if workgroup_count is not None else Region()],
        )

    @classmethod
    def parse(cls, parser: Parser) -> ExecutableExportOp:
        visibility = parse_visibility(parser)
        name, function_ref = parse_symbol_alias(parser)
        region = parse_optional_workgroup_count_region(parser, "workgroups")
        op = cls(
            name.data,
            region,
            function_ref.root_reference.data,
            visibility.data if visibility else None,
        )
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        print_visibility(printer, self.sym_visibility)
        print_symbol_alias(printer, self.sym_name, self.function_ref)
        print_workgroup_count_region(printer, self.workgroup_count, "workgroups")
        print_trailing_attrs(printer, self)


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`stream.return %x, %y, %z : index, index, index` ends a workgroup count region."""

    name = "stream.return"

    operands_ = var_operand_def()

    traits = traits_def(IsTerminator(), Pure())

    assembly_format = "attr-dict ($operands_^ `:` type($operands_))?"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[list(values)])


@irdl_op_definition
class BindingSubspanOp(IRDLOperation):
    """`%0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext...`"""

    name = "stream.binding.subspan"

    binding = operand_def(BindingType)
    byte_offset = operand_def(IndexType)
    dynamic_dims = var_operand_def(IndexType)
    result = result_def()

    traits = traits_def(Pure())

    def __init__(
        self,
        binding: SSAValue,
        byte_offset: SSAValue,
        result_type: Attribute,
        dynamic_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[binding, byte_offset, list(dynamic_dims)], result_types=[result_type]
        )

    @classmethod
    def parse(cls, parser: Parser) -> BindingSubspanOp:
        binding = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        offset = parser.parse_operand(IndexType())
        parser.parse_punctuation("]")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        binding_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type, dims = parse_shaped_type(parser)
        op = cls(parser.resolve_operand(binding, binding_type), offset, result_type, dims)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.binding)
        printer.print_string("[")
        printer.print_operand(self.byte_offset)
        printer.print_string("]")
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.binding.type)
        printer.print_string(" -> ")
        print_shaped_type(printer, self.result.type, self.dynamic_dims)
