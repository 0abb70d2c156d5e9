"""Host reads and writes of single tensor elements through Stream: `stream.tensor.load`,
`stream.tensor.fill`, `stream.async.load`, `stream.async.fill`, `stream.cmd.flush`,
`stream.resource.load`.

Mirrors IREE's ops of those names (`Dialect/Stream/IR/StreamOps.td`, IREE 3.13).
ConvertToStreamPass turns `flow.tensor.load` into a one-element `stream.tensor.slice`, a
`stream.async.transfer` to a `staging` resource and `stream.tensor.load`; `flow.tensor.store`
into `stream.tensor.fill` of one element. EncodeHostTensorsPass makes them byte-level, and
ScheduleAllocationPass turns the transfer into a copy plus a flush of the staging range and the
host read into `stream.resource.load` after the await:

    %v = stream.tensor.load %s[%c0, %c0] : tensor<1x1xf32> in !stream.resource<staging>{%n} -> f32
    %r = stream.tensor.fill on(#aff) %x, %t[%c1, %c2 for %c1, %c1] : f32 -> tensor<4x6xf32> in %t as !stream.resource<*>{%m}
      ->
    %v = stream.async.load %s[%c0] : !stream.resource<staging>{%c4} -> f32
    %r = stream.async.fill on(#aff) %b, %t[%c32 to %c36 for %c4] : i32 -> %t as !stream.resource<*>{%c96}
      ->
    stream.cmd.flush %arg2[%c0 for %c4] : !stream.resource<staging>{%c4}
    %v = stream.resource.load %s[%c0] : !stream.resource<staging>{%c4} -> f32

A fill's result is its target, written in place (tied, as `stream.async.update`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IndexType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from ireelab.dialects.flow_directives import parse_shaped_type, print_shaped_type
from ireelab.dialects.stream.syntax import (
    affinity_props,
    parse_affinity,
    parse_encoding,
    parse_range,
    parse_sized_type,
    parse_trailing_attrs,
    print_affinity,
    print_encoding,
    print_range,
    print_sized,
    print_trailing_attrs,
)
from ireelab.dialects.stream.types import ResourceType


def _parse_indices(parser: Parser) -> list[SSAValue]:
    """`[%i, %j]` (optional: a 0-d tensor has none)."""
    if parser.parse_optional_punctuation("[") is None:
        return []
    if parser.parse_optional_punctuation("]") is not None:
        return []
    values = parser.parse_comma_separated_list(
        Parser.Delimiter.NONE, lambda: parser.parse_operand(IndexType())
    )
    parser.parse_punctuation("]")
    return values


def _print_indices(printer: Printer, values: Sequence[SSAValue]) -> None:
    if not values:
        return
    printer.print_string("[")
    printer.print_list(values, printer.print_operand)
    printer.print_string("]")


def _parse_offset(parser: Parser) -> SSAValue:
    parser.parse_punctuation("[")
    offset = parser.parse_operand(IndexType())
    parser.parse_punctuation("]")
    return offset


def _print_offset(printer: Printer, offset: SSAValue) -> None:
    printer.print_string("[")
    printer.print_operand(offset)
    printer.print_string("]")


@irdl_op_definition
class TensorLoadOp(IRDLOperation):
    """`%v = stream.tensor.load %r[%i, %j] : tensor<1x1xf32> in !stream.resource<staging>{%n} -> f32`"""

    name = "stream.tensor.load"

    source = operand_def(ResourceType)
    source_encoding_dims = var_operand_def(IndexType)
    source_size = operand_def(IndexType)
    indices = var_operand_def(IndexType)
    source_encoding = prop_def(Attribute)
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        source: SSAValue,
        source_encoding: Attribute,
        source_size: SSAValue,
        indices: Sequence[SSAValue],
        result_type: Attribute,
        source_encoding_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[source, list(source_encoding_dims), source_size, list(indices)],
            result_types=[result_type],
            properties={"source_encoding": source_encoding},
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorLoadOp:
        source = parser.parse_unresolved_operand()
        indices = _parse_indices(parser)
        parser.parse_punctuation(":")
        encoding, dims = parse_encoding(parser)
        source_type, source_size = parse_sized_type(parser)
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        op = cls(
            parser.resolve_operand(source, source_type),
            encoding,
            source_size,
            indices,
            result_type,
            dims,
        )
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        _print_indices(printer, self.indices)
        printer.print_string(" : ")
        print_encoding(printer, self.source_encoding, self.source_encoding_dims)
        print_sized(printer, self.source.type, self.source_size)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)
        print_trailing_attrs(printer, self)


@irdl_op_definition
class TensorFillOp(IRDLOperation):
    """`%r = stream.tensor.fill on(...) %x, %t[%i, %j for %l0, %l1] : f32 -> tensor<4x6xf32>
    in %t as !stream.resource<*>{%n}`"""

    name = "stream.tensor.fill"

    target = operand_def(ResourceType)
    target_encoding_dims = var_operand_def(IndexType)
    target_size = operand_def(IndexType)
    start_indices = var_operand_def(IndexType)
    lengths = var_operand_def(IndexType)
    value = operand_def()
    target_encoding = prop_def(Attribute)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        value: SSAValue,
        target: SSAValue,
        target_encoding: Attribute,
        target_size: SSAValue,
        start_indices: Sequence[SSAValue],
        lengths: Sequence[SSAValue],
        affinity: Attribute | None = None,
        target_encoding_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[
                target,
                list(target_encoding_dims),
                target_size,
                list(start_indices),
                list(lengths),
                value,
            ],
            result_types=[target.type],
            properties={
                "target_encoding": target_encoding,
                **affinity_props(affinity=affinity),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorFillOp:
        affinity = parse_affinity(parser)
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        starts, lengths = [], []
        if parser.parse_optional_punctuation("]") is None:
            starts = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE, lambda: parser.parse_operand(IndexType())
            )
            parser.parse_keyword("for")
            lengths = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE, lambda: parser.parse_operand(IndexType())
            )
            parser.parse_punctuation("]")
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation("->")
        encoding, dims = parse_shaped_type(parser)
        parser.parse_keyword("in")
        parser.parse_unresolved_operand()  # the tied target, named again
        parser.parse_keyword("as")
        target_type, target_size = parse_sized_type(parser)
        op = cls(
            parser.resolve_operand(value, value_type),
            parser.resolve_operand(target, target_type),
            encoding,
            target_size,
            starts,
            lengths,
            affinity,
            dims,
        )
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        printer.print_operand(self.target)
        printer.print_string("[")
        if self.start_indices:
            printer.print_list(self.start_indices, printer.print_operand)
            printer.print_string(" for ")
            printer.print_list(self.lengths, printer.print_operand)
        printer.print_string("] : ")
        printer.print_attribute(self.value.type)
        printer.print_string(" -> ")
        print_shaped_type(printer, self.target_encoding, self.target_encoding_dims)
        printer.print_string(" in ")
        printer.print_operand(self.target)
        printer.print_string(" as ")
        print_sized(printer, self.target.type, self.target_size)
        print_trailing_attrs(printer, self)


class _ByteLoadBase(IRDLOperation):
    """`%v = <name> %r[%offset] : !stream.resource<staging>{%n} -> f32`"""

    source = operand_def(ResourceType)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    result = result_def()

    def __init__(
        self,
        source: SSAValue,
        source_size: SSAValue,
        source_offset: SSAValue,
        result_type: Attribute,
    ):
        super().__init__(operands=[source, source_size, source_offset], result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser):
        source = parser.parse_unresolved_operand()
        offset = _parse_offset(parser)
        parser.parse_punctuation(":")
        source_type, source_size = parse_sized_type(parser)
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        op = cls(parser.resolve_operand(source, source_type), source_size, offset, result_type)
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        _print_offset(printer, self.source_offset)
        printer.print_string(" : ")
        print_sized(printer, self.source.type, self.source_size)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)
        print_trailing_attrs(printer, self)


@irdl_op_definition
class AsyncLoadOp(_ByteLoadBase):
    """Reads one value at a byte offset of a staging resource (host code, after an await)."""

    name = "stream.async.load"


@irdl_op_definition
class ResourceLoadOp(_ByteLoadBase):
    """Reads one value at a byte offset of a mapped (staging) resource."""

    name = "stream.resource.load"


@irdl_op_definition
class AsyncFillOp(IRDLOperation):
    """`%r = stream.async.fill on(...) %b, %t[%a to %e for %n] : i32 -> %t as !stream.resource<*>{%m}`

    Writes the bit pattern `%b` over bytes [%a, %e) of the target, in place.
    """

    name = "stream.async.fill"

    target = operand_def(ResourceType)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    target_end = operand_def(IndexType)
    target_length = operand_def(IndexType)
    value = operand_def()
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    def __init__(
        self,
        value: SSAValue,
        target: SSAValue,
        target_size: SSAValue,
        target_offset: SSAValue,
        target_end: SSAValue,
        target_length: SSAValue,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[target, target_size, target_offset, target_end, target_length, value],
            result_types=[target.type],
            properties=affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncFillOp:
        affinity = parse_affinity(parser)
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        offset, end, length = parse_range(parser, with_length=True)
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation("->")
        parser.parse_unresolved_operand()  # the tied target, named again
        parser.parse_keyword("as")
        target_type, target_size = parse_sized_type(parser)
        op = cls(
            parser.resolve_operand(value, value_type),
            parser.resolve_operand(target, target_type),
            target_size,
            offset,
            end,
            length,
            affinity,
        )
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        printer.print_operand(self.target)
        print_range(printer, self.target_offset, self.target_end, self.target_length)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(" -> ")
        printer.print_operand(self.target)
        printer.print_string(" as ")
        print_sized(printer, self.target.type, self.target_size)
        print_trailing_attrs(printer, self)


@irdl_op_definition
class CmdFlushOp(IRDLOperation):
    """`stream.cmd.flush %r[%off for %len] : !stream.resource<staging>{%n}`

    Makes device writes to the range visible to the host (after a copy into staging).
    """

    name = "stream.cmd.flush"

    target = operand_def(ResourceType)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    target_length = operand_def(IndexType)

    def __init__(
        self,
        target: SSAValue,
        target_size: SSAValue,
        target_offset: SSAValue,
        target_length: SSAValue,
    ):
        super().__init__(operands=[target, target_size, target_offset, target_length])

    @classmethod
    def parse(cls, parser: Parser) -> CmdFlushOp:
        target = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        offset = parser.parse_operand(IndexType())
        parser.parse_keyword("for")
        length = parser.parse_operand(IndexType())
        parser.parse_punctuation("]")
        parser.parse_punctuation(":")
        ty, size = parse_sized_type(parser)
        op = cls(parser.resolve_operand(target, ty), size, offset, length)
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.target)
        printer.print_string("[")
        printer.print_operand(self.target_offset)
        printer.print_string(" for ")
        printer.print_operand(self.target_length)
        printer.print_string("] : ")
        print_sized(printer, self.target.type, self.target_size)
        print_trailing_attrs(printer, self)
