"""Parse/print pieces shared by several `hal` op families' custom formats.

IREE's HAL ops repeat a few textual forms (an attribute written with or without its `#hal.`
prefix, `[(%buffer : type)[%offset, %length], ...]` binding lists, `<%target : type>`
prefixes, `flags(...)` clauses); they are written once here for the op modules that print
them.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType
from xdsl.ir import Attribute, ParametrizedAttribute, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer

from ireelab.dialects.hal.flags import NoFlagsAttr, parse_flags


def parse_stripped_or_full(parser: Parser, cls: type[ParametrizedAttribute]) -> Attribute:
    """`<...>` (the attribute's parameters, as MLIR prints a known attribute) or `#full<...>`."""
    if parser._current_token.text == "<":  # noqa: SLF001 - xDSL has no public peek
        return cls.new(cls.parse_parameters(parser))
    attr = parser.parse_attribute()
    if not isinstance(attr, cls):
        parser.raise_error(f"expected #{cls.name}")
    return attr


def parse_binding_list(parser: Parser) -> list[tuple[SSAValue, SSAValue, SSAValue]]:
    """`[(%buffer : type)[%offset, %length], ...]` (buffer or binding-table slot index)."""

    def parse_one() -> tuple[SSAValue, SSAValue, SSAValue]:
        with parser.in_parens():
            value = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            value = parser.resolve_operand(value, parser.parse_type())
        with parser.in_square_brackets():
            offset = parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())
            parser.parse_punctuation(",")
            length = parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())
        return value, offset, length

    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_one)


def print_binding_list(printer: Printer, buffers, offsets, lengths) -> None:
    # IREE prints one binding per line, each followed by ", " (trailing space included).
    printer.print_string("[")
    with printer.indented():
        for i, (buffer, offset, length) in enumerate(zip(buffers, offsets, lengths, strict=True)):
            printer.print_string("\n")
            printer.print_string("(")
            printer.print_operand(buffer)
            printer.print_string(" : ")
            printer.print_attribute(buffer.type)
            printer.print_string(")[")
            printer.print_operand(offset)
            printer.print_string(", ")
            printer.print_operand(length)
            printer.print_string("]" + (", " if i + 1 < len(buffers) else ""))
    printer.print_string("\n")
    printer.print_string("]")


def parse_target_prefix(parser: Parser, type_: Attribute) -> SSAValue:
    with parser.in_angle_brackets():
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        parser.parse_type()
    return parser.resolve_operand(value, type_)


def parse_flags_clause(parser: Parser) -> NoFlagsAttr:
    parser.parse_keyword("flags")
    with parser.in_parens():
        return NoFlagsAttr(parse_flags(parser))
