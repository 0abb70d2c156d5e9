"""Host ops of stage F on devices and the executables loaded on them.

Mirrors IREE's `hal.device.allocator`, `hal.devices.{count,get}`, `hal.device.query`,
`hal.executable.create` and `hal.executable.lookup.function` (IREE's `HALOps.td`): how the
host program finds its device, asks what it supports and loads an executable once.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, IntegerAttr, StringAttr, SymbolRefAttr, i1, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from ireelab.dialects.hal.types import AllocatorType, DeviceType, ExecutableType


@irdl_op_definition
class DeviceAllocatorOp(IRDLOperation):
    """`%allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator`."""

    name = "hal.device.allocator"

    device = operand_def(DeviceType)
    result = result_def(AllocatorType)

    traits = traits_def(Pure())

    assembly_format = "`<` $device `:` type($device) `>` attr-dict `:` type($result)"

    def __init__(self, device: SSAValue | Operation):
        super().__init__(operands=[device], result_types=[AllocatorType()])
        self.result.name_hint = "allocator"


@irdl_op_definition
class DevicesCountOp(IRDLOperation):
    """`%device_count = hal.devices.count : index`."""

    name = "hal.devices.count"

    result = result_def(IndexType)

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self):
        super().__init__(result_types=[IndexType()])
        self.result.name_hint = "device_count"


@irdl_op_definition
class DevicesGetOp(IRDLOperation):
    """`%device_n = hal.devices.get %i : !hal.device`."""

    name = "hal.devices.get"

    index = operand_def(IndexType)
    result = result_def(DeviceType)

    assembly_format = "$index attr-dict `:` type($result)"

    def __init__(self, index: SSAValue | Operation):
        super().__init__(operands=[index], result_types=[DeviceType()])
        self.result.name_hint = "device_n"


@irdl_op_definition
class DeviceQueryOp(IRDLOperation):
    """`%ok, %value = hal.device.query<%d : !hal.device> key("cat" :: "key") : i1, i1 = false`."""

    name = "hal.device.query"

    device = operand_def(DeviceType)
    category = prop_def(StringAttr)
    key = prop_def(StringAttr)
    default_value = opt_prop_def(Attribute)
    ok = result_def(i1)
    value = result_def()

    def __init__(self, device, category: str, key: str, value_type: Attribute, default=None):
        super().__init__(
            operands=[device],
            result_types=[i1, value_type],
            properties={
                "category": StringAttr(category),
                "key": StringAttr(key),
                "default_value": default,
            },
        )
        self.ok.name_hint = "ok"
        self.value.name_hint = "value"

    @classmethod
    def parse(cls, parser: Parser) -> DeviceQueryOp:
        with parser.in_angle_brackets():
            device = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            device_type = parser.parse_type()
        parser.parse_keyword("key")
        with parser.in_parens():
            category = parser.parse_str_literal()
            parser.parse_punctuation(":")  # `::` lexes as two colons
            parser.parse_punctuation(":")
            key = parser.parse_str_literal()
        parser.parse_punctuation(":")
        parser.parse_type()
        parser.parse_punctuation(",")
        value_type = parser.parse_type()
        default = None
        if parser.parse_optional_punctuation("="):
            default = parser.parse_attribute()
            if isinstance(default, IntegerAttr) and default.type != value_type:
                default = IntegerAttr(default.value.data, value_type)
        attrs = parser.parse_optional_attr_dict()
        op = cls(parser.resolve_operand(device, device_type), category, key, value_type, default)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_operand(self.device)
        printer.print_string(" : !hal.device> key(")
        printer.print_string_literal(self.category.data)
        printer.print_string(" :: ")
        printer.print_string_literal(self.key.data)
        printer.print_string(") : i1, ")
        printer.print_attribute(self.value.type)
        if self.default_value is not None:
            printer.print_string(" = ")
            _print_untyped(printer, self.default_value)
        printer.print_op_attributes(self.attributes)


def _print_untyped(printer: Printer, attr: Attribute) -> None:
    """A constant without its `: type` (IREE's `= false`, `= 0`): the type is printed before."""
    if isinstance(attr, IntegerAttr):
        value = attr.value.data
        if attr.type == i1:
            printer.print_string("true" if value else "false")
        else:
            printer.print_string(str(value))
        return
    printer.print_attribute(attr)


# ---- host: executables ------------------------------------------------------------------------


@irdl_op_definition
class ExecutableCreateOp(IRDLOperation):
    """`%executable = hal.executable.create device(%d : !hal.device) affinity(%c-1_i64)
    target(@exe::@variant) : !hal.executable`: load a variant's binary on a device."""

    name = "hal.executable.create"

    device = operand_def(DeviceType)
    queue_affinity = operand_def(i64)
    executable_target = prop_def(SymbolRefAttr)
    result = result_def(ExecutableType)

    assembly_format = (
        "`device` `(` $device `:` type($device) `)` `affinity` `(` $queue_affinity `)`"
        " `target` `(` $executable_target `)` attr-dict `:` type($result)"
    )

    def __init__(self, device, affinity, target: SymbolRefAttr):
        super().__init__(
            operands=[device, affinity],
            result_types=[ExecutableType()],
            properties={"executable_target": target},
        )
        self.result.name_hint = "executable"


@irdl_op_definition
class ExecutableLookupFunctionOp(IRDLOperation):
    """`%function_id = hal.executable.lookup.function target(%exe : !hal.executable)
    function(@exe::@variant::@export) : i64`: an export's function id in a loaded executable."""

    name = "hal.executable.lookup.function"

    executable = operand_def(ExecutableType)
    function = prop_def(SymbolRefAttr)
    result = result_def(i64)

    traits = traits_def(Pure())

    assembly_format = (
        "`target` `(` $executable `:` type($executable) `)` `function` `(` $function `)`"
        " attr-dict `:` type($result)"
    )

    def __init__(self, executable, function: SymbolRefAttr):
        super().__init__(
            operands=[executable], result_types=[i64], properties={"function": function}
        )
        self.result.name_hint = "function_id"
