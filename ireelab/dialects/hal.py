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
from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    VectorType,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.ir import (
    Attribute,
    Block,
    Data,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    Pure,
    ReturnLike,
    SymbolOpInterface,
    SymbolTable,
)
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
    # IREE accepts the binding both qualified and stripped (`<storage_buffer>`) in a layout.
    return cast(PipelineBindingAttr, _parse_stripped_or_full(parser, PipelineBindingAttr))


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


def _none_flags() -> NoFlagsAttr:
    return NoFlagsAttr("None")


# ---- executables (stages E and F) -------------------------------------------------------------


def _print_symbol_head(printer: Printer, op: IRDLOperation) -> None:
    visibility = op.properties.get("sym_visibility")
    if isinstance(visibility, StringAttr):
        printer.print_string(" " + visibility.data)
    printer.print_string(" ")
    printer.print_symbol_name(op.properties["sym_name"].data)


def _parse_symbol_head(parser: Parser) -> tuple[StringAttr | None, StringAttr]:
    return parser.parse_optional_visibility_keyword(), parser.parse_symbol_name()


@irdl_op_definition
class ExecutableOp(IRDLOperation):
    """`hal.executable private @name { variants... }`: one dispatchable unit, all its targets."""

    name = "hal.executable"

    sym_name = prop_def(StringAttr)
    sym_visibility = opt_prop_def(StringAttr)
    body = region_def("single_block")

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), SymbolTable(), NoTerminator())

    def __init__(self, name: str, visibility: str | None = "private", body: Region | None = None):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "sym_visibility": StringAttr(visibility) if visibility else None,
            },
            regions=[body if body is not None else Region(Block())],
        )

    @classmethod
    def parse(cls, parser: Parser) -> ExecutableOp:
        visibility, name = _parse_symbol_head(parser)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(name.data, None, parser.parse_region())
        op.sym_visibility = visibility
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        _print_symbol_head(printer, self)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, False, False)


@irdl_op_definition
class ExecutableVariantOp(IRDLOperation):
    """`hal.executable.variant public @sym target(<"backend", "format", {...}>) { ... }`.

    One compilation of the executable for one target: its exports and, until serialisation,
    an inner `builtin.module` with the device code.
    """

    name = "hal.executable.variant"

    sym_name = prop_def(StringAttr)
    sym_visibility = opt_prop_def(StringAttr)
    target = prop_def(ExecutableTargetAttr)
    body = region_def("single_block")

    traits = traits_def(
        IsolatedFromAbove(),
        SymbolOpInterface(),
        SymbolTable(),
        NoTerminator(),
        HasParent(ExecutableOp),
    )

    def __init__(self, name: str, target: ExecutableTargetAttr, body: Region | None = None):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "sym_visibility": StringAttr("public"),
                "target": target,
            },
            regions=[body if body is not None else Region(Block())],
        )

    @property
    def inner_module(self) -> ModuleOp | None:
        return next((op for op in self.body.block.ops if isinstance(op, ModuleOp)), None)

    @property
    def exports(self) -> list[ExecutableExportOp]:
        return [op for op in self.body.block.ops if isinstance(op, ExecutableExportOp)]

    @classmethod
    def parse(cls, parser: Parser) -> ExecutableVariantOp:
        visibility, name = _parse_symbol_head(parser)
        parser.parse_keyword("target")
        with parser.in_parens():
            target = _parse_stripped_or_full(parser, ExecutableTargetAttr)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(name.data, target, parser.parse_region())
        op.sym_visibility = visibility
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        _print_symbol_head(printer, self)
        printer.print_string(" target(")
        self.target.print_parameters(printer)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, False, False)


def _parse_stripped_or_full(parser: Parser, cls: type[ParametrizedAttribute]) -> Attribute:
    """`<...>` (the attribute's parameters, as MLIR prints a known attribute) or `#full<...>`."""
    if parser._current_token.text == "<":  # noqa: SLF001 - xDSL has no public peek
        return cls.new(cls.parse_parameters(parser))
    attr = parser.parse_attribute()
    if not isinstance(attr, cls):
        parser.raise_error(f"expected #{cls.name}")
    return attr


_EXPORT_PROPS = ("workgroup_size", "subgroup_size", "workgroup_local_memory")


