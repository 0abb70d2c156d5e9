"""Host ops of stage F on buffers and buffer views, and the ABI constants they take.

Mirrors IREE's `hal.element_type`, `hal.encoding_type`, `hal.memory_type`, `hal.buffer_usage`,
`hal.buffer_view.*`, `hal.buffer.assert` and `hal.allocator.import` (`Dialect/HAL/IR/HALOps.td`):
the checks and wrapping `ConvertToHALPass` emits where a public function takes or returns a
buffer view, and the import of a module's constant bytes as a buffer.
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import IndexType, IntegerAttr, StringAttr, i1, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from ireelab.dialects.hal.flags import BufferUsageAttr, MemoryTypeAttr
from ireelab.dialects.hal.types import AllocatorType, BufferType, BufferViewType
from ireelab.dialects.util import BufferType as BufferDataType


@irdl_op_definition
class ElementTypeOp(IRDLOperation):
    """`%element_type_f32 = hal.element_type<f32> : i32`: IREE's packed element-type code."""

    name = "hal.element_type"

    type_ = prop_def(TypeAttribute, prop_name="type")
    result = result_def(i32)

    traits = traits_def(Pure())

    def __init__(self, element_type: Attribute):
        super().__init__(result_types=[i32], properties={"type": element_type})
        # MLIR's name sanitising: `complex<f32>` -> `element_type_complex_f32_`
        self.result.name_hint = re.sub(r"[^A-Za-z0-9_$.-]", "_", f"element_type_{element_type}")

    @classmethod
    def parse(cls, parser: Parser) -> ElementTypeOp:
        with parser.in_angle_brackets():
            element_type = parser.parse_type()
        parser.parse_punctuation(":")
        parser.parse_type()
        return cls(element_type)

    def print(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.type_)
        printer.print_string("> : i32")


@irdl_op_definition
class EncodingTypeOp(IRDLOperation):
    """`%dense_row_major = hal.encoding_type<dense_row_major> : i32`."""

    name = "hal.encoding_type"

    encoding = prop_def(StringAttr)
    result = result_def(i32)

    traits = traits_def(Pure())

    def __init__(self, encoding: str = "dense_row_major"):
        super().__init__(result_types=[i32], properties={"encoding": StringAttr(encoding)})
        self.result.name_hint = encoding

    @classmethod
    def parse(cls, parser: Parser) -> EncodingTypeOp:
        with parser.in_angle_brackets():
            encoding = parser.parse_identifier()
        parser.parse_punctuation(":")
        parser.parse_type()
        return cls(encoding)

    def print(self, printer: Printer) -> None:
        printer.print_string(f"<{self.encoding.data}> : i32")


@irdl_op_definition
class MemoryTypeOp(IRDLOperation):
    """`%memory_type = hal.memory_type<"DeviceVisible|DeviceLocal"> : i32`."""

    name = "hal.memory_type"

    type_ = prop_def(MemoryTypeAttr, prop_name="type")
    result = result_def(i32)

    traits = traits_def(Pure())

    assembly_format = "`<` $type `>` attr-dict `:` type($result)"

    def __init__(self, flags: str):
        super().__init__(result_types=[i32], properties={"type": MemoryTypeAttr(flags)})
        self.result.name_hint = "memory_type"


@irdl_op_definition
class BufferUsageOp(IRDLOperation):
    """`%buffer_usage = hal.buffer_usage<"TransferSource|...|DispatchStorage"> : i32`."""

    name = "hal.buffer_usage"

    usage = prop_def(BufferUsageAttr)
    result = result_def(i32)

    traits = traits_def(Pure())

    assembly_format = "`<` $usage `>` attr-dict `:` type($result)"

    def __init__(self, flags: str):
        super().__init__(result_types=[i32], properties={"usage": BufferUsageAttr(flags)})
        self.result.name_hint = "buffer_usage"


# ---- host: buffers and buffer views -----------------------------------------------------------


@irdl_op_definition
class BufferViewAssertOp(IRDLOperation):
    """`hal.buffer_view.assert<%v : !hal.buffer_view> message("input0") shape([%c2, %c4])
    type(%element_type) encoding(%encoding)`: check an argument's shape and type."""

    name = "hal.buffer_view.assert"

    buffer_view = operand_def(BufferViewType)
    message = prop_def(StringAttr)
    shape = var_operand_def(IndexType)
    element_type = operand_def(i32)
    encoding_type = operand_def(i32)

    assembly_format = (
        "`<` $buffer_view `:` type($buffer_view) `>` `message` `(` $message `)`"
        " `shape` `(` `[` $shape `]` `)` `type` `(` $element_type `)`"
        " `encoding` `(` $encoding_type `)` attr-dict"
    )

    def __init__(self, buffer_view, message: str, shape, element_type, encoding_type):
        super().__init__(
            operands=[buffer_view, shape, element_type, encoding_type],
            properties={"message": StringAttr(message)},
        )


@irdl_op_definition
class BufferViewDimOp(IRDLOperation):
    """`%d = hal.buffer_view.dim<%v : !hal.buffer_view>[0] : index`: one dimension of a view,
    how a dynamically shaped argument's `?` sizes enter the program."""

    name = "hal.buffer_view.dim"

    buffer_view = operand_def(BufferViewType)
    index = prop_def(IntegerAttr[IndexType])
    result = result_def(IndexType)

    traits = traits_def(Pure())

    assembly_format = (
        "`<` $buffer_view `:` type($buffer_view) `>` `` `[` $index `]` attr-dict `:` type($result)"
    )

    def __init__(self, buffer_view: SSAValue | Operation, index: int):
        super().__init__(
            operands=[buffer_view],
            result_types=[IndexType()],
            properties={"index": IntegerAttr(index, IndexType())},
        )


