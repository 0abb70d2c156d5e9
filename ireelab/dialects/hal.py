"""The `hal` dialect: IREE's hardware abstraction layer, as types, attributes and ops.

Mirrors IREE's `compiler/src/iree/compiler/Dialect/HAL/IR/{HALTypes,HALAttrs,HALOps}.td`. The
dialect has three faces, all here:

- the ABI boundary of stage A: `hal.tensor.import` / `hal.tensor.export` between
  `!hal.buffer_view` and tensors (WrapEntryPointsPass);
- executables (stage E/F): `hal.executable` > `hal.executable.variant` > `hal.executable.export`
  with ordinal, `#hal.pipeline.layout` and workgroup-count region, the device code reading its
  bindings through `hal.interface.binding.subspan`, and `hal.executable.binary` once serialised;
- host code (stage F, `a0_matmul_tiny.hal.mlir`): devices, buffers, buffer views, command
  buffers, fences and queue operations, which the VM stage turns into `hal.*` module imports.

IREE's bit-enum flags (memory types, buffer usages, binding flags, ...) are kept as their
printed text (`"ReadOnly|Indirect"`), checked against IREE's flag names by the verifier.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolRefAttr,
    TensorType,
)
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

# ---- types ------------------------------------------------------------------------------------


@irdl_attr_definition
class BufferViewType(ParametrizedAttribute, TypeAttribute):
    """`!hal.buffer_view`: a buffer plus shape, element type and encoding (the ABI type)."""

    name = "hal.buffer_view"


@irdl_attr_definition
class BufferType(ParametrizedAttribute, TypeAttribute):
    """`!hal.buffer`: a range of device memory."""

    name = "hal.buffer"


@irdl_attr_definition
class DeviceType(ParametrizedAttribute, TypeAttribute):
    """`!hal.device`: a logical device (one HAL driver instance)."""

    name = "hal.device"


@irdl_attr_definition
class AllocatorType(ParametrizedAttribute, TypeAttribute):
    """`!hal.allocator`: a device's buffer allocator."""

    name = "hal.allocator"


@irdl_attr_definition
class ExecutableType(ParametrizedAttribute, TypeAttribute):
    """`!hal.executable`: a loaded executable (compiled kernels) on one device."""

    name = "hal.executable"


@irdl_attr_definition
class CommandBufferType(ParametrizedAttribute, TypeAttribute):
    """`!hal.command_buffer`: recorded dispatches, copies and barriers."""

    name = "hal.command_buffer"


@irdl_attr_definition
class FenceType(ParametrizedAttribute, TypeAttribute):
    """`!hal.fence`: a set of semaphore timepoints (what a `!stream.timepoint` becomes)."""

    name = "hal.fence"


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


# ---- attributes -------------------------------------------------------------------------------


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
    # IREE accepts the binding both qualified and stripped (`<storage_buffer>`) inside a layout.
    if parser.parse_optional_punctuation("#"):
        parser.parse_keyword("hal")
        parser.parse_punctuation(".")
        parser.parse_keyword("pipeline")
        parser.parse_punctuation(".")
        parser.parse_keyword("binding")
    return PipelineBindingAttr(*reversed(PipelineBindingAttr.parse_parameters(parser)))


# ---- the ABI boundary (stage A) ---------------------------------------------------------------


def _parse_affinity(parser: Parser) -> Attribute | None:
    if not parser.parse_optional_keyword("on"):
        return None
    with parser.in_parens():
        return parser.parse_attribute()


def _print_affinity(printer: Printer, affinity: Attribute | None) -> None:
    if affinity is not None:
        printer.print_string(" on(")
        printer.print_attribute(affinity)
        printer.print_string(")")