@irdl_op_definition
class ExecutableExportOp(IRDLOperation):
    """`hal.executable.export public @fn ordinal(0) layout(#hal.pipeline.layout<...>)
    count(%arg0: !hal.device) -> (index, index, index) { ... } <workgroup_size = [...]>`.

    An entry point of a variant: its ordinal in the executable, the pipeline layout the host
    binds buffers by, the region that computes the workgroup count, and (set by codegen) the
    workgroup size. IREE 3.13 prints the optional inherent attributes after the region in
    `<...>`, which is what this prints. Printed by hand: the count region's arguments are part
    of the signature, as in a function.
    """

    name = "hal.executable.export"

    sym_name = prop_def(StringAttr)
    sym_visibility = opt_prop_def(StringAttr)
    ordinal = prop_def(IntegerAttr)
    layout = prop_def(PipelineLayoutAttr)
    workgroup_size = opt_prop_def(ArrayAttr)
    subgroup_size = opt_prop_def(IntegerAttr)
    workgroup_local_memory = opt_prop_def(IntegerAttr)
    workgroup_count = region_def()

    traits = traits_def(SymbolOpInterface(), IsolatedFromAbove(), HasParent(ExecutableVariantOp))

    def __init__(
        self,
        name: str,
        ordinal: int,
        layout: PipelineLayoutAttr,
        workgroup_count: Region | None = None,
        workgroup_size: Sequence[int] | None = None,
    ):
        size = None
        if workgroup_size is not None:
            size = ArrayAttr([IntegerAttr(s, IndexType()) for s in workgroup_size])
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "sym_visibility": StringAttr("public"),
                "ordinal": IntegerAttr(ordinal, IndexType()),
                "layout": layout,
                "workgroup_size": size,
            },
            regions=[workgroup_count if workgroup_count is not None else Region()],
        )

    @property
    def workgroup_size_values(self) -> list[int] | None:
        if self.workgroup_size is None:
            return None
        return [cast(IntegerAttr, a).value.data for a in self.workgroup_size.data]

    def verify_(self) -> None:
        if not self.workgroup_count.blocks:
            return
        block = self.workgroup_count.block
        if not block.args or not isinstance(block.args[0].type, DeviceType):
            raise VerifyException("the workgroup count region takes the !hal.device first")
        ret = block.last_op
        if not isinstance(ret, ReturnOp) or len(ret.operands) != 3:
            raise VerifyException("the workgroup count region must return (x, y, z) indices")

    @classmethod
    def parse(cls, parser: Parser) -> ExecutableExportOp:
        visibility, name = _parse_symbol_head(parser)
        parser.parse_keyword("ordinal")
        with parser.in_parens():
            ordinal = parser.parse_integer()
        parser.parse_keyword("layout")
        with parser.in_parens():
            layout = _parse_stripped_or_full(parser, PipelineLayoutAttr)
        region = Region()
        if parser.parse_optional_keyword("count"):
            args = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=True)
            )
            parser.parse_punctuation("->")
            parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
            region = parser.parse_region(args)
        op = cls(name.data, ordinal, cast(PipelineLayoutAttr, layout), region)
        op.sym_visibility = visibility
        if parser.parse_optional_punctuation("<"):
            _parse_prop_entries(parser, op)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        if attrs is not None:
            for key in _EXPORT_PROPS:  # accept `attributes {workgroup_size = ...}` too
                if key in attrs.data:
                    op.properties[key] = attrs.data[key]
            op.attributes |= {k: v for k, v in attrs.data.items() if k not in _EXPORT_PROPS}
        return op

    def print(self, printer: Printer) -> None:
        _print_symbol_head(printer, self)
        printer.print_string(f" ordinal({self.ordinal.value.data}) layout(")
        printer.print_attribute(self.layout)
        printer.print_string(")")
        if self.workgroup_count.blocks:
            block = self.workgroup_count.block
            printer.print_string(" count(")
            printer.print_list(block.args, printer.print_block_argument)
            printer.print_string(") -> (index, index, index) ")
            printer.print_region(self.workgroup_count, False, False)
        present = [(k, self.properties[k]) for k in _EXPORT_PROPS if k in self.properties]
        if present:
            printer.print_string(" <")
            printer.print_list(
                present,
                lambda kv: (printer.print_string(f"{kv[0]} = "), printer.print_attribute(kv[1])),
            )
            printer.print_string(">")
        printer.print_op_attributes(self.attributes, print_keyword=True)


