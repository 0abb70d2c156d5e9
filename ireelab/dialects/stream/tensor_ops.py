"""Tensor-level ops, before resources are sized into bytes: `stream.tensor.*`.

Mirrors IREE's `stream.tensor.{import,export,sizeof,clone,splat,dispatch}`
(`Dialect/Stream/IR/StreamOps.td`): what `ConvertToStreamPass` produces from Flow, each
resource paired with the tensor type it encodes; `EncodeHostTensorsPass` rewrites them into
`stream.async.*` ops on byte sizes.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IndexType, IntegerAttr, SymbolRefAttr
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
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from ireelab.dialects.flow_directives import (
    parse_entry_points,
    parse_optional_workload,
    parse_shaped_type,
    print_entry_points,
    print_shaped_type,
    print_workload,
)
from ireelab.dialects.stream.syntax import (
    affinity_props,
    is_resource,
    parse_affinity,
    parse_encoding,
    parse_operand_list,
    parse_size,
    parse_sized_type,
    parse_trailing_attrs,
    print_affinity,
    print_encoding,
    print_sized,
    print_trailing_attrs,
)
from ireelab.dialects.stream.types import ResourceType


@irdl_op_definition
class TensorImportOp(IRDLOperation):
    """`%r = stream.tensor.import on(...) %bv : !hal.buffer_view -> tensor<2x4xf32> in !stream.resource<external>{%c32}`"""

    name = "stream.tensor.import"

    source = operand_def()
    result_encoding_dims = var_operand_def(IndexType)
    result_size = operand_def(IndexType)
    result_encoding = prop_def(Attribute)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        source: SSAValue,
        result_encoding: Attribute,
        result_type: ResourceType,
        result_size: SSAValue,
        affinity: Attribute | None = None,
        result_encoding_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[source, list(result_encoding_dims), result_size],
            result_types=[result_type],
            properties={"result_encoding": result_encoding, **affinity_props(affinity=affinity)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorImportOp:
        affinity = parse_affinity(parser)
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation("->")
        encoding, dims = parse_encoding(parser)
        ty, size = parse_sized_type(parser)
        op = cls(parser.resolve_operand(source, source_type), encoding, ty, size, affinity, dims)
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        print_encoding(printer, self.result_encoding, self.result_encoding_dims)
        print_sized(printer, self.result.type, self.result_size)
        print_trailing_attrs(printer, self)


@irdl_op_definition
class TensorExportOp(IRDLOperation):
    """`%bv = stream.tensor.export on(...) %r : tensor<2x2xf32> in !stream.resource<external>{%c16} -> !hal.buffer_view`"""

    name = "stream.tensor.export"

    source = operand_def(ResourceType)
    source_encoding_dims = var_operand_def(IndexType)
    source_size = operand_def(IndexType)
    source_encoding = prop_def(Attribute)
    affinity = opt_prop_def(Attribute)
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        source: SSAValue,
        source_encoding: Attribute,
        source_size: SSAValue,
        result_type: Attribute,
        affinity: Attribute | None = None,
        source_encoding_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[source, list(source_encoding_dims), source_size],
            result_types=[result_type],
            properties={"source_encoding": source_encoding, **affinity_props(affinity=affinity)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorExportOp:
        affinity = parse_affinity(parser)
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        encoding, dims = parse_encoding(parser)
        ty, size = parse_sized_type(parser)
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        op = cls(parser.resolve_operand(source, ty), encoding, size, result_type, affinity, dims)
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" : ")
        print_encoding(printer, self.source_encoding, self.source_encoding_dims)
        print_sized(printer, self.source.type, self.source_size)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)
        print_trailing_attrs(printer, self)


@irdl_op_definition
class TensorSizeOfOp(IRDLOperation):
    """`%n = stream.tensor.sizeof on(...) tensor<2x4xf32> : index`: bytes to hold a tensor."""

    name = "stream.tensor.sizeof"

    encoding_dims = var_operand_def(IndexType)
    encoding = prop_def(Attribute)
    affinity = opt_prop_def(Attribute)
    storage_size = result_def(IndexType)

    traits = traits_def(Pure())

    def __init__(
        self,
        encoding: Attribute,
        affinity: Attribute | None = None,
        encoding_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[list(encoding_dims)],
            result_types=[IndexType()],
            properties={"encoding": encoding, **affinity_props(affinity=affinity)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorSizeOfOp:
        affinity = parse_affinity(parser)
        encoding, dims = parse_shaped_type(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        parser.parse_type()
        op = cls(encoding, affinity, dims)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_string(" ")
        print_shaped_type(printer, self.encoding, self.encoding_dims)
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" : index")


@irdl_op_definition
class TensorCloneOp(IRDLOperation):
    """`%r = stream.tensor.clone on(...) %s : tensor<4x8xf32> in !stream.resource<*>{%n} -> tensor<32xf32> in !stream.resource<*>{%n}`

    What a metadata-only `flow.tensor.reshape` becomes; copy elision removes it again.
    """

    name = "stream.tensor.clone"

    source = operand_def(ResourceType)
    source_encoding_dims = var_operand_def(IndexType)
    source_size = operand_def(IndexType)
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
        result_encoding: Attribute,
        result_size: SSAValue,
        result_type: Attribute | None = None,
        affinity: Attribute | None = None,
        source_encoding_dims: Sequence[SSAValue] = (),
        result_encoding_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[
                source,
                list(source_encoding_dims),
                source_size,
                list(result_encoding_dims),
                result_size,
            ],
            result_types=[result_type or source.type],
            properties={
                "source_encoding": source_encoding,
                "result_encoding": result_encoding,
                **affinity_props(affinity=affinity),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorCloneOp:
        affinity = parse_affinity(parser)
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        source_encoding, source_dims = parse_encoding(parser)
        ty, size = parse_sized_type(parser)
        parser.parse_punctuation("->")
        result_encoding, result_dims = parse_encoding(parser)
        result_type, result_size = parse_sized_type(parser)
        op = cls(
            parser.resolve_operand(source, ty),
            source_encoding,
            size,
            result_encoding,
            result_size,
            result_type,
            affinity,
            source_dims,
            result_dims,
        )
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" : ")
        print_encoding(printer, self.source_encoding, self.source_encoding_dims)
        print_sized(printer, self.source.type, self.source_size)
        printer.print_string(" -> ")
        print_encoding(printer, self.result_encoding, self.result_encoding_dims)
        print_sized(printer, self.result.type, self.result_size)
        print_trailing_attrs(printer, self)


@irdl_op_definition
class TensorSplatOp(IRDLOperation):
    """`%r = stream.tensor.splat on(...) %v : f32 -> tensor<8xf32> in !stream.resource<*>{%n}`"""

    name = "stream.tensor.splat"

    value = operand_def()
    result_encoding_dims = var_operand_def(IndexType)
    result_size = operand_def(IndexType)
    result_encoding = prop_def(Attribute)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        value: SSAValue,
        result_encoding: Attribute,
        result_type: Attribute,
        result_size: SSAValue,
        affinity: Attribute | None = None,
        result_encoding_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[value, list(result_encoding_dims), result_size],
            result_types=[result_type],
            properties={"result_encoding": result_encoding, **affinity_props(affinity=affinity)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorSplatOp:
        affinity = parse_affinity(parser)
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation("->")
        encoding, dims = parse_encoding(parser)
        ty, size = parse_sized_type(parser)
        op = cls(parser.resolve_operand(value, value_type), encoding, ty, size, affinity, dims)
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(" -> ")
        print_encoding(printer, self.result_encoding, self.result_encoding_dims)
        print_sized(printer, self.result.type, self.result_size)
        print_trailing_attrs(printer, self)


@irdl_op_definition
class TensorDispatchOp(IRDLOperation):
    """`%r = stream.tensor.dispatch on(...) @exe::@fn(%a, %b) : (tensor<..> in !stream.resource<*>{%n}, ...) -> tensor<..> in !stream.resource<*>{%m}`

    A dispatch still described by the tensors it reads and writes (dynamic dims of the
    encodings are not modelled: the reference programs are static).
    """

    name = "stream.tensor.dispatch"

    workload = var_operand_def(IndexType)
    mixed_operands = var_operand_def()
    operand_sizes = var_operand_def(IndexType)
    result_sizes = var_operand_def(IndexType)
    entry_points = prop_def(ArrayAttr[SymbolRefAttr])
    operand_encodings = prop_def(ArrayAttr)
    result_encodings = prop_def(ArrayAttr)
    affinity = opt_prop_def(Attribute)
    tied_operands = opt_prop_def(ArrayAttr)
    outputs = var_result_def(ResourceType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        entry_point: SymbolRefAttr,
        operands: Sequence[SSAValue],
        operand_sizes: Sequence[SSAValue],
        operand_encodings: Sequence[Attribute],
        result_types: Sequence[Attribute],
        result_sizes: Sequence[SSAValue],
        result_encodings: Sequence[Attribute],
        affinity: Attribute | None = None,
        workload: Sequence[SSAValue] = (),
        tied: Sequence[int] = (),
    ):
        super().__init__(
            operands=[list(workload), list(operands), list(operand_sizes), list(result_sizes)],
            result_types=[list(result_types)],
            properties={
                "entry_points": ArrayAttr([entry_point]),
                "operand_encodings": ArrayAttr(operand_encodings),
                "result_encodings": ArrayAttr(result_encodings),
                **affinity_props(affinity=affinity),
                **tied_props(tied),
            },
        )

    def tied(self) -> list[int]:
        """Per result, the index in `mixed_operands` it updates in place, or -1 (untied)."""
        return tied_list(self, len(self.outputs))

    @property
    def entry_point(self) -> SymbolRefAttr:
        return self.entry_points.data[0]

    @classmethod
    def parse(cls, parser: Parser) -> TensorDispatchOp:
        affinity = parse_affinity(parser)
        entry_points = parse_entry_points(parser)
        workload = parse_optional_workload(parser)
        unresolved = parse_operand_list(parser, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_parts = parse_operand_list(parser, lambda: _parse_encoded_type(parser))
        parser.parse_punctuation("->")
        names = [u.operand_name for u in unresolved]
        types_ = [part[1] for part in operand_parts]
        if parser.parse_optional_punctuation("("):
            result_parts = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE, lambda: _parse_result_type(parser, names, types_)
            )
            parser.parse_punctuation(")")
        else:
            result_parts = [_parse_result_type(parser, names, types_)]
        operands = [
            parser.resolve_operand(u, part[1])
            for u, part in zip(unresolved, operand_parts, strict=False)
        ]
        op = cls(
            entry_points.data[0],
            operands,
            [p[2] for p in operand_parts if p[2] is not None],
            [p[0] for p in operand_parts],
            [p[1] for p in result_parts],
            [p[2] for p in result_parts if p[2] is not None],
            [p[0] for p in result_parts],
            affinity,
            workload,
            [p[3] for p in result_parts],
        )
        op.properties["entry_points"] = entry_points
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        print_entry_points(printer, self.entry_points)
        print_workload(printer, self.workload)
        printer.print_string("(")
        printer.print_list(self.mixed_operands, printer.print_operand)
        printer.print_string(")")
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" : (")
        sizes = iter(self.operand_sizes)
        for i, (value, encoding) in enumerate(
            zip(self.mixed_operands, self.operand_encodings, strict=False)
        ):
            if i:
                printer.print_string(", ")
            _print_encoded_type(printer, encoding, value.type, sizes)
        printer.print_string(") -> ")
        result_sizes = iter(self.result_sizes)
        many = len(self.outputs) != 1
        if many:
            printer.print_string("(")
        for i, (result, encoding, tied) in enumerate(
            zip(self.outputs, self.result_encodings, self.tied(), strict=False)
        ):
            if i:
                printer.print_string(", ")
            if tied < 0:
                _print_encoded_type(printer, encoding, result.type, result_sizes)
                continue
            printer.print_attribute(encoding)
            printer.print_string(" in ")
            printer.print_operand(self.mixed_operands[tied])
            printer.print_string("{")
            printer.print_operand(next(result_sizes))
            printer.print_string("}")
        if many:
            printer.print_string(")")


def tied_props(tied: Sequence[int]) -> dict[str, Attribute]:
    """The `tied_operands` property (absent when no result is tied), as IREE prints it."""
    if all(i < 0 for i in tied):
        return {}
    return {"tied_operands": ArrayAttr([IntegerAttr(i, IndexType()) for i in tied])}


def tied_list(op: IRDLOperation, count: int) -> list[int]:
    attr = op.properties.get("tied_operands")
    if not isinstance(attr, ArrayAttr):
        return [-1] * count
    return [a.value.data for a in attr.data]


def _parse_result_type(
    parser: Parser, names: Sequence[str], types: Sequence[Attribute]
) -> tuple[Attribute, Attribute, SSAValue | None, int]:
    """A dispatch result: `tensor<..> in !stream.resource<*>{%n}` or, tied to an operand,
    `tensor<..> in %operand{%n}`."""
    ty = parser.parse_type()
    parser.parse_keyword("in")
    tied = parser.parse_optional_unresolved_operand()
    if tied is None:
        resource_type, size = parse_sized_type(parser)
        return ty, resource_type, size, -1
    if tied.operand_name not in names:
        parser.raise_error("a tied result must name a dispatch operand")
    index = names.index(tied.operand_name)
    return ty, types[index], parse_size(parser), index


def _parse_encoded_type(parser: Parser) -> tuple[Attribute, Attribute, SSAValue | None]:
    """`tensor<..> in !stream.resource<*>{%n}` or a primitive type (`index`)."""
    ty = parser.parse_type()
    if parser.parse_optional_keyword("in") is None:
        return ty, ty, None
    resource_type, size = parse_sized_type(parser)
    return ty, resource_type, size


def _print_encoded_type(printer: Printer, encoding: Attribute, ty: Attribute, sizes) -> None:
    if not is_resource(ty):
        printer.print_attribute(ty)
        return
    printer.print_attribute(encoding)
    printer.print_string(" in ")
    print_sized(printer, ty, next(sizes))
