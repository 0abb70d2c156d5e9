"""Host reads of single values from a mapped buffer: `hal.buffer.load`.

Mirrors IREE's `hal.buffer.load` (`Dialect/HAL/IR/HALOps.td`, IREE 3.13). ConvertToHALPass
makes it from `stream.resource.load`, the host read of an element that the Stream stage copied
into a staging buffer (a host `tensor.extract`); the VM stage calls the HAL module's
`hal.buffer.load` import with the byte offset and the value's width:

    %v = hal.buffer.load<%buffer : !hal.buffer>[%c0] : f32
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from ireelab.dialects.hal.types import BufferType


@irdl_op_definition
class BufferLoadOp(IRDLOperation):
    """`%v = hal.buffer.load<%b : !hal.buffer>[%offset] : f32`"""

    name = "hal.buffer.load"

    source_buffer = operand_def(BufferType)
    source_offset = operand_def(IndexType)
    result = result_def()

    def __init__(self, source_buffer: SSAValue, source_offset: SSAValue, result_type: Attribute):
        super().__init__(operands=[source_buffer, source_offset], result_types=[result_type])

    # Custom: IREE prints `>[%offset]` with no space, which xDSL's format cannot say.
    @classmethod
    def parse(cls, parser: Parser) -> BufferLoadOp:
        with parser.in_angle_brackets():
            buffer = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            buffer_type = parser.parse_type()
        parser.parse_punctuation("[")
        offset = parser.parse_operand(IndexType())
        parser.parse_punctuation("]")
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        op = cls(parser.resolve_operand(buffer, buffer_type), offset, result_type)
        attrs = parser.parse_optional_attr_dict()
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_operand(self.source_buffer)
        printer.print_string(" : ")
        printer.print_attribute(self.source_buffer.type)
        printer.print_string(">[")
        printer.print_operand(self.source_offset)
        printer.print_string("] : ")
        printer.print_attribute(self.result.type)
        if self.attributes:
            printer.print_op_attributes(self.attributes)
