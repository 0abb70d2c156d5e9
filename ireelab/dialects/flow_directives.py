"""Custom directives of IREE's flow op syntax, shared by the `flow` and `stream` dialects.

IREE's flow and stream ops spell symbol aliases, workgroup count regions, entry point lists,
workloads and shaped types with `{%dims}` through the same custom directives (FlowOps.td,
StreamOps.td); xDSL's declarative format cannot express them, so both dialects parse and print
them with these helpers.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IndexType,
    StringAttr,
    SymbolRefAttr,
    TensorType,
)
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
)
from xdsl.parser import Parser
from xdsl.printer import Printer


def parse_visibility(parser: Parser) -> StringAttr | None:
    """`custom<SymbolVisibility>`: an optional `public` / `private` / `nested` keyword."""
    return parser.parse_optional_visibility_keyword()


def print_visibility(printer: Printer, visibility: StringAttr | None) -> None:
    if visibility is not None:
        printer.print_string(f" {visibility.data}")


def parse_symbol_alias(parser: Parser) -> tuple[StringAttr, SymbolRefAttr]:
    """`custom<SymbolAlias>`: `@name` or `@name as("function")`."""
    name = parser.parse_symbol_name()
    function_ref = SymbolRefAttr(name)
    if parser.parse_optional_keyword("as"):
        with parser.in_parens():
            function_ref = SymbolRefAttr(parser.parse_str_literal())
    return name, function_ref


def print_symbol_alias(printer: Printer, name: StringAttr, function_ref: SymbolRefAttr) -> None:
    printer.print_string(" ")
    printer.print_symbol_name(name.data)
    if function_ref.root_reference.data != name.data or function_ref.nested_references.data:
        printer.print_string(f' as("{function_ref.root_reference.data}")')


def parse_optional_workgroup_count_region(parser: Parser, keyword: str) -> Region:
    """`custom<WorkgroupCountRegion>`: `keyword(%a: index, ...) -> (index, index, index) {...}`.

    Returns an empty region when the keyword is absent (the region is optional in IREE).
    """
    if parser.parse_optional_keyword(keyword) is None:
        return Region()
    args = parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=True)
    )
    parser.parse_punctuation("->")
    parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_type)
    return parser.parse_region(args)


def print_workgroup_count_region(printer: Printer, region: Region, keyword: str) -> None:
    if not region.blocks:
        return
    block = region.block
    printer.print_string(f" {keyword}(")
    printer.print_list(block.args, printer.print_block_argument)
    printer.print_string(") -> (index, index, index) ")
    printer.print_region(region, print_entry_block_args=False)


def parse_entry_points(parser: Parser) -> ArrayAttr[SymbolRefAttr]:
    """`custom<DispatchEntryPoints>`: `@exe::@export` or `{@a::@b, @c::@d}`."""
    if parser.parse_optional_punctuation("{"):
        refs = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, lambda: _parse_symbol_ref(parser)
        )
        parser.parse_punctuation("}")
        return ArrayAttr(refs)
    return ArrayAttr([_parse_symbol_ref(parser)])


def _parse_symbol_ref(parser: Parser) -> SymbolRefAttr:
    ref = parser.parse_attribute()
    if not isinstance(ref, SymbolRefAttr):
        parser.raise_error("expected a symbol reference like @executable::@export")
    return ref


def print_entry_points(printer: Printer, entry_points: ArrayAttr[SymbolRefAttr]) -> None:
    printer.print_string(" ")
    if len(entry_points.data) == 1:
        printer.print_attribute(entry_points.data[0])
        return
    printer.print_string("{")
    printer.print_list(entry_points.data, printer.print_attribute)
    printer.print_string("}")


def parse_optional_workload(parser: Parser) -> list[SSAValue]:
    """`[%w0, %w1]` after the entry point, when the dispatch carries a workload."""
    if parser.parse_optional_punctuation("[") is None:
        return []
    values = parser.parse_comma_separated_list(
        Parser.Delimiter.NONE, lambda: parser.parse_operand(IndexType())
    )
    parser.parse_punctuation("]")
    return values


def print_workload(printer: Printer, workload: Sequence[SSAValue]) -> None:
    if not workload:
        return
    printer.print_string("[")
    printer.print_list(workload, printer.print_operand)
    printer.print_string("]")


def parse_shaped_type(parser: Parser) -> tuple[Attribute, list[SSAValue]]:
    """A type optionally followed by `{%d0, %d1}` naming its dynamic dimensions."""
    ty = parser.parse_type()
    dims: list[SSAValue] = []
    if parser.parse_optional_punctuation("{"):
        dims = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, lambda: parser.parse_operand(IndexType())
        )
        parser.parse_punctuation("}")
    return ty, dims


def print_shaped_type(printer: Printer, ty: Attribute, dims: Sequence[SSAValue]) -> None:
    printer.print_attribute(ty)
    if dims:
        printer.print_string("{")
        printer.print_list(dims, printer.print_operand)
        printer.print_string("}")


def dynamic_dim_count(ty: Attribute) -> int:
    if isinstance(ty, TensorType):
        return sum(1 for d in ty.get_shape() if d == DYNAMIC_INDEX)
    return 0


def parse_op_attributes(parser: Parser, op: IRDLOperation) -> None:
    extra = parser.parse_optional_attr_dict()
    op.attributes.update(extra)


def print_op_attributes(printer: Printer, op: IRDLOperation) -> None:
    if op.attributes:
        printer.print_string(" ")
        printer.print_attr_dict(op.attributes)


# ---- executables -------------------------------------------------------------------------