def _parse_prop_entries(parser: Parser, op: IRDLOperation) -> None:
    """The body of IREE's `<name = value, ...>` property list; `<` already consumed."""
    while True:
        key = parser.parse_identifier()
        parser.parse_punctuation("=")
        op.properties[key] = parser.parse_attribute()
        if not parser.parse_optional_punctuation(","):
            break
    parser.parse_punctuation(">")


@irdl_op_definition
class ExecutableBinaryOp(IRDLOperation):
    """`hal.executable.binary public @sym <format = "...", data = dense<...> : vector<Nxi8>,
    mime_type = "...">`: a serialised variant (SerializeAllExecutablesPass).

    IREE 3.13 prints the properties in `<...>`, as here; `attributes {...}` is accepted too.
    """

    name = "hal.executable.binary"

    sym_name = prop_def(StringAttr)
    sym_visibility = opt_prop_def(StringAttr)
    format = prop_def(StringAttr)
    data = prop_def(DenseIntOrFPElementsAttr)
    mime_type = opt_prop_def(StringAttr)

    traits = traits_def(SymbolOpInterface(), HasParent(ExecutableOp))

    def __init__(self, name: str, format: str, data: bytes, mime_type: str | None = None):
        values = [b - 256 if b > 127 else b for b in data]
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "sym_visibility": StringAttr("public"),
                "format": StringAttr(format),
                "data": DenseIntOrFPElementsAttr.from_list(VectorType(i8, [len(values)]), values),
                "mime_type": StringAttr(mime_type) if mime_type is not None else None,
            }
        )

    @property
    def bytes(self) -> bytes:
        return bytes((v + 256) % 256 for v in self.data.get_values())

    @classmethod
    def parse(cls, parser: Parser) -> ExecutableBinaryOp:
        visibility, name = _parse_symbol_head(parser)
        op = cls(name.data, "", b"")
        op.sym_visibility = visibility
        if parser.parse_optional_punctuation("<"):
            _parse_prop_entries(parser, op)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        if attrs is not None:
            for key in ("format", "data", "mime_type"):
                if key in attrs.data:
                    op.properties[key] = attrs.data[key]
            op.attributes |= {
                k: v for k, v in attrs.data.items() if k not in ("format", "data", "mime_type")
            }
        return op

    def print(self, printer: Printer) -> None:
        _print_symbol_head(printer, self)
        entries = [("format", self.format), ("data", self.data)]
        if self.mime_type is not None:
            entries.append(("mime_type", self.mime_type))
        printer.print_string(" <")
        printer.print_list(
            entries,
            lambda kv: (printer.print_string(f"{kv[0]} = "), printer.print_attribute(kv[1])),
        )
        printer.print_string(">")
        printer.print_op_attributes(self.attributes, print_keyword=True)


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`hal.return %x, %y, %z : index, index, index`: ends a workgroup-count region."""

    name = "hal.return"

    operands_ = var_operand_def()

    traits = traits_def(IsTerminator(), ReturnLike(), HasParent(ExecutableExportOp))

    assembly_format = "attr-dict ($operands_^ `:` type($operands_))?"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])


@irdl_op_definition
class InterfaceBindingSubspanOp(IRDLOperation):
    """`%0 = hal.interface.binding.subspan layout(<...>) binding(0) alignment(64) offset(%c0)
    flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x4xf32>>`.

    Inside device code: binding `i` of the pipeline layout, from byte `offset`, seen as a
    dispatch tensor (or, after bufferization, a memref).
    """

    name = "hal.interface.binding.subspan"

    layout = prop_def(PipelineLayoutAttr)
    binding = prop_def(IntegerAttr)
    byte_offset = opt_operand_def(IndexType)
    alignment = opt_prop_def(IntegerAttr)
    descriptor_flags = opt_prop_def(BindingFlagsAttr)
    result = result_def()

    def __init__(
        self,
        layout: PipelineLayoutAttr,
        binding: int,
        result_type: Attribute,
        byte_offset: SSAValue | Operation | None = None,
        alignment: int | None = 64,
        flags: str | None = None,
    ):
        super().__init__(
            operands=[[byte_offset] if byte_offset is not None else []],
            result_types=[result_type],
            properties={
                "layout": layout,
                "binding": IntegerAttr(binding, IndexType()),
                "alignment": IntegerAttr(alignment, IndexType()) if alignment else None,
                "descriptor_flags": BindingFlagsAttr(flags) if flags else None,
            },
        )

    def verify_(self) -> None:
        index = self.binding.value.data
        if not 0 <= index < len(self.layout.bindings.data):
            raise VerifyException(f"binding({index}) is not in the pipeline layout")

    @classmethod
    def parse(cls, parser: Parser) -> InterfaceBindingSubspanOp:
        parser.parse_keyword("layout")
        with parser.in_parens():
            layout = _parse_stripped_or_full(parser, PipelineLayoutAttr)
        parser.parse_keyword("binding")
        with parser.in_parens():
            binding = parser.parse_integer()
        alignment = None
        if parser.parse_optional_keyword("alignment"):
            with parser.in_parens():
                alignment = parser.parse_integer()
        offset = None
        if parser.parse_optional_keyword("offset"):
            with parser.in_parens():
                offset = parser.parse_unresolved_operand()
        flags = None
        if parser.parse_optional_keyword("flags"):
            with parser.in_parens():
                flags = parse_flags(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        op = cls(
            cast(PipelineLayoutAttr, layout),
            binding,
            type_,
            parser.resolve_operand(offset, IndexType()) if offset is not None else None,
            alignment,
            flags,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" layout(")
        self.layout.print_parameters(printer)
        printer.print_string(f") binding({self.binding.value.data})")
        if self.alignment is not None:
            printer.print_string(f" alignment({self.alignment.value.data})")
        if self.byte_offset is not None:
            printer.print_string(" offset(")
            printer.print_operand(self.byte_offset)
            printer.print_string(")")
        if self.descriptor_flags is not None:
            printer.print_string(" flags(")
            print_flags(printer, self.descriptor_flags.data)
            printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


class _WorkgroupQueryOp(IRDLOperation):
    """`%workgroup_id_x = hal.interface.workgroup.id[0] : index` and its siblings."""

    dimension = prop_def(IntegerAttr)
    result = result_def(IndexType)

    traits = traits_def(Pure())

    def __init__(self, dimension: int):
        super().__init__(
            result_types=[IndexType()],
            properties={"dimension": IntegerAttr(dimension, IndexType())},
        )
        self.result.name_hint = f"workgroup_{self.name.rsplit('.', 1)[1]}_{'xyz'[dimension]}"

    def verify_(self) -> None:
        if self.dimension.value.data not in (0, 1, 2):
            raise VerifyException("workgroup dimension must be 0, 1 or 2")

    @classmethod
    def parse(cls, parser: Parser):
        with parser.in_square_brackets():
            dimension = parser.parse_integer()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        parser.parse_type()
        op = cls(dimension)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f"[{self.dimension.value.data}]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : index")


@irdl_op_definition
class InterfaceWorkgroupIDOp(_WorkgroupQueryOp):
    name = "hal.interface.workgroup.id"


@irdl_op_definition
class InterfaceWorkgroupCountOp(_WorkgroupQueryOp):
    name = "hal.interface.workgroup.count"


@irdl_op_definition
class InterfaceWorkgroupSizeOp(_WorkgroupQueryOp):
    name = "hal.interface.workgroup.size"


# ---- host: constants of the buffer-view ABI ---------------------------------------------------


@irdl_op_definition
class ElementTypeOp(IRDLOperation):
    """`%element_type_f32 = hal.element_type<f32> : i32`: IREE's packed element-type code."""

    name = "hal.element_type"

    type_ = prop_def(TypeAttribute, prop_name="type")
    result = result_def(i32)

    traits = traits_def(Pure())

    def __init__(self, element_type: Attribute):
        super().__init__(result_types=[i32], properties={"type": element_type})
        self.result.name_hint = f"element_type_{element_type}"

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