@irdl_op_definition
class BufferViewBufferOp(IRDLOperation):
    """`%buffer = hal.buffer_view.buffer<%v : !hal.buffer_view> : !hal.buffer`."""

    name = "hal.buffer_view.buffer"

    buffer_view = operand_def(BufferViewType)
    result = result_def(BufferType)

    traits = traits_def(Pure())

    assembly_format = "`<` $buffer_view `:` type($buffer_view) `>` attr-dict `:` type($result)"

    def __init__(self, buffer_view: SSAValue | Operation):
        super().__init__(operands=[buffer_view], result_types=[BufferType()])
        self.result.name_hint = "buffer"


@irdl_op_definition
class BufferViewCreateOp(IRDLOperation):
    """`%view = hal.buffer_view.create buffer(%b : !hal.buffer)[%offset, %length]
    shape([%c2, %c2]) type(%element_type) encoding(%encoding) : !hal.buffer_view`."""

    name = "hal.buffer_view.create"

    source_buffer = operand_def(BufferType)
    source_offset = operand_def(IndexType)
    source_length = operand_def(IndexType)
    shape = var_operand_def(IndexType)
    element_type = operand_def(i32)
    encoding_type = operand_def(i32)
    result = result_def(BufferViewType)

    assembly_format = (
        "`buffer` `(` $source_buffer `:` type($source_buffer) `)`"
        " `` `[` $source_offset `,` $source_length `]`"
        " `shape` `(` `[` $shape `]` `)` `type` `(` $element_type `)`"
        " `encoding` `(` $encoding_type `)` attr-dict `:` type($result)"
    )

    def __init__(self, buffer, offset, length, shape, element_type, encoding_type):
        super().__init__(
            operands=[buffer, offset, length, shape, element_type, encoding_type],
            result_types=[BufferViewType()],
        )
        self.result.name_hint = "view"


@irdl_op_definition
class BufferAssertOp(IRDLOperation):
    """`hal.buffer.assert<%b : !hal.buffer> message("tensor") allocator(%a : !hal.allocator)
    minimum_length(%c32) type(DeviceVisible) usage("...")`: an imported buffer is usable."""

    name = "hal.buffer.assert"

    buffer = operand_def(BufferType)
    message = prop_def(StringAttr)
    allocator = operand_def(AllocatorType)
    minimum_length = operand_def(IndexType)
    memory_types = prop_def(MemoryTypeAttr)
    buffer_usage = prop_def(BufferUsageAttr)

    assembly_format = (
        "`<` $buffer `:` type($buffer) `>` `message` `(` $message `)`"
        " `allocator` `(` $allocator `:` type($allocator) `)`"
        " `minimum_length` `(` $minimum_length `)` `type` `(` $memory_types `)`"
        " `usage` `(` $buffer_usage `)` attr-dict"
    )

    def __init__(
        self, buffer, message: str, allocator, minimum_length, memory_types: str, usage: str
    ):
        super().__init__(
            operands=[buffer, allocator, minimum_length],
            properties={
                "message": StringAttr(message),
                "memory_types": MemoryTypeAttr(memory_types),
                "buffer_usage": BufferUsageAttr(usage),
            },
        )


@irdl_op_definition
class BufferSubspanOp(IRDLOperation):
    """`%subspan = hal.buffer.subspan<%buffer : !hal.buffer>[%offset, %length] : !hal.buffer`:
    a buffer that is a byte range of another (the same memory, no copy)."""

    name = "hal.buffer.subspan"

    source_buffer = operand_def(BufferType)
    source_offset = operand_def(IndexType)
    length = operand_def(IndexType)
    result = result_def(BufferType)

    traits = traits_def(Pure())

    assembly_format = (
        "`<` $source_buffer `:` type($source_buffer) `>` `[` $source_offset `,` $length `]`"
        " attr-dict `:` type($result)"
    )

    def __init__(self, buffer: SSAValue, offset: SSAValue, length: SSAValue):
        super().__init__(operands=[buffer, offset, length], result_types=[BufferType()])
        self.result.name_hint = "subspan"


@irdl_op_definition
class AllocatorImportOp(IRDLOperation):
    """`%did_import, %mapped = hal.allocator.import<%a : !hal.allocator>
    source(%buffer_cst : !util.buffer)[%c0, %n] affinity(%c-1_i64) type(%memory_type)
    usage(%buffer_usage) : i1, !hal.buffer`: use host memory (a module constant) as a buffer
    without copying it; `%did_import` says whether the allocator could."""

    name = "hal.allocator.import"

    allocator = operand_def(AllocatorType)
    source = operand_def(BufferDataType)
    offset = operand_def(IndexType)
    length = operand_def(IndexType)
    queue_affinity = operand_def(i64)
    memory_types = operand_def(i32)
    buffer_usage = operand_def(i32)
    did_import = result_def(i1)
    result = result_def(BufferType)

    assembly_format = (
        "`<` $allocator `:` type($allocator) `>` `source` `(` $source `:` type($source) `)`"
        " `` `[` $offset `,` $length `]` `affinity` `(` $queue_affinity `)`"
        " `type` `(` $memory_types `)` `usage` `(` $buffer_usage `)` attr-dict"
        " `:` type($did_import) `,` type($result)"
    )

    def __init__(self, allocator, source, offset, length, affinity, memory_types, usage):
        super().__init__(
            operands=[allocator, source, offset, length, affinity, memory_types, usage],
            result_types=[i1, BufferType()],
        )
        self.did_import.name_hint = "did_import"
        self.result.name_hint = "mapped"
