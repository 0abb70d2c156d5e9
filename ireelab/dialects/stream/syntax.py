"""Parse/print pieces shared by the `stream` op families' custom formats.

IREE's Stream ops repeat a handful of textual forms: the `on(#hal.device.affinity<...>)`
prefix, `await(%t) =>` and `=> !stream.timepoint`, a resource type sized right after it
(`!stream.resource<external>{%c32}`), tensor encodings with dynamic dims, byte ranges
`[%off to %end for %len]`, and the `with(%x as %arg: type{size})` captures and results of
execution regions. They are written once here for every op module.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import IndexType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer

from ireelab.dialects.flow_directives import parse_shaped_type, print_shaped_type
from ireelab.dialects.stream.types import ResourceType, TimepointType


def parse_affinity(parser: Parser, keyword: str = "on") -> Attribute | None:
    """`on(#hal.device.affinity<@__device_0>)` (or `from(...)` / `to(...)`), optional."""
    if parser.parse_optional_keyword(keyword) is None:
        return None
    with parser.in_parens():
        return parser.parse_attribute()


def print_affinity(printer: Printer, affinity: Attribute | None, keyword: str = "on") -> None:
    if affinity is None:
        return
    printer.print_string(f" {keyword}(")
    printer.print_attribute(affinity)
    printer.print_string(")")


def parse_arrow(parser: Parser) -> None:
    """IREE's `=>` is `=` then `>` (MLIR has no such token)."""
    parser.parse_punctuation("=")
    parser.parse_punctuation(">")


def parse_optional_await(parser: Parser) -> SSAValue | None:
    """`await(%t) =>`, optional."""
    if parser.parse_optional_keyword("await") is None:
        return None
    with parser.in_parens():
        timepoint = parser.parse_operand(TimepointType())
    parse_arrow(parser)
    return timepoint


def print_await(printer: Printer, timepoint: SSAValue | None) -> None:
    if timepoint is None:
        return
    printer.print_string(" await(")
    printer.print_operand(timepoint)
    printer.print_string(") =>")


def parse_size(parser: Parser) -> SSAValue:
    """`{%size}` right after a resource type."""
    parser.parse_punctuation("{")
    size = parser.parse_operand(IndexType())
    parser.parse_punctuation("}")
    return size


def parse_sized_type(parser: Parser) -> tuple[Attribute, SSAValue]:
    ty = parser.parse_type()
    return ty, parse_size(parser)


def print_sized(printer: Printer, ty: Attribute, size: SSAValue) -> None:
    printer.print_attribute(ty)
    printer.print_string("{")
    printer.print_operand(size)
    printer.print_string("}")


def parse_typed_operand(parser: Parser) -> tuple[SSAValue, Attribute, SSAValue]:
    """`%x : type{%size}`."""
    unresolved = parser.parse_unresolved_operand()
    parser.parse_punctuation(":")
    ty, size = parse_sized_type(parser)
    return parser.resolve_operand(unresolved, ty), ty, size


def parse_encoding(parser: Parser) -> tuple[Attribute, list[SSAValue]]:
    """`tensor<?x4xf32>{%d}` then `in`: the logical tensor a resource holds."""
    ty, dims = parse_shaped_type(parser)
    parser.parse_keyword("in")
    return ty, dims


def print_encoding(printer: Printer, ty: Attribute, dims: Sequence[SSAValue]) -> None:
    print_shaped_type(printer, ty, dims)
    printer.print_string(" in ")


def parse_trailing_attrs(parser: Parser, op: Operation) -> Operation:
    attrs = parser.parse_optional_attr_dict_with_keyword()
    if attrs is not None:
        op.attributes.update(attrs.data)
    return op


def print_trailing_attrs(printer: Printer, op: Operation) -> None:
    if op.attributes:
        printer.print_string(" attributes ")
        printer.print_attr_dict(op.attributes)


def affinity_props(**affinities: Attribute | None) -> dict[str, Attribute]:
    return {k: v for k, v in affinities.items() if v is not None}


def is_resource(ty: Attribute) -> bool:
    return isinstance(ty, ResourceType)


def parse_operand_list(parser: Parser, parse_one: Callable[[], object]) -> list:
    parser.parse_punctuation("(")
    if parser.parse_optional_punctuation(")"):
        return []
    items = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parse_one)
    parser.parse_punctuation(")")
    return items


def parse_range(parser: Parser, with_length: bool, opened: bool = False) -> tuple[SSAValue, ...]:
    """`[%off to %end]` or `[%off to %end for %len]` (`opened`: the `[` is already read)."""
    if not opened:
        parser.parse_punctuation("[")
    offset = parser.parse_operand(IndexType())
    parser.parse_keyword("to")
    end = parser.parse_operand(IndexType())
    parts: tuple[SSAValue, ...] = (offset, end)
    if with_length:
        parser.parse_keyword("for")
        parts = (offset, end, parser.parse_operand(IndexType()))
    parser.parse_punctuation("]")
    return parts


def print_range(printer: Printer, *parts: SSAValue) -> None:
    printer.print_string("[")
    printer.print_operand(parts[0])
    printer.print_string(" to ")
    printer.print_operand(parts[1])
    if len(parts) > 2:
        printer.print_string(" for ")
        printer.print_operand(parts[2])
    printer.print_string("]")


def parse_resource_captures(parser: Parser) -> tuple[list, list, list]:
    """`with(%x as %arg0: type{%n}, ...)`: captured operands, their sizes, block arguments."""
    parser.parse_keyword("with")
    captures = parse_operand_list(parser, lambda: _parse_capture(parser))
    operands = [c[0] for c in captures]
    sizes = [c[1] for c in captures]
    args = [c[2] for c in captures]
    return operands, sizes, args


def _parse_capture(parser: Parser):
    unresolved = parser.parse_unresolved_operand()
    parser.parse_keyword("as")
    arg = parser.parse_argument(expect_type=True)
    size = parse_size(parser)
    return parser.resolve_operand(unresolved, arg.type), size, arg


def print_resource_captures(
    printer: Printer, operands: Sequence[SSAValue], sizes: Sequence[SSAValue], block: Block
) -> None:
    printer.print_string(" with(")
    for i, (value, size, arg) in enumerate(zip(operands, sizes, block.args, strict=True)):
        if i:
            printer.print_string(", ")
        printer.print_operand(value)
        printer.print_string(" as ")
        printer.print_block_argument(arg)
        printer.print_string("{")
        printer.print_operand(size)
        printer.print_string("}")
    printer.print_string(")")


def parse_region_results(parser: Parser) -> tuple[list[Attribute], list[SSAValue]]:
    """`-> type{%n}` or `-> (type{%n}, ...)`, optional."""
    if parser.parse_optional_punctuation("->") is None:
        return [], []
    if parser.parse_optional_punctuation("("):
        pairs = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, lambda: parse_sized_type(parser)
        )
        parser.parse_punctuation(")")
    else:
        pairs = [parse_sized_type(parser)]
    return [t for t, _ in pairs], [s for _, s in pairs]


def print_region_results(
    printer: Printer, types: Sequence[Attribute], sizes: Sequence[SSAValue]
) -> None:
    if not types:
        return
    printer.print_string(" -> ")
    if len(types) > 1:
        printer.print_string("(")
    for i, (ty, size) in enumerate(zip(types, sizes, strict=True)):
        if i:
            printer.print_string(", ")
        print_sized(printer, ty, size)
    if len(types) > 1:
        printer.print_string(")")