@irdl_op_definition
class TensorImportOp(IRDLOperation):
    """`%0 = hal.tensor.import [on(#aff)] [wait(%fence) =>] %view "name" : !hal.buffer_view -> tensor<...>`.

    Printed by hand: the optional `wait(...) =>` clause and the affinity's full spelling do not
    fit the declarative format. Static shapes only (no `{%dim}` lists).
    """

    name = "hal.tensor.import"

    source = operand_def()
    wait_fence = opt_operand_def(FenceType)
    target = result_def(TensorType)
    name_ = opt_prop_def(StringAttr, prop_name="name")
    affinity = opt_prop_def(Attribute)

    def __init__(
        self,
        source: SSAValue | Operation,
        target_type: Attribute,
        name: str | None = None,
        affinity: Attribute | None = None,
        wait_fence: SSAValue | Operation | None = None,
    ):
        super().__init__(
            operands=[source, [wait_fence] if wait_fence is not None else []],
            result_types=[target_type],
            properties={
                "name": StringAttr(name) if name is not None else None,
                "affinity": affinity,
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorImportOp:
        affinity = _parse_affinity(parser)
        fence = None
        if parser.parse_optional_keyword("wait"):
            with parser.in_parens():
                fence = parser.parse_unresolved_operand()
            parser.parse_punctuation("=>")
        source = parser.parse_unresolved_operand()
        name = parser.parse_optional_str_literal()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation("->")
        target_type = parser.parse_type()
        op = cls(
            parser.resolve_operand(source, source_type),
            target_type,
            name,
            affinity,
            parser.resolve_operand(fence, FenceType()) if fence is not None else None,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        _print_affinity(printer, self.affinity)
        if self.wait_fence is not None:
            printer.print_string(" wait(")
            printer.print_operand(self.wait_fence)
            printer.print_string(") =>")
        printer.print_string(" ")
        printer.print_operand(self.source)
        if self.name_ is not None:
            printer.print_string(" ")
            printer.print_string_literal(self.name_.data)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.target.type)


@irdl_op_definition
class TensorExportOp(IRDLOperation):
    """`%1 = hal.tensor.export [on(#aff)] %tensor "name" : tensor<...> -> !hal.buffer_view`."""

    name = "hal.tensor.export"

    source = operand_def(TensorType)
    target = result_def()
    name_ = opt_prop_def(StringAttr, prop_name="name")
    affinity = opt_prop_def(Attribute)

    def __init__(
        self,
        source: SSAValue | Operation,
        target_type: Attribute,
        name: str | None = None,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[source],
            result_types=[target_type],
            properties={
                "name": StringAttr(name) if name is not None else None,
                "affinity": affinity,
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorExportOp:
        affinity = _parse_affinity(parser)
        source = parser.parse_unresolved_operand()
        name = parser.parse_optional_str_literal()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation("->")
        target_type = parser.parse_type()
        op = cls(parser.resolve_operand(source, source_type), target_type, name, affinity)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        _print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.source)
        if self.name_ is not None:
            printer.print_string(" ")
            printer.print_string_literal(self.name_.data)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.target.type)


# ---- the dialect ------------------------------------------------------------------------------

_TYPES = [
    BufferViewType,
    BufferType,
    DeviceType,
    AllocatorType,
    ExecutableType,
    CommandBufferType,
    FenceType,
]
_ATTRIBUTES = [
    ExecutableTargetAttr,
    DeviceTargetAttr,
    DeviceAffinityAttr,
    PipelineBindingAttr,
    PipelineLayoutAttr,
]
_OPS: list[type[IRDLOperation]] = [TensorImportOp, TensorExportOp]

HAL = Dialect("hal", _OPS, [*_TYPES, *_ATTRIBUTES])

_ = (IndexType, Pure, prop_def, traits_def)


# ---- iree_cpu: the one attribute of IREE's CPU codegen dialect that device targets carry ------


@irdl_attr_definition
class CPUEncodingResolverAttr(ParametrizedAttribute):
    """`#iree_cpu.cpu_encoding_resolver<>`: IREE's llvm-cpu targets name their data-tiling
    encoding resolver in the target configuration, so IREE's dumps carry it. It has no
    meaning in ireelab beyond parsing and printing those dumps unchanged."""

    name = "iree_cpu.cpu_encoding_resolver"

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[()]:
        if parser.parse_optional_punctuation("<"):
            parser.parse_punctuation(">")
        return ()

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<>")


IREECPU = Dialect("iree_cpu", [], [CPUEncodingResolverAttr])
"""A second dialect object in this module: `iree_cpu` only appears inside HAL targets."""
