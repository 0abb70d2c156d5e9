"""Async ops: value semantics on resources, `stream.async.*` (all but dispatch).

Mirrors IREE's `stream.async.{alloca,splat,clone,cast,transfer,update,copy}`
(`Dialect/Stream/IR/StreamOps.td`): each op consumes resources and produces new ones; the
scheduling passes group them into `stream.async.execute` regions.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from ireelab.dialects.stream.syntax import (
    affinity_props,
    parse_affinity,
    parse_range,
    parse_sized_type,
    parse_trailing_attrs,
    parse_typed_operand,
    print_affinity,
    print_range,
    print_sized,
    print_trailing_attrs,
)
from ireelab.dialects.stream.types import ResourceType


@irdl_op_definition
class AsyncAllocaOp(IRDLOperation):
    """`%r = stream.async.alloca on(...) : !stream.resource<transient>{%n}`"""

    name = "stream.async.alloca"

    storage_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    def __init__(self, result_type: Attribute, size: SSAValue, affinity: Attribute | None = None):
        super().__init__(
            operands=[size],
            result_types=[result_type],
            properties=affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncAllocaOp:
        affinity = parse_affinity(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ty, size = parse_sized_type(parser)
        op = cls(ty, size, affinity)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" : ")
        print_sized(printer, self.result.type, self.storage_size)


@irdl_op_definition
class AsyncSplatOp(IRDLOperation):
    """`%r = stream.async.splat on(...) %v : f32 -> !stream.resource<*>{%n}`"""

    name = "stream.async.splat"

    value = operand_def()
    result_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    def __init__(
        self,
        value: SSAValue,
        result_type: Attribute,
        result_size: SSAValue,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[value, result_size],
            result_types=[result_type],
            properties=affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncSplatOp:
        affinity = parse_affinity(parser)
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation("->")
        ty, size = parse_sized_type(parser)
        op = cls(parser.resolve_operand(value, value_type), ty, size, affinity)
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(" -> ")
        print_sized(printer, self.result.type, self.result_size)
        print_trailing_attrs(printer, self)


class _AsyncUnaryOp(IRDLOperation):
    """`on(...) %s : type{%n} -> type{%m}`: clone, cast, and (with from/to) transfer."""

    source = operand_def(ResourceType)
    source_size = operand_def(IndexType)
    result_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    def __init__(
        self,
        source: SSAValue,
        source_size: SSAValue,
        result_type: Attribute,
        result_size: SSAValue,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[source, source_size, result_size],
            result_types=[result_type],
            properties=affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser):
        affinity = parse_affinity(parser)
        source, _, size = parse_typed_operand(parser)
        parser.parse_punctuation("->")
        ty, result_size = parse_sized_type(parser)
        op = cls(source, size, ty, result_size, affinity)
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" : ")
        print_sized(printer, self.source.type, self.source_size)
        printer.print_string(" -> ")
        print_sized(printer, self.result.type, self.result_size)
        print_trailing_attrs(printer, self)


@irdl_op_definition
class AsyncCloneOp(_AsyncUnaryOp):
    """`%r = stream.async.clone on(...) %s : !stream.resource<*>{%n} -> !stream.resource<*>{%n}`"""

    name = "stream.async.clone"


@irdl_op_definition
class AsyncCastOp(_AsyncUnaryOp):
    """`%r = stream.async.cast on(...) %s : !stream.resource<external>{%n} -> !stream.resource<*>{%n}`

    Changes only the lifetime of a resource's type (no data moves).
    """

    name = "stream.async.cast"

    traits = traits_def(Pure())


@irdl_op_definition
class AsyncTransferOp(IRDLOperation):
    """`%r = stream.async.transfer %s : !stream.resource<*>{%n} from(...) -> to(...) !stream.resource<staging>{%n}`"""

    name = "stream.async.transfer"

    source = operand_def(ResourceType)
    source_size = operand_def(IndexType)
    result_size = operand_def(IndexType)
    source_affinity = opt_prop_def(Attribute)
    target_affinity = opt_prop_def(Attribute)
    execution_affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    def __init__(
        self,
        source: SSAValue,
        source_size: SSAValue,
        result_type: Attribute,
        result_size: SSAValue,
        source_affinity: Attribute | None = None,
        target_affinity: Attribute | None = None,
        execution_affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[source, source_size, result_size],
            result_types=[result_type],
            properties=affinity_props(
                source_affinity=source_affinity,
                target_affinity=target_affinity,
                execution_affinity=execution_affinity,
            ),
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncTransferOp:
        execution = parse_affinity(parser)
        source, _, size = parse_typed_operand(parser)
        source_affinity = parse_affinity(parser, "from")
        parser.parse_punctuation("->")
        target_affinity = parse_affinity(parser, "to")
        ty, result_size = parse_sized_type(parser)
        op = cls(source, size, ty, result_size, source_affinity, target_affinity, execution)
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.execution_affinity)
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" : ")
        print_sized(printer, self.source.type, self.source_size)
        print_affinity(printer, self.source_affinity, "from")
        printer.print_string(" ->")
        print_affinity(printer, self.target_affinity, "to")
        printer.print_string(" ")
        print_sized(printer, self.result.type, self.result_size)
        print_trailing_attrs(printer, self)


def _parse_tied_result(parser: Parser) -> tuple[Attribute, SSAValue]:
    """`%target as !stream.resource<*>{%n}` (IREE's ShapedTiedResult)."""
    parser.parse_unresolved_operand()
    parser.parse_keyword("as")
    return parse_sized_type(parser)


def _print_tied_result(printer: Printer, target: SSAValue, size: SSAValue) -> None:
    printer.print_operand(target)
    printer.print_string(" as ")
    print_sized(printer, target.type, size)


@irdl_op_definition
class AsyncUpdateOp(IRDLOperation):
    """`%r = stream.async.update on(...) %u, %t[%a to %b] : !stream.resource<*>{%n} -> %t as !stream.resource<*>{%m}`"""

    name = "stream.async.update"

    target = operand_def(ResourceType)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    target_end = operand_def(IndexType)
    update = operand_def(ResourceType)
    update_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    def __init__(
        self,
        target: SSAValue,
        target_size: SSAValue,
        target_offset: SSAValue,
        target_end: SSAValue,
        update: SSAValue,
        update_size: SSAValue,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[target, target_size, target_offset, target_end, update, update_size],
            result_types=[target.type],
            properties=affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncUpdateOp:
        affinity = parse_affinity(parser)
        update = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        offset, end = parse_range(parser, with_length=False)
        parser.parse_punctuation(":")
        update_type, update_size = parse_sized_type(parser)
        parser.parse_punctuation("->")
        target_type, target_size = _parse_tied_result(parser)
        op = cls(
            parser.resolve_operand(target, target_type),
            target_size,
            offset,
            end,
            parser.resolve_operand(update, update_type),
            update_size,
            affinity,
        )
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.update)
        printer.print_string(", ")
        printer.print_operand(self.target)
        print_range(printer, self.target_offset, self.target_end)
        printer.print_string(" : ")
        print_sized(printer, self.update.type, self.update_size)
        printer.print_string(" -> ")
        _print_tied_result(printer, self.target, self.target_size)
        print_trailing_attrs(printer, self)


@irdl_op_definition
class AsyncCopyOp(IRDLOperation):
    """`%r = stream.async.copy on(...) %s[%a to %b], %t[%c to %d], %len : !stream.resource<*>{%n} -> %t as !stream.resource<*>{%m}`"""

    name = "stream.async.copy"

    target = operand_def(ResourceType)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    target_end = operand_def(IndexType)
    source = operand_def(ResourceType)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    source_end = operand_def(IndexType)
    length = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    def __init__(
        self,
        source: SSAValue,
        source_size: SSAValue,
        source_range: tuple[SSAValue, SSAValue],
        target: SSAValue,
        target_size: SSAValue,
        target_range: tuple[SSAValue, SSAValue],
        length: SSAValue,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[
                target,
                target_size,
                *target_range,
                source,
                source_size,
                *source_range,
                length,
            ],
            result_types=[target.type],
            properties=affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncCopyOp:
        affinity = parse_affinity(parser)
        source = parser.parse_unresolved_operand()
        source_range = parse_range(parser, with_length=False)
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        target_range = parse_range(parser, with_length=False)
        parser.parse_punctuation(",")
        length = parser.parse_operand(IndexType())
        parser.parse_punctuation(":")
        source_type, source_size = parse_sized_type(parser)
        parser.parse_punctuation("->")
        target_type, target_size = _parse_tied_result(parser)
        op = cls(
            parser.resolve_operand(source, source_type),
            source_size,
            source_range,
            parser.resolve_operand(target, target_type),
            target_size,
            target_range,
            length,
            affinity,
        )
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.source)
        print_range(printer, self.source_offset, self.source_end)
        printer.print_string(", ")
        printer.print_operand(self.target)
        print_range(printer, self.target_offset, self.target_end)
        printer.print_string(", ")
        printer.print_operand(self.length)
        printer.print_string(" : ")
        print_sized(printer, self.source.type, self.source_size)
        printer.print_string(" -> ")
        _print_tied_result(printer, self.target, self.target_size)
        print_trailing_attrs(printer, self)
