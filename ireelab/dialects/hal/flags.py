"""IREE's HAL bit-enum flags, kept as the text IREE prints (`"ReadOnly|Indirect"`).

Mirrors the bit enums of IREE's `Dialect/HAL/IR/HALBase.td` (memory types, buffer usages,
command-buffer modes and categories, execution stages, binding and pipeline-layout flags): the
names each kind accepts, their parse/print/verify, and one attribute class per kind that
carries a value on an op.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Data
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

# ---- flags ------------------------------------------------------------------------------------

FLAG_NAMES: dict[str, frozenset[str]] = {
    "binding": frozenset({"None", "ReadOnly", "Indirect"}),
    "layout": frozenset({"None", "Indirect"}),
    "memory_type": frozenset(
        {
            "None",
            "Optimal",
            "HostVisible",
            "HostCoherent",
            "HostCached",
            "HostLocal",
            "DeviceVisible",
            "DeviceLocal",
        }
    ),
    "buffer_usage": frozenset(
        {
            "None",
            "TransferSource",
            "TransferTarget",
            "Transfer",
            "DispatchIndirectParameters",
            "DispatchUniformRead",
            "DispatchStorageRead",
            "DispatchStorageWrite",
            "DispatchStorage",
            "DispatchImageRead",
            "DispatchImageWrite",
            "DispatchImage",
            "SharingExport",
            "SharingReplicate",
            "SharingConcurrent",
            "SharingImmutable",
            "MappingScoped",
            "MappingPersistent",
            "MappingOptional",
            "MappingAccessRandom",
            "MappingAccessSequentialWrite",
            "Mapping",
        }
    ),
    "command_buffer_mode": frozenset({"None", "OneShot", "AllowInlineExecution", "Unvalidated"}),
    "command_category": frozenset({"None", "Transfer", "Dispatch"}),
    "execution_stage": frozenset(
        {
            "None",
            "CommandIssue",
            "CommandProcess",
            "Dispatch",
            "Transfer",
            "CommandRetire",
            "Host",
        }
    ),
    "none": frozenset({"None"}),
}
"""IREE's bit-enum cases per flag kind (HALBase.td), for verification."""


def parse_flags(parser: AttrParser) -> str:
    """A bit-enum value: a bare keyword (`Indirect`) or a quoted list (`"ReadOnly|Indirect"`)."""
    text = parser.parse_optional_str_literal()
    if text is not None:
        return text
    return parser.parse_identifier()


def print_flags(printer: Printer, flags: str) -> None:
    """Print flags the way IREE 3.13 does: quoted when there are several or when `None`."""
    if "|" in flags or flags == "None":
        printer.print_string_literal(flags)
    else:
        printer.print_string(flags)


def verify_flags(kind: str, flags: str) -> None:
    allowed = FLAG_NAMES[kind]
    for part in flags.split("|"):
        if part not in allowed:
            raise VerifyException(
                f"'{part}' is not a {kind} flag (expected one of {sorted(allowed)})"
            )


# ---- flag attributes (bit enums kept as their text) -------------------------------------------


class _FlagsAttr(Data[str]):
    """A HAL bit-enum value printed as IREE prints it: `Indirect`, `"ReadOnly|Indirect"`."""

    kind: ClassVar[str] = "none"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> str:
        return parse_flags(parser)

    def print_parameter(self, printer: Printer) -> None:
        print_flags(printer, self.data)

    def verify(self) -> None:
        verify_flags(self.kind, self.data)


@irdl_attr_definition
class MemoryTypeAttr(_FlagsAttr):
    name = "hal.memory_type"
    kind = "memory_type"


@irdl_attr_definition
class BufferUsageAttr(_FlagsAttr):
    name = "hal.buffer_usage"
    kind = "buffer_usage"


@irdl_attr_definition
class CommandBufferModeAttr(_FlagsAttr):
    name = "hal.command_buffer_mode"
    kind = "command_buffer_mode"


@irdl_attr_definition
class CommandCategoryAttr(_FlagsAttr):
    name = "hal.command_category"
    kind = "command_category"


@irdl_attr_definition
class ExecutionStageAttr(_FlagsAttr):
    name = "hal.execution_stage"
    kind = "execution_stage"


@irdl_attr_definition
class BindingFlagsAttr(_FlagsAttr):
    name = "hal.descriptor_flags"
    kind = "binding"


@irdl_attr_definition
class NoFlagsAttr(_FlagsAttr):
    """The `flags("None")` that IREE's queue, fence and command-buffer ops carry."""

    name = "hal.flags"
    kind = "none"


def none_flags() -> NoFlagsAttr:
    return NoFlagsAttr("None")
