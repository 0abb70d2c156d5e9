"""Constant resources: `stream.tensor.constant`, `stream.async.constant`,
`stream.resource.constants` and `stream.resource.try_map`.

Mirrors IREE's ops of the same names (`Dialect/Stream/IR/StreamOps.td`). A large dense
constant the Flow stage outlined into a global is uploaded once, in a `util.initializer`, and
changes form stage by stage:

- `ConvertToStreamPass`: `stream.tensor.constant` (the tensor type it holds, no size yet);
- `EncodeHostTensorsPass`: `stream.async.constant` (sized in bytes);
- `ScheduleAllocationPass`: `stream.resource.constants` (all constants of a block in one
  op, ready at a timepoint);
- `PackConstantsPass`: the bytes become a `util.buffer.constant` and the resource a
  `stream.resource.try_map` of it (the device maps the module's memory when it can).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IndexType, i1
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
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

from ireelab.dialects.stream.syntax import (
    affinity_props,
    parse_affinity,
    parse_arrow,
    parse_encoding,
    parse_sized_type,
    print_affinity,
    print_encoding,
    print_sized,
)
from ireelab.dialects.stream.types import ResourceType, TimepointType


@irdl_op_definition
class TensorConstantOp(IRDLOperation):
    """`%cst = stream.tensor.constant on(...) : tensor<64x64xf32> in !stream.resource<constant> = dense<...>`"""

    name = "stream.tensor.constant"

    result_encoding_dims = var_operand_def(IndexType)
    value = prop_def(Attribute)
    result_encoding = prop_def(Attribute)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    traits = traits_def(Pure())

    def __init__(
        self,
        value: Attribute,
        encoding: Attribute,
        result_type: ResourceType,
        affinity: Attribute | None = None,
        dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[list(dims)],
            result_types=[result_type],
            properties={
                "value": value,
                "result_encoding": encoding,
                **affinity_props(affinity=affinity),
            },
        )
        self.result.name_hint = "cst"

    @classmethod
    def parse(cls, parser: Parser) -> TensorConstantOp:
        affinity = parse_affinity(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        encoding, dims = parse_encoding(parser)
        result_type = parser.parse_type()
        parser.parse_punctuation("=")
        value = parser.parse_attribute()
        if not isinstance(result_type, ResourceType):
            parser.raise_error("expected a !stream.resource type")
        op = cls(value, encoding, result_type, affinity, dims)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        print_encoding(printer, self.result_encoding, self.result_encoding_dims)
        printer.print_attribute(self.result.type)
        printer.print_string(" = ")
        printer.print_attribute(self.value)


@irdl_op_definition
class AsyncConstantOp(IRDLOperation):
    """`%cst = stream.async.constant on(...) : !stream.resource<constant>{%n} = dense<...>`"""

    name = "stream.async.constant"

    result_size = operand_def(IndexType)
    value = prop_def(Attribute)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    traits = traits_def(Pure())

    def __init__(
        self,
        value: Attribute,
        result_type: ResourceType,
        size: SSAValue,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[size],
            result_types=[result_type],
            properties={"value": value, **affinity_props(affinity=affinity)},
        )
        self.result.name_hint = "cst"

    @classmethod
    def parse(cls, parser: Parser) -> AsyncConstantOp:
        affinity = parse_affinity(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        result_type, size = parse_sized_type(parser)
        parser.parse_punctuation("=")
        value = parser.parse_attribute()
        if not isinstance(result_type, ResourceType):
            parser.raise_error("expected a !stream.resource type")
        op = cls(value, result_type, size, affinity)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        print_sized(printer, self.result.type, self.result_size)
        printer.print_string(" = ")
        printer.print_attribute(self.value)


@irdl_op_definition
class ResourceConstantsOp(IRDLOperation):
    """`%results:N, %result_timepoint = stream.resource.constants on(...) :`
    one `!stream.resource<constant>{%n} = dense<...>` per line, then `=> !stream.timepoint`.

    Constant resources initialised with the values; usable once the timepoint is reached.
    Printed by hand: each result pairs its type and size with its value, one per line.
    """

    name = "stream.resource.constants"

    result_sizes = var_operand_def(IndexType)
    values = prop_def(ArrayAttr)
    affinity = opt_prop_def(Attribute)
    outputs = var_result_def(ResourceType)
    result_timepoint = result_def(TimepointType)

    def __init__(
        self,
        values: Sequence[Attribute],
        result_types: Sequence[Attribute],
        sizes: Sequence[SSAValue],
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[list(sizes)],
            result_types=[list(result_types), TimepointType()],
            properties={"values": ArrayAttr(values), **affinity_props(affinity=affinity)},
        )
        for result in self.outputs:
            result.name_hint = "results"
        self.result_timepoint.name_hint = "result_timepoint"

    @classmethod
    def parse(cls, parser: Parser) -> ResourceConstantsOp:
        affinity = parse_affinity(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")

        def parse_one() -> tuple[Attribute, SSAValue, Attribute]:
            ty, size = parse_sized_type(parser)
            parser.parse_punctuation("=")
            return ty, size, parser.parse_attribute()

        entries = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parse_one)
        parse_arrow(parser)
        parser.parse_type()
        op = cls([v for _, _, v in entries], [t for t, _, _ in entries], [s for _, s, _ in entries])
        if affinity is not None:
            op.affinity = affinity
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        with printer.indented():
            for i, (result, size, value) in enumerate(
                zip(self.outputs, self.result_sizes, self.values.data, strict=True)
            ):
                printer.print_string("\n")
                print_sized(printer, result.type, size)
                printer.print_string(" = ")
                printer.print_attribute(value)
                if i + 1 < len(self.outputs):
                    printer.print_string(",")
            printer.print_string("\n=> !stream.timepoint")


@irdl_op_definition
class ResourceTryMapOp(IRDLOperation):
    """`%did_map, %result = stream.resource.try_map on(...) %buf[%c0] : !util.buffer -> i1, !stream.resource<constant>{%n}`

    Tries to use host memory (a constant buffer of the module) as a resource without copying;
    `%did_map` says whether the device could.
    """

    name = "stream.resource.try_map"

    source = operand_def()
    source_offset = operand_def(IndexType)
    result_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    did_map = result_def(i1)
    result = result_def(ResourceType)

    def __init__(
        self,
        source: SSAValue,
        offset: SSAValue,
        result_type: Attribute,
        size: SSAValue,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[source, offset, size],
            result_types=[i1, result_type],
            properties=affinity_props(affinity=affinity),
        )
        self.did_map.name_hint = "did_map"
        self.result.name_hint = "result"

    @classmethod
    def parse(cls, parser: Parser) -> ResourceTryMapOp:
        affinity = parse_affinity(parser)
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        offset = parser.parse_operand(IndexType())
        parser.parse_punctuation("]")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation("->")
        parser.parse_type()
        parser.parse_punctuation(",")
        result_type, size = parse_sized_type(parser)
        op = cls(parser.resolve_operand(source, source_type), offset, result_type, size, affinity)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string("[")
        printer.print_operand(self.source_offset)
        printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> i1, ")
        print_sized(printer, self.result.type, self.result_size)