# ---- host: devices ----------------------------------------------------------------------------


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


# ---- host: command buffers --------------------------------------------------------------------


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


def _parse_binding_list(parser: Parser) -> list[tuple[SSAValue, SSAValue, SSAValue]]:
    """`[(%buffer : type)[%offset, %length], ...]` (buffer or binding-table slot index)."""

    def parse_one() -> tuple[SSAValue, SSAValue, SSAValue]:
        with parser.in_parens():
            value = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            value = parser.resolve_operand(value, parser.parse_type())
        with parser.in_square_brackets():
            offset = parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())
            parser.parse_punctuation(",")
            length = parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())
        return value, offset, length

    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_one)


def _print_binding_list(printer: Printer, buffers, offsets, lengths) -> None:
    # IREE prints one binding per line, each followed by ", " (trailing space included).
    printer.print_string("[")
    with printer.indented():
        for i, (buffer, offset, length) in enumerate(zip(buffers, offsets, lengths, strict=True)):
            printer.print_string("\n")
            printer.print_string("(")
            printer.print_operand(buffer)
            printer.print_string(" : ")
            printer.print_attribute(buffer.type)
            printer.print_string(")[")
            printer.print_operand(offset)
            printer.print_string(", ")
            printer.print_operand(length)
            printer.print_string("]" + (", " if i + 1 < len(buffers) else ""))
    printer.print_string("\n")
    printer.print_string("]")


