"""Parse/print pieces shared by the `vm` op families' custom formats.

Symbol visibility keywords, `attributes {...}` tails, parenthesised type lists and operand
lists, which IREE's VM ops repeat and xDSL's format language cannot say.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DictionaryAttr, StringAttr
from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer


def print_visibility(printer: Printer, visibility: StringAttr | None) -> None:
    if visibility is not None:
        printer.print_string(f" {visibility.data}")


def parse_visibility(parser: Parser) -> StringAttr | None:
    keyword = parser.parse_optional_keyword_in(("public", "private", "nested"))
    return StringAttr(keyword) if keyword else None


def print_extra_attrs(printer: Printer, op: Operation, with_keyword: bool = True) -> None:
    if op.attributes:
        printer.print_op_attributes(op.attributes, print_keyword=with_keyword)


def parse_extra_attrs(parser: Parser, op: Operation, with_keyword: bool = True) -> None:
    attrs = (
        parser.parse_optional_attr_dict_with_keyword()
        if with_keyword
        else DictionaryAttr(parser.parse_optional_attr_dict())
    )
    if attrs is not None:
        op.attributes |= attrs.data


def print_types(printer: Printer, types: Sequence[Attribute]) -> None:
    printer.print_list(types, printer.print_attribute)


def parse_operand_list(parser: Parser) -> list[UnresolvedOperand]:
    return parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, parser.parse_unresolved_operand
    )
