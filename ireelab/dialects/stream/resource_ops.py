"""Resource ops: `stream.resource.{alloca,dealloca,size,subview}`.

Mirrors IREE's `stream.resource.*` ops (`Dialect/Stream/IR/StreamOps.td`):
`ScheduleAllocationPass` allocates the transient resources of an execution region with
`stream.resource.alloca` and frees them with `stream.resource.dealloca`, both ordered by
timepoints.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
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
    parse_arrow,
    parse_optional_await,
    parse_sized_type,
    parse_trailing_attrs,
    parse_typed_operand,
    print_affinity,
    print_await,
    print_sized,
    print_trailing_attrs,
)
from ireelab.dialects.stream.types import ResourceType, TimepointType


@irdl_op_definition
class ResourceAllocaOp(IRDLOperation):
    """`%r, %t = stream.resource.alloca uninitialized on(...) await(%w) => !stream.resource<transient>{%n} => !stream.timepoint`

    A queue-ordered allocation: the memory is ready when `%t` is reached.
    """

    name = "stream.resource.alloca"

    storage_size = operand_def(IndexType)
    await_timepoint = opt_operand_def(TimepointType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)
    result_timepoint = result_def(TimepointType)

    def __init__(
        self,
        resource_type: ResourceType,
        storage_size: SSAValue,
        affinity: Attribute | None = None,
        await_timepoint: SSAValue | None = None,
    ):
        super().__init__(
            operands=[storage_size, [await_timepoint] if await_timepoint else []],
            result_types=[resource_type, TimepointType()],
            properties=affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser) -> ResourceAllocaOp:
        parser.parse_keyword("uninitialized")
        affinity = parse_affinity(parser)
        timepoint = parse_optional_await(parser)
        if timepoint is None:
            parser.parse_punctuation(":")
        attrs = parser.parse_optional_attr_dict()
        ty, size = parse_sized_type(parser)
        parse_arrow(parser)
        parser.parse_type()
        if not isinstance(ty, ResourceType):
            parser.raise_error("expected a !stream.resource type")
        op = cls(ty, size, affinity, timepoint)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" uninitialized")
        print_affinity(printer, self.affinity)
        if self.await_timepoint is not None:
            print_await(printer, self.await_timepoint)
        else:
            printer.print_string(" :")
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" ")
        print_sized(printer, self.result.type, self.storage_size)
        printer.print_string(" => !stream.timepoint")


@irdl_op_definition
class ResourceDeallocaOp(IRDLOperation):
    """`%t = stream.resource.dealloca on(...) await(%w) => %r : !stream.resource<transient>{%n} => !stream.timepoint`"""

    name = "stream.resource.dealloca"

    operand = operand_def(ResourceType)
    operand_size = operand_def(IndexType)
    await_timepoint = opt_operand_def(TimepointType)
    affinity = opt_prop_def(Attribute)
    result_timepoint = result_def(TimepointType)

    def __init__(
        self,
        operand: SSAValue,
        operand_size: SSAValue,
        affinity: Attribute | None = None,
        await_timepoint: SSAValue | None = None,
    ):
        super().__init__(
            operands=[operand, operand_size, [await_timepoint] if await_timepoint else []],
            result_types=[TimepointType()],
            properties=affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser) -> ResourceDeallocaOp:
        affinity = parse_affinity(parser)
        timepoint = parse_optional_await(parser)
        operand, _, size = parse_typed_operand(parser)
        parse_arrow(parser)
        parser.parse_type()
        op = cls(operand, size, affinity, timepoint)
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        print_await(printer, self.await_timepoint)
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(" : ")
        print_sized(printer, self.operand.type, self.operand_size)
        printer.print_string(" => !stream.timepoint")
        print_trailing_attrs(printer, self)


@irdl_op_definition
class ResourceSizeOp(IRDLOperation):
    """`%n = stream.resource.size %r : !stream.resource<external>`"""

    name = "stream.resource.size"

    operand = operand_def(ResourceType)
    affinity = opt_prop_def(Attribute)
    result = result_def(IndexType)

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(Pure())

    assembly_format = "$operand attr-dict `:` type($operand)"

    def __init__(self, operand: SSAValue):
        super().__init__(operands=[operand], result_types=[IndexType()])


@irdl_op_definition
class ResourceSubviewOp(IRDLOperation):
    """`%v = stream.resource.subview %r[%off] : !stream.resource<external>{%n} -> !stream.resource<external>{%m}`"""

    name = "stream.resource.subview"

    source = operand_def(ResourceType)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    result_size = operand_def(IndexType)
    result = result_def(ResourceType)

    traits = traits_def(Pure())

    def __init__(
        self,
        source: SSAValue,
        source_size: SSAValue,
        source_offset: SSAValue,
        result_size: SSAValue,
    ):
        super().__init__(
            operands=[source, source_size, source_offset, result_size],
            result_types=[source.type],
        )

    @classmethod
    def parse(cls, parser: Parser) -> ResourceSubviewOp:
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        offset = parser.parse_operand(IndexType())
        parser.parse_punctuation("]")
        parser.parse_punctuation(":")
        ty, size = parse_sized_type(parser)
        parser.parse_punctuation("->")
        _, result_size = parse_sized_type(parser)
        op = cls(parser.resolve_operand(source, ty), size, offset, result_size)
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string("[")
        printer.print_operand(self.source_offset)
        printer.print_string("] : ")
        print_sized(printer, self.source.type, self.source_size)
        printer.print_string(" -> ")
        print_sized(printer, self.result.type, self.result_size)
        print_trailing_attrs(printer, self)
