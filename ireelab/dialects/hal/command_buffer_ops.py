"""Host ops of stage F that record work: `hal.command_buffer.*`.

Mirrors IREE's command-buffer ops (`Dialect/HAL/IR/HALOps.td`): create, dispatch, execution
barriers, fill, copy and finalize; `ConvertToHALPass` records one command buffer per
`stream.cmd.execute`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IndexType, IntegerType, i32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ireelab.dialects.hal.flags import (
    CommandBufferModeAttr,
    CommandCategoryAttr,
    ExecutionStageAttr,
    NoFlagsAttr,
    none_flags,
    print_flags,
)
from ireelab.dialects.hal.syntax import (
    parse_binding_list,
    parse_flags_clause,
    parse_target_prefix,
    print_binding_list,
)
from ireelab.dialects.hal.types import BufferType, CommandBufferType, DeviceType, ExecutableType


@irdl_op_definition
class CommandBufferCreateOp(IRDLOperation):
    """`%cmd = hal.command_buffer.create device(%d : !hal.device) mode("OneShot|...")
    categories("Transfer|Dispatch") affinity(%a) bindings(%n) : !hal.command_buffer`."""

    name = "hal.command_buffer.create"

    device = operand_def(DeviceType)
    modes = prop_def(CommandBufferModeAttr)
    command_categories = prop_def(CommandCategoryAttr)
    queue_affinity = operand_def(i64)
    binding_capacity = operand_def(IndexType)
    result = result_def(CommandBufferType)

    assembly_format = (
        "`device` `(` $device `:` type($device) `)` `mode` `(` $modes `)`"
        " `categories` `(` $command_categories `)` `affinity` `(` $queue_affinity `)`"
        " `bindings` `(` $binding_capacity `)` attr-dict `:` type($result)"
    )

    def __init__(self, device, modes: str, categories: str, affinity, binding_capacity):
        super().__init__(
            operands=[device, affinity, binding_capacity],
            result_types=[CommandBufferType()],
            properties={
                "modes": CommandBufferModeAttr(modes),
                "command_categories": CommandCategoryAttr(categories),
            },
        )
        self.result.name_hint = "cmd"


@irdl_op_definition
class CommandBufferDispatchOp(IRDLOperation):
    """`hal.command_buffer.dispatch<%cmd : !hal.command_buffer> target(%exe : !hal.executable)
    [%function_id] workgroups([%x, %y, %z]) bindings([(%buf : !hal.buffer)[%off, %len], ...])
    flags("None")`. Printed by hand: the binding list is a list of (value, offset, length)
    triples over three operand groups."""

    name = "hal.command_buffer.dispatch"

    command_buffer = operand_def(CommandBufferType)
    executable = operand_def(ExecutableType)
    entry_point = operand_def(i64)
    workgroup_count = var_operand_def(IndexType)
    constants = var_operand_def(i32)
    binding_buffers = var_operand_def()
    binding_offsets = var_operand_def(IndexType)
    binding_lengths = var_operand_def(IndexType)
    flags = prop_def(NoFlagsAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        command_buffer,
        executable,
        entry_point,
        workgroup_count: Sequence[SSAValue | Operation],
        bindings: Sequence[tuple[SSAValue, SSAValue, SSAValue]],
        constants: Sequence[SSAValue | Operation] = (),
    ):
        super().__init__(
            operands=[
                command_buffer,
                executable,
                entry_point,
                workgroup_count,
                constants,
                [b[0] for b in bindings],
                [b[1] for b in bindings],
                [b[2] for b in bindings],
            ],
            properties={"flags": none_flags()},
        )

    def verify_(self) -> None:
        if len(self.workgroup_count) != 3:
            raise VerifyException("workgroups takes three counts (x, y, z)")

    @classmethod
    def parse(cls, parser: Parser) -> CommandBufferDispatchOp:
        cmd = parse_target_prefix(parser, CommandBufferType())
        parser.parse_keyword("target")
        exe = _parse_target_prefix_parens(parser)
        with parser.in_square_brackets():
            entry = parser.resolve_operand(parser.parse_unresolved_operand(), i64)
        parser.parse_keyword("workgroups")
        with parser.in_parens():
            counts = _parse_index_list(parser)
        constants = []
        if parser.parse_optional_keyword("constants"):
            with parser.in_parens():
                constants = parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE,
                    lambda: parser.resolve_operand(parser.parse_unresolved_operand(), i32),
                )
        parser.parse_keyword("bindings")
        with parser.in_parens():
            bindings = parse_binding_list(parser)
        flags = parse_flags_clause(parser)
        attrs = parser.parse_optional_attr_dict()
        op = cls(cmd, exe, entry, counts, bindings, constants)
        op.flags = flags
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_operand(self.command_buffer)
        printer.print_string(" : !hal.command_buffer> target(")
        printer.print_operand(self.executable)
        printer.print_string(" : !hal.executable)[")
        printer.print_operand(self.entry_point)
        printer.print_string("] workgroups([")
        printer.print_list(self.workgroup_count, printer.print_operand)
        printer.print_string("])")
        if self.constants:
            printer.print_string(" constants([")
            printer.print_list(self.constants, printer.print_operand)
            printer.print_string("])")
        printer.print_string(" bindings(")
        print_binding_list(
            printer, self.binding_buffers, self.binding_offsets, self.binding_lengths
        )
        printer.print_string(") flags(")
        print_flags(printer, self.flags.data)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)


def _parse_target_prefix_parens(parser: Parser) -> SSAValue:
    with parser.in_parens():
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        return parser.resolve_operand(value, parser.parse_type())


def _parse_index_list(parser: Parser) -> list[SSAValue]:
    return parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE,
        lambda: parser.resolve_operand(parser.parse_unresolved_operand(), IndexType()),
    )


@irdl_op_definition
class CommandBufferExecutionBarrierOp(IRDLOperation):
    """`hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer>
    source("Dispatch|Transfer|CommandRetire") target("CommandIssue|Dispatch|Transfer")
    flags("None")`: later commands wait for earlier ones."""

    name = "hal.command_buffer.execution_barrier"

    command_buffer = operand_def(CommandBufferType)
    source_stage_mask = prop_def(ExecutionStageAttr)
    target_stage_mask = prop_def(ExecutionStageAttr)
    flags = prop_def(NoFlagsAttr)

    assembly_format = (
        "`<` $command_buffer `:` type($command_buffer) `>` `source` `(` $source_stage_mask `)`"
        " `target` `(` $target_stage_mask `)` `flags` `(` $flags `)` attr-dict"
    )

    def __init__(
        self,
        command_buffer,
        source: str = "Dispatch|Transfer|CommandRetire",
        target: str = "CommandIssue|Dispatch|Transfer",
    ):
        super().__init__(
            operands=[command_buffer],
            properties={
                "source_stage_mask": ExecutionStageAttr(source),
                "target_stage_mask": ExecutionStageAttr(target),
                "flags": none_flags(),
            },
        )


@irdl_op_definition
class CommandBufferFinalizeOp(IRDLOperation):
    """`hal.command_buffer.finalize<%cmd : !hal.command_buffer>`: recording is done."""

    name = "hal.command_buffer.finalize"

    command_buffer = operand_def(CommandBufferType)

    assembly_format = "`<` $command_buffer `:` type($command_buffer) `>` attr-dict"

    def __init__(self, command_buffer: SSAValue | Operation):
        super().__init__(operands=[command_buffer])


@irdl_op_definition
class CommandBufferFillBufferOp(IRDLOperation):
    """`hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%b : !hal.buffer)
    [%offset, %length] pattern(%p : i32) flags("None")` (from `stream.cmd.fill`)."""

    name = "hal.command_buffer.fill_buffer"

    command_buffer = operand_def(CommandBufferType)
    target_buffer = operand_def(BufferType)
    target_offset = operand_def(IndexType)
    length = operand_def(IndexType)
    pattern = operand_def(IntegerType)
    flags = prop_def(NoFlagsAttr)

    assembly_format = (
        "`<` $command_buffer `:` type($command_buffer) `>`"
        " `target` `(` $target_buffer `:` type($target_buffer) `)` `` `[` $target_offset `,` $length `]`"
        " `pattern` `(` $pattern `:` type($pattern) `)` `flags` `(` $flags `)` attr-dict"
    )

    def __init__(self, command_buffer, target, offset, length, pattern):
        super().__init__(
            operands=[command_buffer, target, offset, length, pattern],
            properties={"flags": none_flags()},
        )


@irdl_op_definition
class CommandBufferCopyBufferOp(IRDLOperation):
    """`hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%a : !hal.buffer)
    [%src_offset] target(%b : !hal.buffer)[%dst_offset] length(%n) flags("None")`."""

    name = "hal.command_buffer.copy_buffer"

    command_buffer = operand_def(CommandBufferType)
    source_buffer = operand_def(BufferType)
    source_offset = operand_def(IndexType)
    target_buffer = operand_def(BufferType)
    target_offset = operand_def(IndexType)
    length = operand_def(IndexType)
    flags = prop_def(NoFlagsAttr)

    assembly_format = (
        "`<` $command_buffer `:` type($command_buffer) `>`"
        " `source` `(` $source_buffer `:` type($source_buffer) `)` `` `[` $source_offset `]`"
        " `target` `(` $target_buffer `:` type($target_buffer) `)` `` `[` $target_offset `]`"
        " `length` `(` $length `)` `flags` `(` $flags `)` attr-dict"
    )

    def __init__(self, command_buffer, source, source_offset, target, target_offset, length):
        super().__init__(
            operands=[command_buffer, source, source_offset, target, target_offset, length],
            properties={"flags": none_flags()},
        )
