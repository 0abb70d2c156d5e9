"""Host ops of stage F on fences and device queues.

Mirrors IREE's `hal.fence.{create,join,await}` and `hal.device.queue.{alloca,dealloca,barrier,
execute,execute.indirect}` (`Dialect/HAL/IR/HALOps.td`): what the timepoints of stage D become,
queue operations that wait on one fence and signal another.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IndexType, i32, i64
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

from ireelab.dialects.hal.flags import NoFlagsAttr, none_flags, print_flags
from ireelab.dialects.hal.syntax import (
    parse_binding_list,
    parse_flags_clause,
    parse_target_prefix,
    print_binding_list,
)
from ireelab.dialects.hal.types import BufferType, CommandBufferType, DeviceType, FenceType


@irdl_op_definition
class FenceCreateOp(IRDLOperation):
    """`%fence = hal.fence.create device(%d : !hal.device) flags("None") : !hal.fence`."""

    name = "hal.fence.create"

    device = operand_def(DeviceType)
    flags = prop_def(NoFlagsAttr)
    result = result_def(FenceType)

    assembly_format = (
        "`device` `(` $device `:` type($device) `)` `flags` `(` $flags `)` attr-dict"
        " `:` type($result)"
    )

    def __init__(self, device: SSAValue | Operation):
        super().__init__(
            operands=[device], result_types=[FenceType()], properties={"flags": none_flags()}
        )
        self.result.name_hint = "fence"


@irdl_op_definition
class FenceJoinOp(IRDLOperation):
    """`%fence = hal.fence.join at([%a, %b]) flags("None") -> !hal.fence`."""

    name = "hal.fence.join"

    fences = var_operand_def(FenceType)
    flags = prop_def(NoFlagsAttr)
    result = result_def(FenceType)

    assembly_format = (
        "`at` `(` `[` $fences `]` `)` `flags` `(` $flags `)` attr-dict `->` type($result)"
    )

    def __init__(self, fences: Sequence[SSAValue | Operation]):
        super().__init__(
            operands=[fences], result_types=[FenceType()], properties={"flags": none_flags()}
        )
        self.result.name_hint = "fence"


@irdl_op_definition
class FenceAwaitOp(IRDLOperation):
    """`%status = hal.fence.await until([%f]) timeout_millis(%t) flags("None") : i32`."""

    name = "hal.fence.await"

    timeout_millis = operand_def(i32)
    fences = var_operand_def(FenceType)
    flags = prop_def(NoFlagsAttr)
    status = result_def(i32)

    assembly_format = (
        "`until` `(` `[` $fences `]` `)` `timeout_millis` `(` $timeout_millis `)`"
        " `flags` `(` $flags `)` attr-dict `:` type($status)"
    )

    def __init__(self, fences: Sequence[SSAValue | Operation], timeout_millis):
        super().__init__(
            operands=[timeout_millis, fences],
            result_types=[i32],
            properties={"flags": none_flags()},
        )
        self.status.name_hint = "status"


_QUEUE_HEAD = (
    "`<` $device `:` type($device) `>` `affinity` `(` $queue_affinity `)`"
    " `wait` `(` $wait_fence `)` `signal` `(` $signal_fence `)`"
)


@irdl_op_definition
class DeviceQueueAllocaOp(IRDLOperation):
    """`%buf = hal.device.queue.alloca<%d : !hal.device> affinity(%a) wait(%w) signal(%s)
    pool(%c0_i64) type(%memory_type) usage(%buffer_usage) flags("None") : !hal.buffer{%size}`:
    a queue-ordered allocation, ready when `signal` is reached."""

    name = "hal.device.queue.alloca"

    device = operand_def(DeviceType)
    queue_affinity = operand_def(i64)
    wait_fence = operand_def(FenceType)
    signal_fence = operand_def(FenceType)
    pool = operand_def(i64)
    memory_types = operand_def(i32)
    buffer_usage = operand_def(i32)
    result_size = operand_def(IndexType)
    flags = prop_def(NoFlagsAttr)
    result = result_def(BufferType)

    assembly_format = (
        _QUEUE_HEAD + " `pool` `(` $pool `)` `type` `(` $memory_types `)`"
        " `usage` `(` $buffer_usage `)` `flags` `(` $flags `)` attr-dict"
        " `:` type($result) `{` $result_size `}`"
    )

    def __init__(self, device, affinity, wait, signal, pool, memory_types, usage, size):
        super().__init__(
            operands=[device, affinity, wait, signal, pool, memory_types, usage, size],
            result_types=[BufferType()],
            properties={"flags": none_flags()},
        )
        self.result.name_hint = "transient_buffer"


@irdl_op_definition
class DeviceQueueDeallocaOp(IRDLOperation):
    """`hal.device.queue.dealloca<%d : !hal.device> affinity(%a) wait(%w) signal(%s)
    buffer(%b : !hal.buffer) flags("None")`."""

    name = "hal.device.queue.dealloca"

    device = operand_def(DeviceType)
    queue_affinity = operand_def(i64)
    wait_fence = operand_def(FenceType)
    signal_fence = operand_def(FenceType)
    buffer = operand_def(BufferType)
    flags = prop_def(NoFlagsAttr)

    assembly_format = (
        _QUEUE_HEAD + " `buffer` `(` $buffer `:` type($buffer) `)` `flags` `(` $flags `)` attr-dict"
    )

    def __init__(self, device, affinity, wait, signal, buffer):
        super().__init__(
            operands=[device, affinity, wait, signal, buffer],
            properties={"flags": none_flags()},
        )


@irdl_op_definition
class DeviceQueueBarrierOp(IRDLOperation):
    """`hal.device.queue.barrier<%d : !hal.device> affinity(%a) wait(%w) signal(%s)
    flags("None")`: signal `%s` once `%w` is reached, in queue order (no work)."""

    name = "hal.device.queue.barrier"

    device = operand_def(DeviceType)
    queue_affinity = operand_def(i64)
    wait_fence = operand_def(FenceType)
    signal_fence = operand_def(FenceType)
    flags = prop_def(NoFlagsAttr)

    assembly_format = _QUEUE_HEAD + " `flags` `(` $flags `)` attr-dict"

    def __init__(self, device, affinity, wait, signal):
        super().__init__(
            operands=[device, affinity, wait, signal], properties={"flags": none_flags()}
        )


@irdl_op_definition
class DeviceQueueExecuteOp(IRDLOperation):
    """`hal.device.queue.execute<%d : !hal.device> affinity(%a) wait(%w) signal(%s)
    commands(%cmd) flags("None")`: submit a recorded command buffer."""

    name = "hal.device.queue.execute"

    device = operand_def(DeviceType)
    queue_affinity = operand_def(i64)
    wait_fence = operand_def(FenceType)
    signal_fence = operand_def(FenceType)
    command_buffer = operand_def(CommandBufferType)
    flags = prop_def(NoFlagsAttr)

    assembly_format = (
        _QUEUE_HEAD + " `commands` `(` $command_buffer `)` `flags` `(` $flags `)` attr-dict"
    )

    def __init__(self, device, affinity, wait, signal, command_buffer):
        super().__init__(
            operands=[device, affinity, wait, signal, command_buffer],
            properties={"flags": none_flags()},
        )


@irdl_op_definition
class DeviceQueueExecuteIndirectOp(IRDLOperation):
    """`hal.device.queue.execute.indirect<%d : !hal.device> affinity(%a) wait(%w) signal(%s)
    commands(%cmd) bindings([(%buf : !hal.buffer)[%off, %len], ...]) flags("None")`: submit a
    reusable command buffer with this call's buffers in its binding table."""

    name = "hal.device.queue.execute.indirect"

    device = operand_def(DeviceType)
    queue_affinity = operand_def(i64)
    wait_fence = operand_def(FenceType)
    signal_fence = operand_def(FenceType)
    command_buffer = operand_def(CommandBufferType)
    binding_buffers = var_operand_def(BufferType)
    binding_offsets = var_operand_def(IndexType)
    binding_lengths = var_operand_def(IndexType)
    flags = prop_def(NoFlagsAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, device, affinity, wait, signal, command_buffer, bindings):
        super().__init__(
            operands=[
                device,
                affinity,
                wait,
                signal,
                command_buffer,
                [b[0] for b in bindings],
                [b[1] for b in bindings],
                [b[2] for b in bindings],
            ],
            properties={"flags": none_flags()},
        )

    @classmethod
    def parse(cls, parser: Parser) -> DeviceQueueExecuteIndirectOp:
        device = parse_target_prefix(parser, DeviceType())
        operands = []
        for keyword, type_ in (("affinity", i64), ("wait", FenceType()), ("signal", FenceType())):
            parser.parse_keyword(keyword)
            with parser.in_parens():
                operands.append(parser.resolve_operand(parser.parse_unresolved_operand(), type_))
        parser.parse_keyword("commands")
        with parser.in_parens():
            cmd = parser.resolve_operand(parser.parse_unresolved_operand(), CommandBufferType())
        parser.parse_keyword("bindings")
        with parser.in_parens():
            bindings = parse_binding_list(parser)
        flags = parse_flags_clause(parser)
        attrs = parser.parse_optional_attr_dict()
        op = cls(device, *operands, cmd, bindings)
        op.flags = flags
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_operand(self.device)
        printer.print_string(" : !hal.device>")
        for keyword, value in (
            ("affinity", self.queue_affinity),
            ("wait", self.wait_fence),
            ("signal", self.signal_fence),
            ("commands", self.command_buffer),
        ):
            printer.print_string(f" {keyword}(")
            printer.print_operand(value)
            printer.print_string(")")
        printer.print_string(" bindings(")
        print_binding_list(
            printer, self.binding_buffers, self.binding_offsets, self.binding_lengths
        )
        printer.print_string(") flags(")
        print_flags(printer, self.flags.data)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
