"""Calls: `vm.call`, `vm.call.variadic` and `vm.call.variadic.yieldable`.

Mirrors IREE's call ops (`Dialect/VM/IR/VMOps.td`): calls into imported `hal.*` functions take
variadic operand segments (`[%a, %b]` lists and `(%x, %y)` tuples), printed with the segment
signature IREE writes after the callee.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, SymbolRefAttr, TupleType, i16
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    prop_def,
    successor_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator

from ireelab.dialects.vm.symbols import symbol_ref
from ireelab.dialects.vm.syntax import parse_operand_list, print_extra_attrs, print_types


@irdl_op_definition
class CallOp(IRDLOperation):
    """`%r = vm.call @hal.buffer_view.buffer(%v) {nosideeffects} : (!vm.ref<...>) -> !vm.ref<...>`."""

    name = "vm.call"
    callee = prop_def(SymbolRefAttr)
    args = var_operand_def()
    res = var_result_def()

    def __init__(self, callee: str, args: Sequence[SSAValue], result_types: Sequence[Attribute]):
        super().__init__(
            operands=[args],
            result_types=[result_types],
            properties={"callee": symbol_ref(callee)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> CallOp:
        callee = parser.parse_symbol_name().data
        operands = parse_operand_list(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ftype = parser.parse_function_type()
        args = parser.resolve_operands(operands, ftype.inputs.data, parser.pos)
        op = cls(callee, args, ftype.outputs.data)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.callee.root_reference.data)
        printer.print_string("(")
        printer.print_list(self.args, printer.print_operand)
        printer.print_string(")")
        print_extra_attrs(printer, self, with_keyword=False)
        printer.print_string(" : (")
        print_types(printer, [a.type for a in self.args])
        printer.print_string(") -> ")
        results = [r.type for r in self.res]
        if len(results) == 1:
            printer.print_attribute(results[0])
        else:
            printer.print_string("(")
            print_types(printer, results)
            printer.print_string(")")


def _segment_types(op: Operation) -> list[Attribute]:
    return list(op.segment_types.data)


def _segment_sizes(op: Operation) -> list[int]:
    return [int(v) for v in op.segment_sizes.get_values()]


def _print_variadic_operands(printer: Printer, op: Operation) -> None:
    """`(%a, %b, [%c, %d], [(%e, %f), (%g, %h)])`: one group per variadic segment."""
    operands = list(op.operands)
    pos = 0
    pieces: list[str] = []
    for size, seg_type in zip(_segment_sizes(op), _segment_types(op), strict=True):
        width = len(seg_type.types.data) if isinstance(seg_type, TupleType) else 1
        if size < 0:
            pieces.append(_name(printer, operands[pos]))
            pos += 1
            continue
        items = []
        for _ in range(size):
            names = [_name(printer, v) for v in operands[pos : pos + width]]
            items.append(f"({', '.join(names)})" if width > 1 else names[0])
            pos += width
        pieces.append(f"[{', '.join(items)}]")
    printer.print_string("(" + ", ".join(pieces) + ")")


def _name(printer: Printer, value: SSAValue) -> str:
    from io import StringIO

    saved = printer.stream
    printer.stream = StringIO()
    printer.print_operand(value)
    text = printer.stream.getvalue()
    printer.stream = saved
    return text


def _print_segment_signature(printer: Printer, op: Operation) -> None:
    pieces = []
    for size, seg_type in zip(_segment_sizes(op), _segment_types(op), strict=True):
        pieces.append(str(seg_type) + (" ..." if size >= 0 else ""))
    printer.print_string("(" + ", ".join(pieces) + ")")


def _parse_variadic_operands(
    parser: Parser,
) -> tuple[list[UnresolvedOperand], list[list[list[UnresolvedOperand]] | None]]:
    """Flat operands and, per segment, None (scalar) or the list of element groups."""
    flat: list[UnresolvedOperand] = []
    segments: list[list[list[UnresolvedOperand]] | None] = []

    def parse_group() -> list[UnresolvedOperand]:
        if parser.parse_optional_punctuation("(") is not None:
            group = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(")")
            return group
        return [parser.parse_unresolved_operand()]

    def parse_segment() -> None:
        if parser.parse_optional_punctuation("[") is not None:
            groups: list[list[UnresolvedOperand]] = []
            if parser.parse_optional_punctuation("]") is None:
                groups = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parse_group)
                parser.parse_punctuation("]")
            segments.append(groups)
            flat.extend(v for g in groups for v in g)
            return
        segments.append(None)
        flat.append(parser.parse_unresolved_operand())

    parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parse_segment)
    return flat, segments


def _parse_segment_signature(parser: Parser) -> list[tuple[Attribute, bool]]:
    def parse_one() -> tuple[Attribute, bool]:
        type_ = parser.parse_type()
        return type_, parser.parse_optional_punctuation("...") is not None

    return parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parse_one)


def _resolve_segments(parser, flat, segments, signature) -> tuple[list[SSAValue], list[int]]:
    if len(segments) != len(signature):
        parser.raise_error("operand groups and signature types differ in number")
    types: list[Attribute] = []
    sizes: list[int] = []
    for groups, (seg_type, variadic) in zip(segments, signature, strict=True):
        if (groups is not None) != variadic:
            parser.raise_error("variadic operand group does not match its `...` type")
        if groups is None:
            types.append(seg_type)
            sizes.append(-1)
            continue
        element_types = seg_type.types.data if isinstance(seg_type, TupleType) else (seg_type,)
        for _ in groups:
            types.extend(element_types)
        sizes.append(len(groups))
    return parser.resolve_operands(flat, types, parser.pos), sizes


def _segment_props(sizes: Sequence[int], types: Sequence[Attribute]) -> dict[str, Attribute]:
    return {
        "segment_sizes": _shared_segment_sizes(tuple(sizes)),
        "segment_types": ArrayAttr(list(types)),
    }


@cache
def _shared_segment_sizes(sizes: tuple[int, ...]) -> DenseArrayBase:
    """An i16 array, made once per list (a model's calls of one import share theirs; xDSL
    checks every element it packs)."""
    return DenseArrayBase.from_list(i16, sizes)


@irdl_op_definition
class CallVariadicOp(IRDLOperation):
    """`vm.call.variadic @hal.buffer_view.assert(%v, %msg, %t, %e, [%c2, %c4]) : (..., i64 ...)`.

    `segment_sizes` has -1 for a plain argument and the element count for a variadic one;
    `segment_types` the type of each argument (of one element for variadic ones).
    """

    name = "vm.call.variadic"
    callee = prop_def(SymbolRefAttr)
    segment_sizes = prop_def(DenseArrayBase)
    segment_types = prop_def(ArrayAttr)
    args = var_operand_def()
    res = var_result_def()

    def __init__(
        self,
        callee: str,
        args: Sequence[SSAValue],
        segment_sizes: Sequence[int],
        segment_types: Sequence[Attribute],
        result_types: Sequence[Attribute],
    ):
        super().__init__(
            operands=[args],
            result_types=[result_types],
            properties={
                "callee": symbol_ref(callee),
                **_segment_props(segment_sizes, segment_types),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> CallVariadicOp:
        callee = parser.parse_symbol_name().data
        flat, segments = _parse_variadic_operands(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        signature = _parse_segment_signature(parser)
        results: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            if parser.parse_optional_punctuation("(") is not None:
                results = parser.parse_comma_separated_list(
                    Parser.Delimiter.NONE, parser.parse_type
                )
                parser.parse_punctuation(")")
            else:
                results = [parser.parse_type()]
        args, sizes = _resolve_segments(parser, flat, segments, signature)
        op = cls(callee, args, sizes, [t for t, _ in signature], results)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.callee.root_reference.data)
        _print_variadic_operands(printer, self)
        print_extra_attrs(printer, self, with_keyword=False)
        printer.print_string(" : ")
        _print_segment_signature(printer, self)
        results = [r.type for r in self.res]
        if len(results) == 1:
            printer.print_string(" -> ")
            printer.print_attribute(results[0])
        elif results:
            printer.print_string(" -> (")
            print_types(printer, results)
            printer.print_string(")")


@irdl_op_definition
class CallVariadicYieldableOp(IRDLOperation):
    """`vm.call.variadic.yieldable @hal.fence.await(%t, %f, %fence) <segment_sizes = ..., segment_types = [...]> : (...) -> ^bb1 (i32)`.

    A call that may yield the fiber (IREE: imports with `vm.yield`); its results arrive as the
    arguments of the successor block, so it is a terminator.
    """

    name = "vm.call.variadic.yieldable"
    callee = prop_def(SymbolRefAttr)
    segment_sizes = prop_def(DenseArrayBase)
    segment_types = prop_def(ArrayAttr)
    args = var_operand_def()
    dest = successor_def()
    traits = traits_def(IsTerminator())

    def __init__(
        self,
        callee: str,
        args: Sequence[SSAValue],
        segment_sizes: Sequence[int],
        segment_types: Sequence[Attribute],
        dest: Block,
    ):
        super().__init__(
            operands=[args],
            successors=[dest],
            properties={
                "callee": symbol_ref(callee),
                **_segment_props(segment_sizes, segment_types),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> CallVariadicYieldableOp:
        callee = parser.parse_symbol_name().data
        flat = parse_operand_list(parser)
        parser.parse_punctuation("<")
        values: dict[str, Attribute] = {}

        def parse_entry() -> None:
            key = parser.parse_identifier()
            parser.parse_punctuation("=")
            values[key] = parser.parse_attribute()

        parser.parse_comma_separated_list(Parser.Delimiter.NONE, parse_entry)
        parser.parse_punctuation(">")
        parser.parse_punctuation(":")
        ftype = _parse_type_list(parser)
        parser.parse_punctuation("->")
        dest = parser.parse_successor()
        _parse_type_list(parser)
        sizes_attr = values.get("segment_sizes")
        sizes = [int(v) for v in sizes_attr.get_values()] if sizes_attr is not None else []
        seg_types = values.get("segment_types", ArrayAttr([]))
        args = parser.resolve_operands(flat, ftype, parser.pos)
        return cls(callee, args, sizes, list(seg_types.data), dest)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.callee.root_reference.data)
        printer.print_string("(")
        printer.print_list(self.args, printer.print_operand)
        printer.print_string(") <segment_sizes = dense<[")
        printer.print_string(", ".join(str(s) for s in _segment_sizes(self)))
        printer.print_string(f"]> : vector<{len(_segment_sizes(self))}xi16>, segment_types = [")
        print_types(printer, _segment_types(self))
        printer.print_string("]> : (")
        print_types(printer, [a.type for a in self.args])
        printer.print_string(") -> ")
        printer.print_block_name(self.dest)
        printer.print_string(" (")
        print_types(printer, [a.type for a in self.dest.args])
        printer.print_string(")")


def _parse_type_list(parser: Parser) -> list[Attribute]:
    parser.parse_punctuation("(")
    if parser.parse_optional_punctuation(")") is not None:
        return []
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return types
