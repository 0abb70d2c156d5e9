"""Contiguous slices and updates of resources: `stream.tensor.{empty,slice,update}` and
`stream.async.slice`.

Mirrors IREE's ops of those names (`Dialect/Stream/IR/StreamOps.td`, IREE 3.13).
ConvertToStreamPass makes the tensor forms from `flow.tensor.empty` / `flow.tensor.slice` /
`flow.tensor.update`; EncodeHostTensorsPass turns them into byte-range ops:

    %e = stream.tensor.empty on(#aff) : tensor<6x4xf32> in !stream.resource<*>{%n}
    %s = stream.tensor.slice on(#aff) %a[%c2, %c0 for %c2, %c16]
           : tensor<8x16xf32> in !stream.resource<*>{%sa} -> tensor<2x16xf32> in !stream.resource<*>{%ss}
    %u = stream.tensor.update on(#aff) %b, %a[%c5, %c0]
           : tensor<2x16xf32> in !stream.resource<*>{%sb} -> tensor<8x16xf32> in %a as !stream.resource<*>{%sa}
      ->
    %e = stream.async.alloca on(#aff) : !stream.resource<*>{%c96}
    %s = stream.async.slice on(#aff) %a[%c128 to %c256] : !stream.resource<*>{%c512} -> !stream.resource<*>{%c128}
    %u = stream.async.update on(#aff) %b, %a[%c320 to %c448] : !stream.resource<*>{%c128} -> %a as !stream.resource<*>{%c512}

(`stream.async.update` itself lives in `async_ops`.) The update's result is tied to its
target: the same storage, written in place.
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
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from ireelab.dialects.flow_directives import parse_shaped_type, print_shaped_type
from ireelab.dialects.stream.syntax import (
    affinity_props,
    parse_affinity,
    parse_encoding,
    parse_range,
    parse_size,
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
    return parser.parse_comma_separated_list(
        Parser.Delimiter.NONE, lambda: parser.parse_operand(IndexType())
    )


def _print_indices(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_list(values, printer.print_operand)


@irdl_op_definition
class TensorEmptyOp(IRDLOperation):
    """`%r = stream.tensor.empty on(...) : tensor<6x4xf32> in !stream.resource<*>{%n}`"""

    name = "stream.tensor.empty"

    result_encoding_dims = var_operand_def(IndexType)
    result_size = operand_def(IndexType)
    result_encoding = prop_def(Attribute)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        result_encoding: Attribute,
        result_type: Attribute,
        result_size: SSAValue,
        affinity: Attribute | None = None,
        result_encoding_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[list(result_encoding_dims), result_size],
            result_types=[result_type],
            properties={"result_encoding": result_encoding, **affinity_props(affinity=affinity)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorEmptyOp:
        affinity = parse_affinity(parser)
        parser.parse_punctuation(":")
        encoding, dims = parse_encoding(parser)
        ty, size = parse_sized_type(parser)
        return parse_trailing_attrs(parser, cls(encoding, ty, size, affinity, dims))

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_string(" : ")
        print_encoding(printer, self.result_encoding, self.result_encoding_dims)
        print_sized(printer, self.result.type, self.result_size)
        print_trailing_attrs(printer, self)


@irdl_op_definition
class TensorSliceOp(IRDLOperation):
    """`%r = stream.tensor.slice on(...) %src[%o0, %o1 for %l0, %l1] : tensor<8x16xf32> in
    !stream.resource<*>{%n} -> tensor<2x16xf32> in !stream.resource<*>{%m}`"""

    name = "stream.tensor.slice"

    source = operand_def(ResourceType)
    source_encoding_dims = var_operand_def(IndexType)
    source_size = operand_def(IndexType)
    start_indices = var_operand_def(IndexType)
    lengths = var_operand_def(IndexType)
    result_encoding_dims = var_operand_def(IndexType)
    result_size = operand_def(IndexType)
    source_encoding = prop_def(Attribute)
    result_encoding = prop_def(Attribute)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        source: SSAValue,
        source_encoding: Attribute,
        source_size: SSAValue,
        start_indices: Sequence[SSAValue],
        lengths: Sequence[SSAValue],
        result_encoding: Attribute,
        result_type: Attribute,
        result_size: SSAValue,
        affinity: Attribute | None = None,
        source_encoding_dims: Sequence[SSAValue] = (),
        result_encoding_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[
                source,
                list(source_encoding_dims),
                source_size,
                list(start_indices),
                list(lengths),
                list(result_encoding_dims),
                result_size,
            ],
            result_types=[result_type],
            properties={
                "source_encoding": source_encoding,
                "result_encoding": result_encoding,
                **affinity_props(affinity=affinity),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorSliceOp:
        affinity = parse_affinity(parser)
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        starts = _parse_indices(parser)
        parser.parse_keyword("for")
        lengths = _parse_indices(parser)
        parser.parse_punctuation("]")
        parser.parse_punctuation(":")
        source_encoding, source_dims = parse_encoding(parser)
        source_type, source_size = parse_sized_type(parser)
        parser.parse_punctuation("->")
        result_encoding, result_dims = parse_encoding(parser)
        result_type, result_size = parse_sized_type(parser)
        op = cls(
            parser.resolve_operand(source, source_type),
            source_encoding,
            source_size,
            starts,
            lengths,
            result_encoding,
            result_type,
            result_size,
            affinity,
            source_dims,
            result_dims,
        )
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string("[")
        _print_indices(printer, self.start_indices)
        printer.print_string(" for ")
        _print_indices(printer, self.lengths)
        printer.print_string("] : ")
        print_encoding(printer, self.source_encoding, self.source_encoding_dims)
        print_sized(printer, self.source.type, self.source_size)
        printer.print_string(" -> ")
        print_encoding(printer, self.result_encoding, self.result_encoding_dims)
        print_sized(printer, self.result.type, self.result_size)
        print_trailing_attrs(printer, self)


@irdl_op_definition
class TensorUpdateOp(IRDLOperation):
    """`%r = stream.tensor.update on(...) %u, %t[%o0, %o1] : tensor<2x16xf32> in
    !stream.resource<*>{%n} -> tensor<8x16xf32> in %t as !stream.resource<*>{%m}`"""

    name = "stream.tensor.update"

    target = operand_def(ResourceType)
    target_encoding_dims = var_operand_def(IndexType)
    target_size = operand_def(IndexType)
    start_indices = var_operand_def(IndexType)
    update = operand_def(ResourceType)
    update_encoding_dims = var_operand_def(IndexType)
    update_size = operand_def(IndexType)
    target_encoding = prop_def(Attribute)
    update_encoding = prop_def(Attribute)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        target: SSAValue,
        target_encoding: Attribute,
        target_size: SSAValue,
        start_indices: Sequence[SSAValue],
        update: SSAValue,
        update_encoding: Attribute,
        update_size: SSAValue,
        affinity: Attribute | None = None,
        target_encoding_dims: Sequence[SSAValue] = (),
        update_encoding_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[
                target,
                list(target_encoding_dims),
                target_size,
                list(start_indices),
                update,
                list(update_encoding_dims),
                update_size,
            ],
            result_types=[target.type],
            properties={
                "target_encoding": target_encoding,
                "update_encoding": update_encoding,
                **affinity_props(affinity=affinity),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorUpdateOp:
        affinity = parse_affinity(parser)
        update = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        starts = _parse_indices(parser)
        parser.parse_punctuation("]")
        parser.parse_punctuation(":")
        update_encoding, update_dims = parse_encoding(parser)
        update_type, update_size = parse_sized_type(parser)
        parser.parse_punctuation("->")
        target_encoding, target_dims = parse_shaped_type(parser)
        parser.parse_keyword("in")
        parser.parse_unresolved_operand()  # the tied target, named again
        parser.parse_keyword("as")
        target_type, target_size = parse_sized_type(parser)
        op = cls(
            parser.resolve_operand(target, target_type),
            target_encoding,
            target_size,
            starts,
            parser.resolve_operand(update, update_type),
            update_encoding,
            update_size,
            affinity,
            target_dims,
            update_dims,
        )
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.update)
        printer.print_string(", ")
        printer.print_operand(self.target)
        printer.print_string("[")
        _print_indices(printer, self.start_indices)
        printer.print_string("] : ")
        print_encoding(printer, self.update_encoding, self.update_encoding_dims)
        print_sized(printer, self.update.type, self.update_size)
        printer.print_string(" -> ")
        print_shaped_type(printer, self.target_encoding, self.target_encoding_dims)
        printer.print_string(" in ")
        printer.print_operand(self.target)
        printer.print_string(" as ")
        print_sized(printer, self.target.type, self.target_size)
        print_trailing_attrs(printer, self)


@irdl_op_definition
class AsyncSliceOp(IRDLOperation):
    """`%r = stream.async.slice on(...) %s[%a to %b] : !stream.resource<*>{%n} -> !stream.resource<*>{%m}`

    A new resource holding bytes [%a, %b) of the source.
    """

    name = "stream.async.slice"

    source = operand_def(ResourceType)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    source_end = operand_def(IndexType)
    result_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    traits = traits_def(Pure())

    def __init__(
        self,
        source: SSAValue,
        source_size: SSAValue,
        source_offset: SSAValue,
        source_end: SSAValue,
        result_size: SSAValue,
        affinity: Attribute | None = None,
        result_type: Attribute | None = None,
    ):
        super().__init__(
            operands=[source, source_size, source_offset, source_end, result_size],
            result_types=[result_type if result_type is not None else source.type],
            properties=affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncSliceOp:
        affinity = parse_affinity(parser)
        source = parser.parse_unresolved_operand()
        offset, end = parse_range(parser, with_length=False)
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        source_size = parse_size(parser)
        parser.parse_punctuation("->")
        result_type, result_size = parse_sized_type(parser)
        op = cls(
            parser.resolve_operand(source, source_type),
            source_size,
            offset,
            end,
            result_size,
            affinity,
            result_type,
        )
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.source)
        print_range(printer, self.source_offset, self.source_end)
        printer.print_string(" : ")
        print_sized(printer, self.source.type, self.source_size)
        printer.print_string(" -> ")
        print_sized(printer, self.result.type, self.result_size)
        print_trailing_attrs(printer, self)