def _parse_target_prefix(parser: Parser, type_: Attribute) -> SSAValue:
    with parser.in_angle_brackets():
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        parser.parse_type()
    return parser.resolve_operand(value, type_)


def _parse_flags_clause(parser: Parser) -> NoFlagsAttr:
    parser.parse_keyword("flags")
    with parser.in_parens():
        return NoFlagsAttr(parse_flags(parser))


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
            properties={"flags": _none_flags()},
        )

    def verify_(self) -> None:
        if len(self.workgroup_count) != 3:
            raise VerifyException("workgroups takes three counts (x, y, z)")

    @classmethod
    def parse(cls, parser: Parser) -> CommandBufferDispatchOp:
        cmd = _parse_target_prefix(parser, CommandBufferType())
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
            bindings = _parse_binding_list(parser)
        flags = _parse_flags_clause(parser)
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
        _print_binding_list(
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
                "flags": _none_flags(),
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
            properties={"flags": _none_flags()},
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
            properties={"flags": _none_flags()},
        )


# ---- host: fences and queues ------------------------------------------------------------------


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
            operands=[device], result_types=[FenceType()], properties={"flags": _none_flags()}
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
            operands=[fences], result_types=[FenceType()], properties={"flags": _none_flags()}
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
            properties={"flags": _none_flags()},
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
            properties={"flags": _none_flags()},
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
            properties={"flags": _none_flags()},
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
            properties={"flags": _none_flags()},
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
            properties={"flags": _none_flags()},
        )

    @classmethod
    def parse(cls, parser: Parser) -> DeviceQueueExecuteIndirectOp:
        device = _parse_target_prefix(parser, DeviceType())
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
            bindings = _parse_binding_list(parser)
        flags = _parse_flags_clause(parser)
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
        _print_binding_list(
            printer, self.binding_buffers, self.binding_offsets, self.binding_lengths
        )
        printer.print_string(") flags(")
        print_flags(printer, self.flags.data)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)


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
    MemoryTypeAttr,
    BufferUsageAttr,
    CommandBufferModeAttr,
    CommandCategoryAttr,
    ExecutionStageAttr,
    BindingFlagsAttr,
    NoFlagsAttr,
    ExecutableTargetAttr,
    DeviceTargetAttr,
    DeviceAffinityAttr,
    PipelineBindingAttr,
    PipelineLayoutAttr,
]
_OPS: list[type[IRDLOperation]] = [
    TensorImportOp,
    TensorExportOp,
    ExecutableOp,
    ExecutableVariantOp,
    ExecutableExportOp,
    ExecutableBinaryOp,
    ReturnOp,
    InterfaceBindingSubspanOp,
    InterfaceWorkgroupIDOp,
    InterfaceWorkgroupCountOp,
    InterfaceWorkgroupSizeOp,
    ElementTypeOp,
    EncodingTypeOp,
    MemoryTypeOp,
    BufferUsageOp,
    BufferViewAssertOp,
    BufferViewBufferOp,
    BufferViewCreateOp,
    BufferAssertOp,
    DeviceAllocatorOp,
    DevicesCountOp,
    DevicesGetOp,
    DeviceQueryOp,
    ExecutableCreateOp,
    ExecutableLookupFunctionOp,
    CommandBufferCreateOp,
    CommandBufferDispatchOp,
    CommandBufferExecutionBarrierOp,
    CommandBufferFinalizeOp,
    CommandBufferFillBufferOp,
    CommandBufferCopyBufferOp,
    FenceCreateOp,
    FenceJoinOp,
    FenceAwaitOp,
    DeviceQueueAllocaOp,
    DeviceQueueDeallocaOp,
    DeviceQueueExecuteOp,
    DeviceQueueExecuteIndirectOp,
]

HAL = Dialect("hal", _OPS, [*_TYPES, *_ATTRIBUTES])


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
