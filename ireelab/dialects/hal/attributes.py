"""The `hal` attributes: targets, device affinity and the pipeline layout.

Mirrors IREE's `Dialect/HAL/IR/HALAttrs.td`: `#hal.executable.target` (what a variant compiles
for), `#hal.device.target` (the device global of stage B), `#hal.device.affinity`, and
`#hal.pipeline.layout` with its `#hal.pipeline.binding`s, which every executable export and
`hal.interface.binding.subspan` carries from stage E on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolRefAttr,
)
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ireelab.dialects.hal.flags import parse_flags, print_flags, verify_flags
from ireelab.dialects.hal.syntax import parse_stripped_or_full


def _print_optional_dict(printer: Printer, config: DictionaryAttr | None) -> None:
    if config is not None:
        printer.print_string(", ")
        printer.print_attribute(config)


@irdl_attr_definition
class ExecutableTargetAttr(ParametrizedAttribute):
    """`#hal.executable.target<"backend", "format", {config}>`: what one variant compiles for."""

    name = "hal.executable.target"

    backend: StringAttr
    format: StringAttr
    configuration: DictionaryAttr

    def __init__(
        self, backend: str, format: str, configuration: dict[str, Attribute] | None = None
    ):
        super().__init__(
            StringAttr(backend), StringAttr(format), DictionaryAttr(configuration or {})
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr, StringAttr, DictionaryAttr]:
        with parser.in_angle_brackets():
            backend = parser.parse_str_literal()
            parser.parse_punctuation(",")
            fmt = parser.parse_str_literal()
            config = DictionaryAttr({})
            if parser.parse_optional_punctuation(","):
                config = parser.parse_attribute()
                if not isinstance(config, DictionaryAttr):
                    parser.raise_error("expected a configuration dictionary")
        return StringAttr(backend), StringAttr(fmt), config

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string_literal(self.backend.data)
            printer.print_string(", ")
            printer.print_string_literal(self.format.data)
            _print_optional_dict(printer, self.configuration if self.configuration.data else None)


@irdl_attr_definition
class DeviceTargetAttr(ParametrizedAttribute):
    """`#hal.device.target<"local", [#hal.executable.target<...>, ...]>` (config dict optional)."""

    name = "hal.device.target"

    device_id: StringAttr
    configuration: DictionaryAttr
    executable_targets: ArrayAttr[ExecutableTargetAttr]

    def __init__(
        self,
        device_id: str,
        executable_targets: Sequence[ExecutableTargetAttr],
        configuration: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            StringAttr(device_id),
            DictionaryAttr(configuration or {}),
            ArrayAttr(executable_targets),
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        with parser.in_angle_brackets():
            device_id = parser.parse_str_literal()
            config = DictionaryAttr({})
            targets = ArrayAttr(())
            while parser.parse_optional_punctuation(","):
                value = parser.parse_attribute()
                if isinstance(value, DictionaryAttr):
                    config = value
                elif isinstance(value, ArrayAttr):
                    targets = value
                else:
                    parser.raise_error("expected a configuration dictionary or a target list")
        return StringAttr(device_id), config, targets

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string_literal(self.device_id.data)
            _print_optional_dict(printer, self.configuration if self.configuration.data else None)
            printer.print_string(", ")
            printer.print_attribute(self.executable_targets)


@irdl_attr_definition
class DeviceAffinityAttr(ParametrizedAttribute):
    """`#hal.device.affinity<@__device_0>`: which device (global) work is placed on."""

    name = "hal.device.affinity"

    device: SymbolRefAttr

    def __init__(self, device: str | SymbolRefAttr):
        super().__init__(SymbolRefAttr(device) if isinstance(device, str) else device)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[SymbolRefAttr]:
        with parser.in_angle_brackets():
            ref = parser.parse_attribute()
            if not isinstance(ref, SymbolRefAttr):
                parser.raise_error("expected a device symbol (@__device_0)")
        return (ref,)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.device)


@irdl_attr_definition
class PipelineBindingAttr(ParametrizedAttribute):
    """`#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">`: one binding of a layout."""

    name = "hal.pipeline.binding"

    type: StringAttr
    """the descriptor type; `storage_buffer` (IREE also has `uniform_buffer`)."""
    flags: StringAttr
    """`None`, `ReadOnly`, `Indirect` or a `|` list of them."""

    def __init__(self, flags: str = "None", type: str = "storage_buffer"):
        super().__init__(StringAttr(type), StringAttr(flags))

    @property
    def read_only(self) -> bool:
        return "ReadOnly" in self.flags.data.split("|")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr, StringAttr]:
        with parser.in_angle_brackets():
            type_ = parser.parse_identifier()
            flags = "None"
            if parser.parse_optional_punctuation(","):
                flags = parse_flags(parser)
        return StringAttr(type_), StringAttr(flags)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.type.data)
            if self.flags.data != "None":
                printer.print_string(", ")
                print_flags(printer, self.flags.data)

    def verify(self) -> None:
        if self.type.data not in ("storage_buffer", "uniform_buffer"):
            raise VerifyException(f"unknown descriptor type '{self.type.data}'")
        verify_flags("binding", self.flags.data)


@irdl_attr_definition
class PipelineLayoutAttr(ParametrizedAttribute):
    """`#hal.pipeline.layout<constants = N, bindings = [...], flags = Indirect>`.

    The interface between host and kernel: how many 32-bit push constants, and which buffers in
    which order (binding `i` of the layout is `hal.interface.binding.subspan ... binding(i)`).
    """

    name = "hal.pipeline.layout"

    constants: IntegerAttr
    bindings: ArrayAttr[PipelineBindingAttr]
    flags: StringAttr

    def __init__(
        self, bindings: Sequence[PipelineBindingAttr], flags: str = "None", constants: int = 0
    ):
        super().__init__(
            IntegerAttr(constants, IntegerType(64)), ArrayAttr(bindings), StringAttr(flags)
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        with parser.in_angle_brackets():
            return cls.parse_body(parser)

    @classmethod
    def parse_body(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        """`constants = N, bindings = [...], flags = F` (constants and flags optional)."""
        constants = 0
        bindings: list[PipelineBindingAttr] = []
        flags = "None"
        if parser.parse_optional_keyword("constants"):
            parser.parse_punctuation("=")
            constants = parser.parse_integer()
            parser.parse_punctuation(",")
        parser.parse_keyword("bindings")
        parser.parse_punctuation("=")
        bindings = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: _parse_binding(parser)
        )
        if parser.parse_optional_punctuation(","):
            parser.parse_keyword("flags")
            parser.parse_punctuation("=")
            flags = parse_flags(parser)
        return IntegerAttr(constants, IntegerType(64)), ArrayAttr(bindings), StringAttr(flags)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            self.print_body(printer)

    def print_body(self, printer: Printer) -> None:
        if self.constants.value.data:
            printer.print_string(f"constants = {self.constants.value.data}, ")
        printer.print_string("bindings = [")
        printer.print_list(self.bindings.data, printer.print_attribute)
        printer.print_string("]")
        if self.flags.data != "None":
            printer.print_string(", flags = ")
            print_flags(printer, self.flags.data)

    def verify(self) -> None:
        verify_flags("layout", self.flags.data)


def _parse_binding(parser: AttrParser) -> PipelineBindingAttr:
    # IREE accepts the binding both qualified and stripped (`<storage_buffer>`) in a layout.
    return cast(PipelineBindingAttr, parse_stripped_or_full(parser, PipelineBindingAttr))
