"""The `stream` dialect: IREE's resources, asynchronous execution and timepoints.

Mirrors `compiler/src/iree/compiler/Dialect/Stream/IR/StreamOps.td` and `StreamTypes.td`
(IREE 3.13) for the ops the Stream stage prints, from `ConvertToStreamPass` (the
`stream.tensor.*` ops on `!stream.resource<*>`) through the `stream.async.*` value-semantics
ops and `stream.async.execute` regions, down to `stream.cmd.*` commands on explicitly allocated
resources awaited through `!stream.timepoint`s. Executables (`stream.executable`) keep the
dispatch functions, now taking `!stream.binding` arguments read with `stream.binding.subspan`.

Almost every op has a custom parse/print: IREE's formats size each resource right after its
type (`!stream.resource<external>{%c32}`), use `=>` for timepoints, name region arguments in
`with(%x as %arg: type{size})` lists and write dispatch bindings as `ro %r[%o for %l]`, which
xDSL's declarative format cannot say. The trivial ops use `assembly_format`.

Not modelled: tied results (`-> %arg0{...}` on async ops; IREE ties when dispatching in place),
multiple entry points, parameters, channels, files and collectives.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum

from xdsl.dialects.builtin import (
    ArrayAttr,
    IndexType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.ir import (
    Attribute,
    Block,
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
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_region_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    Pure,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException

from ireelab.dialects.flow import (
    parse_entry_points,
    parse_optional_workgroup_count_region,
    parse_optional_workload,
    parse_shaped_type,
    parse_symbol_alias,
    parse_visibility,
    print_entry_points,
    print_shaped_type,
    print_symbol_alias,
    print_visibility,
    print_workgroup_count_region,
    print_workload,
)

# ---- types ---------------------------------------------------------------------------------


class Lifetime(StrEnum):
    """What a resource is for; decides where and how long it is allocated."""

    UNKNOWN = "*"
    """not yet decided (right after ConvertToStreamPass; RefineUsagePass picks one)."""
    EXTERNAL = "external"
    """crosses the program boundary (imported arguments, exported results)."""
    TRANSIENT = "transient"
    """lives only inside one invocation; packed into a slab by ScheduleAllocationPass."""
    CONSTANT = "constant"
    """immutable after initialization (weights)."""
    VARIABLE = "variable"
    """a mutable global."""
    STAGING = "staging"
    """host-visible upload/download memory."""


@irdl_attr_definition
class ResourceType(ParametrizedAttribute, TypeAttribute):
    """`!stream.resource<external>`: a byte buffer with a lifetime; `*` means undecided."""

    name = "stream.resource"

    lifetime: StringAttr

    def __init__(self, lifetime: Lifetime | str = Lifetime.UNKNOWN):
        super().__init__(StringAttr(str(Lifetime(lifetime))))

    @property
    def kind(self) -> Lifetime:
        return Lifetime(self.lifetime.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr]:
        with parser.in_angle_brackets():
            if parser.parse_optional_punctuation("*"):
                return (StringAttr("*"),)
            word = parser.parse_identifier()
            if word not in Lifetime.__members__.values():
                parser.raise_error(f"unknown resource lifetime '{word}'")
        return (StringAttr(word),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.lifetime.data}>")

    def verify(self) -> None:
        if self.lifetime.data not in Lifetime.__members__.values():
            raise VerifyException(f"unknown resource lifetime '{self.lifetime.data}'")


@irdl_attr_definition
class TimepointType(ParametrizedAttribute, TypeAttribute):
    """`!stream.timepoint`: a point on the device timeline (a future; a fence in HAL)."""

    name = "stream.timepoint"


@irdl_attr_definition
class BindingType(ParametrizedAttribute, TypeAttribute):
    """`!stream.binding`: a dispatch function's view of one bound resource range."""

    name = "stream.binding"


class Access(StrEnum):
    """How a `stream.cmd.dispatch` uses a bound resource range."""

    READ = "ro"
    WRITE = "wo"
    READ_WRITE = "rw"


# ---- shared pieces of IREE's formats --------------------------------------------------------


def _parse_affinity(parser: Parser, keyword: str = "on") -> Attribute | None:
    """`on(#hal.device.affinity<@__device_0>)` (or `from(...)` / `to(...)`), optional."""
    if parser.parse_optional_keyword(keyword) is None:
        return None
    with parser.in_parens():
        return parser.parse_attribute()


def _print_affinity(printer: Printer, affinity: Attribute | None, keyword: str = "on") -> None:
    if affinity is None:
        return
    printer.print_string(f" {keyword}(")
    printer.print_attribute(affinity)
    printer.print_string(")")


def _parse_arrow(parser: Parser) -> None:
    """IREE's `=>` is `=` then `>` (MLIR has no such token)."""
    parser.parse_punctuation("=")
    parser.parse_punctuation(">")


def _parse_optional_await(parser: Parser) -> SSAValue | None:
    """`await(%t) =>`, optional."""
    if parser.parse_optional_keyword("await") is None:
        return None
    with parser.in_parens():
        timepoint = parser.parse_operand(TimepointType())
    _parse_arrow(parser)
    return timepoint


def _print_await(printer: Printer, timepoint: SSAValue | None) -> None:
    if timepoint is None:
        return
    printer.print_string(" await(")
    printer.print_operand(timepoint)
    printer.print_string(") =>")


def _parse_size(parser: Parser) -> SSAValue:
    """`{%size}` right after a resource type."""
    parser.parse_punctuation("{")
    size = parser.parse_operand(IndexType())
    parser.parse_punctuation("}")
    return size


def _parse_sized_type(parser: Parser) -> tuple[Attribute, SSAValue]:
    ty = parser.parse_type()
    return ty, _parse_size(parser)


def _print_sized(printer: Printer, ty: Attribute, size: SSAValue) -> None:
    printer.print_attribute(ty)
    printer.print_string("{")
    printer.print_operand(size)
    printer.print_string("}")


def _parse_typed_operand(parser: Parser) -> tuple[SSAValue, Attribute, SSAValue]:
    """`%x : type{%size}`."""
    unresolved = parser.parse_unresolved_operand()
    parser.parse_punctuation(":")
    ty, size = _parse_sized_type(parser)
    return parser.resolve_operand(unresolved, ty), ty, size


def _parse_encoding(parser: Parser) -> tuple[Attribute, list[SSAValue]]:
    """`tensor<?x4xf32>{%d}` then `in`: the logical tensor a resource holds."""
    ty, dims = parse_shaped_type(parser)
    parser.parse_keyword("in")
    return ty, dims


def _print_encoding(printer: Printer, ty: Attribute, dims: Sequence[SSAValue]) -> None:
    print_shaped_type(printer, ty, dims)
    printer.print_string(" in ")


def _parse_trailing_attrs(parser: Parser, op: Operation) -> Operation:
    attrs = parser.parse_optional_attr_dict_with_keyword()
    if attrs is not None:
        op.attributes.update(attrs.data)
    return op


def _print_trailing_attrs(printer: Printer, op: Operation) -> None:
    if op.attributes:
        printer.print_string(" attributes ")
        printer.print_attr_dict(op.attributes)


def _affinity_props(**affinities: Attribute | None) -> dict[str, Attribute]:
    return {k: v for k, v in affinities.items() if v is not None}


def _is_resource(ty: Attribute) -> bool:
    return isinstance(ty, ResourceType)


# ---- executables ---------------------------------------------------------------------------


@irdl_op_definition
class ExecutableOp(IRDLOperation):
    """`stream.executable private @name { exports... builtin.module {...} }`"""

    name = "stream.executable"

    sym_visibility = opt_prop_def(StringAttr)
    sym_name = prop_def(SymbolNameConstraint())
    body = region_def("single_block")

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), SymbolTable(), NoTerminator())

    def __init__(
        self, sym_name: str, body: Region | None = None, visibility: str | None = "private"
    ):
        props: dict[str, Attribute] = {"sym_name": StringAttr(sym_name)}
        if visibility is not None:
            props["sym_visibility"] = StringAttr(visibility)
        super().__init__(properties=props, regions=[body if body is not None else Region(Block())])

    @classmethod
    def parse(cls, parser: Parser) -> ExecutableOp:
        visibility = parse_visibility(parser)
        name = parser.parse_symbol_name()
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        if not body.blocks:
            body.add_block(Block())
        op = cls(name.data, body, visibility.data if visibility else None)
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer) -> None:
        print_visibility(printer, self.sym_visibility)
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        _print_trailing_attrs(printer, self)
        printer.print_string(" ")
        printer.print_region(self.body)


@irdl_op_definition
class ExecutableExportOp(IRDLOperation):
    """`stream.executable.export public @fn workgroups(...) -> (index, index, index) {...}`"""

    name = "stream.executable.export"

    sym_visibility = opt_prop_def(StringAttr)
    sym_name = prop_def(SymbolNameConstraint())
    function_ref = prop_def(SymbolRefAttr)
    workgroup_count = opt_region_def()

    traits = traits_def(SymbolOpInterface())

    def __init__(
        self,
        sym_name: str,
        workgroup_count: Region | None = None,
        function_ref: str | None = None,
        visibility: str | None = "public",
    ):
        props: dict[str, Attribute] = {
            "sym_name": StringAttr(sym_name),
            "function_ref": SymbolRefAttr(function_ref or sym_name),
        }
        if visibility is not None:
            props["sym_visibility"] = StringAttr(visibility)
        super().__init__(
            properties=props,
            regions=[workgroup_count if workgroup_count is not None else Region()],
        )

    @classmethod
    def parse(cls, parser: Parser) -> ExecutableExportOp:
        visibility = parse_visibility(parser)
        name, function_ref = parse_symbol_alias(parser)
        region = parse_optional_workgroup_count_region(parser, "workgroups")
        op = cls(
            name.data,
            region,
            function_ref.root_reference.data,
            visibility.data if visibility else None,
        )
        return _parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        print_visibility(printer, self.sym_visibility)
        print_symbol_alias(printer, self.sym_name, self.function_ref)
        print_workgroup_count_region(printer, self.workgroup_count, "workgroups")
        _print_trailing_attrs(printer, self)


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`stream.return %x, %y, %z : index, index, index` ends a workgroup count region."""

    name = "stream.return"

    operands_ = var_operand_def()

    traits = traits_def(IsTerminator(), Pure())

    assembly_format = "attr-dict ($operands_^ `:` type($operands_))?"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[list(values)])


@irdl_op_definition
class BindingSubspanOp(IRDLOperation):
    """`%0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext...`"""

    name = "stream.binding.subspan"

    binding = operand_def(BindingType)
    byte_offset = operand_def(IndexType)
    dynamic_dims = var_operand_def(IndexType)
    result = result_def()

    traits = traits_def(Pure())

    def __init__(
        self,
        binding: SSAValue,
        byte_offset: SSAValue,
        result_type: Attribute,
        dynamic_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[binding, byte_offset, list(dynamic_dims)], result_types=[result_type]
        )

    @classmethod
    def parse(cls, parser: Parser) -> BindingSubspanOp:
        binding = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        offset = parser.parse_operand(IndexType())
        parser.parse_punctuation("]")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        binding_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type, dims = parse_shaped_type(parser)
        op = cls(parser.resolve_operand(binding, binding_type), offset, result_type, dims)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.binding)
        printer.print_string("[")
        printer.print_operand(self.byte_offset)
        printer.print_string("]")
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.binding.type)
        printer.print_string(" -> ")
        print_shaped_type(printer, self.result.type, self.dynamic_dims)


# ---- resources -----------------------------------------------------------------------------


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
            properties=_affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser) -> ResourceAllocaOp:
        parser.parse_keyword("uninitialized")
        affinity = _parse_affinity(parser)
        timepoint = _parse_optional_await(parser)
        if timepoint is None:
            parser.parse_punctuation(":")
        attrs = parser.parse_optional_attr_dict()
        ty, size = _parse_sized_type(parser)
        _parse_arrow(parser)
        parser.parse_type()
        if not isinstance(ty, ResourceType):
            parser.raise_error("expected a !stream.resource type")
        op = cls(ty, size, affinity, timepoint)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" uninitialized")
        _print_affinity(printer, self.affinity)
        if self.await_timepoint is not None:
            _print_await(printer, self.await_timepoint)
        else:
            printer.print_string(" :")
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" ")
        _print_sized(printer, self.result.type, self.storage_size)
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
            properties=_affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser) -> ResourceDeallocaOp:
        affinity = _parse_affinity(parser)
        timepoint = _parse_optional_await(parser)
        operand, _, size = _parse_typed_operand(parser)
        _parse_arrow(parser)
        parser.parse_type()
        op = cls(operand, size, affinity, timepoint)
        return _parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        _print_affinity(printer, self.affinity)
        _print_await(printer, self.await_timepoint)
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(" : ")
        _print_sized(printer, self.operand.type, self.operand_size)
        printer.print_string(" => !stream.timepoint")
        _print_trailing_attrs(printer, self)


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
        ty, size = _parse_sized_type(parser)
        parser.parse_punctuation("->")
        _, result_size = _parse_sized_type(parser)
        op = cls(parser.resolve_operand(source, ty), size, offset, result_size)
        return _parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string("[")
        printer.print_operand(self.source_offset)
        printer.print_string("] : ")
        _print_sized(printer, self.source.type, self.source_size)
        printer.print_string(" -> ")
        _print_sized(printer, self.result.type, self.result_size)
        _print_trailing_attrs(printer, self)


# ---- tensor-level ops (before resources are sized into bytes) -------------------------------


@irdl_op_definition
class TensorImportOp(IRDLOperation):
    """`%r = stream.tensor.import on(...) %bv : !hal.buffer_view -> tensor<2x4xf32> in !stream.resource<external>{%c32}`"""

    name = "stream.tensor.import"

    source = operand_def()
    result_encoding_dims = var_operand_def(IndexType)
    result_size = operand_def(IndexType)
    result_encoding = prop_def(Attribute)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        source: SSAValue,
        result_encoding: Attribute,
        result_type: ResourceType,
        result_size: SSAValue,
        affinity: Attribute | None = None,
        result_encoding_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[source, list(result_encoding_dims), result_size],
            result_types=[result_type],
            properties={"result_encoding": result_encoding, **_affinity_props(affinity=affinity)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorImportOp:
        affinity = _parse_affinity(parser)
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation("->")
        encoding, dims = _parse_encoding(parser)
        ty, size = _parse_sized_type(parser)
        op = cls(parser.resolve_operand(source, source_type), encoding, ty, size, affinity, dims)
        return _parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        _print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        _print_encoding(printer, self.result_encoding, self.result_encoding_dims)
        _print_sized(printer, self.result.type, self.result_size)
        _print_trailing_attrs(printer, self)


@irdl_op_definition
class TensorExportOp(IRDLOperation):
    """`%bv = stream.tensor.export on(...) %r : tensor<2x2xf32> in !stream.resource<external>{%c16} -> !hal.buffer_view`"""

    name = "stream.tensor.export"

    source = operand_def(ResourceType)
    source_encoding_dims = var_operand_def(IndexType)
    source_size = operand_def(IndexType)
    source_encoding = prop_def(Attribute)
    affinity = opt_prop_def(Attribute)
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        source: SSAValue,
        source_encoding: Attribute,
        source_size: SSAValue,
        result_type: Attribute,
        affinity: Attribute | None = None,
        source_encoding_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[source, list(source_encoding_dims), source_size],
            result_types=[result_type],
            properties={"source_encoding": source_encoding, **_affinity_props(affinity=affinity)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorExportOp:
        affinity = _parse_affinity(parser)
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        encoding, dims = _parse_encoding(parser)
        ty, size = _parse_sized_type(parser)
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        op = cls(parser.resolve_operand(source, ty), encoding, size, result_type, affinity, dims)
        return _parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        _print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" : ")
        _print_encoding(printer, self.source_encoding, self.source_encoding_dims)
        _print_sized(printer, self.source.type, self.source_size)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)
        _print_trailing_attrs(printer, self)


@irdl_op_definition
class TensorSizeOfOp(IRDLOperation):
    """`%n = stream.tensor.sizeof on(...) tensor<2x4xf32> : index`: bytes to hold a tensor."""

    name = "stream.tensor.sizeof"

    encoding_dims = var_operand_def(IndexType)
    encoding = prop_def(Attribute)
    affinity = opt_prop_def(Attribute)
    storage_size = result_def(IndexType)

    traits = traits_def(Pure())

    def __init__(
        self,
        encoding: Attribute,
        affinity: Attribute | None = None,
        encoding_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[list(encoding_dims)],
            result_types=[IndexType()],
            properties={"encoding": encoding, **_affinity_props(affinity=affinity)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorSizeOfOp:
        affinity = _parse_affinity(parser)
        encoding, dims = parse_shaped_type(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        parser.parse_type()
        op = cls(encoding, affinity, dims)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        _print_affinity(printer, self.affinity)
        printer.print_string(" ")
        print_shaped_type(printer, self.encoding, self.encoding_dims)
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" : index")


@irdl_op_definition
class TensorCloneOp(IRDLOperation):
    """`%r = stream.tensor.clone on(...) %s : tensor<4x8xf32> in !stream.resource<*>{%n} -> tensor<32xf32> in !stream.resource<*>{%n}`

    What a metadata-only `flow.tensor.reshape` becomes; copy elision removes it again.
    """

    name = "stream.tensor.clone"

    source = operand_def(ResourceType)
    source_encoding_dims = var_operand_def(IndexType)
    source_size = operand_def(IndexType)
    result_encoding_dims = var_operand_def(IndexType)
    result_size = operand_def(IndexType)
    source_encoding = prop_def(Attribute)
    result_encoding = prop_def(Attribute)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        source: SSAValue,
        source_encoding: Attribute,
        source_size: SSAValue,
        result_encoding: Attribute,
        result_size: SSAValue,
        result_type: Attribute | None = None,
        affinity: Attribute | None = None,
        source_encoding_dims: Sequence[SSAValue] = (),
        result_encoding_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[
                source,
                list(source_encoding_dims),
                source_size,
                list(result_encoding_dims),
                result_size,
            ],
            result_types=[result_type or source.type],
            properties={
                "source_encoding": source_encoding,
                "result_encoding": result_encoding,
                **_affinity_props(affinity=affinity),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorCloneOp:
        affinity = _parse_affinity(parser)
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        source_encoding, source_dims = _parse_encoding(parser)
        ty, size = _parse_sized_type(parser)
        parser.parse_punctuation("->")
        result_encoding, result_dims = _parse_encoding(parser)
        result_type, result_size = _parse_sized_type(parser)
        op = cls(
            parser.resolve_operand(source, ty),
            source_encoding,
            size,
            result_encoding,
            result_size,
            result_type,
            affinity,
            source_dims,
            result_dims,
        )
        return _parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        _print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" : ")
        _print_encoding(printer, self.source_encoding, self.source_encoding_dims)
        _print_sized(printer, self.source.type, self.source_size)
        printer.print_string(" -> ")
        _print_encoding(printer, self.result_encoding, self.result_encoding_dims)
        _print_sized(printer, self.result.type, self.result_size)
        _print_trailing_attrs(printer, self)


@irdl_op_definition
class TensorSplatOp(IRDLOperation):
    """`%r = stream.tensor.splat on(...) %v : f32 -> tensor<8xf32> in !stream.resource<*>{%n}`"""

    name = "stream.tensor.splat"

    value = operand_def()
    result_encoding_dims = var_operand_def(IndexType)
    result_size = operand_def(IndexType)
    result_encoding = prop_def(Attribute)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        value: SSAValue,
        result_encoding: Attribute,
        result_type: Attribute,
        result_size: SSAValue,
        affinity: Attribute | None = None,
        result_encoding_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[value, list(result_encoding_dims), result_size],
            result_types=[result_type],
            properties={"result_encoding": result_encoding, **_affinity_props(affinity=affinity)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorSplatOp:
        affinity = _parse_affinity(parser)
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation("->")
        encoding, dims = _parse_encoding(parser)
        ty, size = _parse_sized_type(parser)
        op = cls(parser.resolve_operand(value, value_type), encoding, ty, size, affinity, dims)
        return _parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        _print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(" -> ")
        _print_encoding(printer, self.result_encoding, self.result_encoding_dims)
        _print_sized(printer, self.result.type, self.result_size)
        _print_trailing_attrs(printer, self)


def _parse_operand_list(parser: Parser, parse_one: Callable[[], object]) -> list:
    parser.parse_punctuation("(")
    if parser.parse_optional_punctuation(")"):
        return []
    items = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parse_one)
    parser.parse_punctuation(")")
    return items


@irdl_op_definition
class TensorDispatchOp(IRDLOperation):
    """`%r = stream.tensor.dispatch on(...) @exe::@fn(%a, %b) : (tensor<..> in !stream.resource<*>{%n}, ...) -> tensor<..> in !stream.resource<*>{%m}`

    A dispatch still described by the tensors it reads and writes (dynamic dims of the
    encodings are not modelled: the reference programs are static).
    """

    name = "stream.tensor.dispatch"

    workload = var_operand_def(IndexType)
    mixed_operands = var_operand_def()
    operand_sizes = var_operand_def(IndexType)
    result_sizes = var_operand_def(IndexType)
    entry_points = prop_def(ArrayAttr[SymbolRefAttr])
    operand_encodings = prop_def(ArrayAttr)
    result_encodings = prop_def(ArrayAttr)
    affinity = opt_prop_def(Attribute)
    outputs = var_result_def(ResourceType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        entry_point: SymbolRefAttr,
        operands: Sequence[SSAValue],
        operand_sizes: Sequence[SSAValue],
        operand_encodings: Sequence[Attribute],
        result_types: Sequence[Attribute],
        result_sizes: Sequence[SSAValue],
        result_encodings: Sequence[Attribute],
        affinity: Attribute | None = None,
        workload: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[list(workload), list(operands), list(operand_sizes), list(result_sizes)],
            result_types=[list(result_types)],
            properties={
                "entry_points": ArrayAttr([entry_point]),
                "operand_encodings": ArrayAttr(operand_encodings),
                "result_encodings": ArrayAttr(result_encodings),
                **_affinity_props(affinity=affinity),
            },
        )

    @property
    def entry_point(self) -> SymbolRefAttr:
        return self.entry_points.data[0]

    @classmethod
    def parse(cls, parser: Parser) -> TensorDispatchOp:
        affinity = _parse_affinity(parser)
        entry_points = parse_entry_points(parser)
        workload = parse_optional_workload(parser)
        unresolved = _parse_operand_list(parser, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_parts = _parse_operand_list(parser, lambda: _parse_encoded_type(parser))
        parser.parse_punctuation("->")
        if parser.parse_optional_punctuation("("):
            result_parts = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE, lambda: _parse_encoded_type(parser)
            )
            parser.parse_punctuation(")")
        else:
            result_parts = [_parse_encoded_type(parser)]
        operands = [
            parser.resolve_operand(u, part[1])
            for u, part in zip(unresolved, operand_parts, strict=False)
        ]
        op = cls(
            entry_points.data[0],
            operands,
            [p[2] for p in operand_parts if p[2] is not None],
            [p[0] for p in operand_parts],
            [p[1] for p in result_parts],
            [p[2] for p in result_parts if p[2] is not None],
            [p[0] for p in result_parts],
            affinity,
            workload,
        )
        op.properties["entry_points"] = entry_points
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        _print_affinity(printer, self.affinity)
        print_entry_points(printer, self.entry_points)
        print_workload(printer, self.workload)
        printer.print_string("(")
        printer.print_list(self.mixed_operands, printer.print_operand)
        printer.print_string(")")
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" : (")
        sizes = iter(self.operand_sizes)
        for i, (value, encoding) in enumerate(
            zip(self.mixed_operands, self.operand_encodings, strict=False)
        ):
            if i:
                printer.print_string(", ")
            _print_encoded_type(printer, encoding, value.type, sizes)
        printer.print_string(") -> ")
        result_sizes = iter(self.result_sizes)
        many = len(self.outputs) != 1
        if many:
            printer.print_string("(")
        for i, (result, encoding) in enumerate(
            zip(self.outputs, self.result_encodings, strict=False)
        ):
            if i:
                printer.print_string(", ")
            _print_encoded_type(printer, encoding, result.type, result_sizes)
        if many:
            printer.print_string(")")


def _parse_encoded_type(parser: Parser) -> tuple[Attribute, Attribute, SSAValue | None]:
    """`tensor<..> in !stream.resource<*>{%n}` or a primitive type (`index`)."""
    ty = parser.parse_type()
    if parser.parse_optional_keyword("in") is None:
        return ty, ty, None
    resource_type, size = _parse_sized_type(parser)
    return ty, resource_type, size


def _print_encoded_type(printer: Printer, encoding: Attribute, ty: Attribute, sizes) -> None:
    if not _is_resource(ty):
        printer.print_attribute(ty)
        return
    printer.print_attribute(encoding)
    printer.print_string(" in ")
    _print_sized(printer, ty, next(sizes))


# ---- async ops: value semantics on resources ------------------------------------------------


@irdl_op_definition
class AsyncAllocaOp(IRDLOperation):
    """`%r = stream.async.alloca on(...) : !stream.resource<transient>{%n}`"""

    name = "stream.async.alloca"

    storage_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    def __init__(self, result_type: Attribute, size: SSAValue, affinity: Attribute | None = None):
        super().__init__(
            operands=[size],
            result_types=[result_type],
            properties=_affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncAllocaOp:
        affinity = _parse_affinity(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ty, size = _parse_sized_type(parser)
        op = cls(ty, size, affinity)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        _print_affinity(printer, self.affinity)
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" : ")
        _print_sized(printer, self.result.type, self.storage_size)


@irdl_op_definition
class AsyncSplatOp(IRDLOperation):
    """`%r = stream.async.splat on(...) %v : f32 -> !stream.resource<*>{%n}`"""

    name = "stream.async.splat"

    value = operand_def()
    result_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    def __init__(
        self,
        value: SSAValue,
        result_type: Attribute,
        result_size: SSAValue,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[value, result_size],
            result_types=[result_type],
            properties=_affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncSplatOp:
        affinity = _parse_affinity(parser)
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation("->")
        ty, size = _parse_sized_type(parser)
        op = cls(parser.resolve_operand(value, value_type), ty, size, affinity)
        return _parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        _print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(" -> ")
        _print_sized(printer, self.result.type, self.result_size)
        _print_trailing_attrs(printer, self)


class _AsyncUnaryOp(IRDLOperation):
    """`on(...) %s : type{%n} -> type{%m}`: clone, cast, and (with from/to) transfer."""

    source = operand_def(ResourceType)
    source_size = operand_def(IndexType)
    result_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    def __init__(
        self,
        source: SSAValue,
        source_size: SSAValue,
        result_type: Attribute,
        result_size: SSAValue,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[source, source_size, result_size],
            result_types=[result_type],
            properties=_affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser):
        affinity = _parse_affinity(parser)
        source, _, size = _parse_typed_operand(parser)
        parser.parse_punctuation("->")
        ty, result_size = _parse_sized_type(parser)
        op = cls(source, size, ty, result_size, affinity)
        return _parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        _print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" : ")
        _print_sized(printer, self.source.type, self.source_size)
        printer.print_string(" -> ")
        _print_sized(printer, self.result.type, self.result_size)
        _print_trailing_attrs(printer, self)


@irdl_op_definition
class AsyncCloneOp(_AsyncUnaryOp):
    """`%r = stream.async.clone on(...) %s : !stream.resource<*>{%n} -> !stream.resource<*>{%n}`"""

    name = "stream.async.clone"


@irdl_op_definition
class AsyncCastOp(_AsyncUnaryOp):
    """`%r = stream.async.cast on(...) %s : !stream.resource<external>{%n} -> !stream.resource<*>{%n}`

    Changes only the lifetime of a resource's type (no data moves).
    """

    name = "stream.async.cast"

    traits = traits_def(Pure())


@irdl_op_definition
class AsyncTransferOp(IRDLOperation):
    """`%r = stream.async.transfer %s : !stream.resource<*>{%n} from(...) -> to(...) !stream.resource<staging>{%n}`"""

    name = "stream.async.transfer"

    source = operand_def(ResourceType)
    source_size = operand_def(IndexType)
    result_size = operand_def(IndexType)
    source_affinity = opt_prop_def(Attribute)
    target_affinity = opt_prop_def(Attribute)
    execution_affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    def __init__(
        self,
        source: SSAValue,
        source_size: SSAValue,
        result_type: Attribute,
        result_size: SSAValue,
        source_affinity: Attribute | None = None,
        target_affinity: Attribute | None = None,
        execution_affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[source, source_size, result_size],
            result_types=[result_type],
            properties=_affinity_props(
                source_affinity=source_affinity,
                target_affinity=target_affinity,
                execution_affinity=execution_affinity,
            ),
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncTransferOp:
        execution = _parse_affinity(parser)
        source, _, size = _parse_typed_operand(parser)
        source_affinity = _parse_affinity(parser, "from")
        parser.parse_punctuation("->")
        target_affinity = _parse_affinity(parser, "to")
        ty, result_size = _parse_sized_type(parser)
        op = cls(source, size, ty, result_size, source_affinity, target_affinity, execution)
        return _parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        _print_affinity(printer, self.execution_affinity)
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" : ")
        _print_sized(printer, self.source.type, self.source_size)
        _print_affinity(printer, self.source_affinity, "from")
        printer.print_string(" ->")
        _print_affinity(printer, self.target_affinity, "to")
        printer.print_string(" ")
        _print_sized(printer, self.result.type, self.result_size)
        _print_trailing_attrs(printer, self)


def _parse_range(parser: Parser, with_length: bool, opened: bool = False) -> tuple[SSAValue, ...]:
    """`[%off to %end]` or `[%off to %end for %len]` (`opened`: the `[` is already read)."""
    if not opened:
        parser.parse_punctuation("[")
    offset = parser.parse_operand(IndexType())
    parser.parse_keyword("to")
    end = parser.parse_operand(IndexType())
    parts: tuple[SSAValue, ...] = (offset, end)
    if with_length:
        parser.parse_keyword("for")
        parts = (offset, end, parser.parse_operand(IndexType()))
    parser.parse_punctuation("]")
    return parts


def _print_range(printer: Printer, *parts: SSAValue) -> None:
    printer.print_string("[")
    printer.print_operand(parts[0])
    printer.print_string(" to ")
    printer.print_operand(parts[1])
    if len(parts) > 2:
        printer.print_string(" for ")
        printer.print_operand(parts[2])
    printer.print_string("]")


def _parse_tied_result(parser: Parser) -> tuple[Attribute, SSAValue]:
    """`%target as !stream.resource<*>{%n}` (IREE's ShapedTiedResult)."""
    parser.parse_unresolved_operand()
    parser.parse_keyword("as")
    return _parse_sized_type(parser)


def _print_tied_result(printer: Printer, target: SSAValue, size: SSAValue) -> None:
    printer.print_operand(target)
    printer.print_string(" as ")
    _print_sized(printer, target.type, size)


@irdl_op_definition
class AsyncUpdateOp(IRDLOperation):
    """`%r = stream.async.update on(...) %u, %t[%a to %b] : !stream.resource<*>{%n} -> %t as !stream.resource<*>{%m}`"""

    name = "stream.async.update"

    target = operand_def(ResourceType)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    target_end = operand_def(IndexType)
    update = operand_def(ResourceType)
    update_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    def __init__(
        self,
        target: SSAValue,
        target_size: SSAValue,
        target_offset: SSAValue,
        target_end: SSAValue,
        update: SSAValue,
        update_size: SSAValue,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[target, target_size, target_offset, target_end, update, update_size],
            result_types=[target.type],
            properties=_affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncUpdateOp:
        affinity = _parse_affinity(parser)
        update = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        offset, end = _parse_range(parser, with_length=False)
        parser.parse_punctuation(":")
        update_type, update_size = _parse_sized_type(parser)
        parser.parse_punctuation("->")
        target_type, target_size = _parse_tied_result(parser)
        op = cls(
            parser.resolve_operand(target, target_type),
            target_size,
            offset,
            end,
            parser.resolve_operand(update, update_type),
            update_size,
            affinity,
        )
        return _parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        _print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.update)
        printer.print_string(", ")
        printer.print_operand(self.target)
        _print_range(printer, self.target_offset, self.target_end)
        printer.print_string(" : ")
        _print_sized(printer, self.update.type, self.update_size)
        printer.print_string(" -> ")
        _print_tied_result(printer, self.target, self.target_size)
        _print_trailing_attrs(printer, self)


@irdl_op_definition
class AsyncCopyOp(IRDLOperation):
    """`%r = stream.async.copy on(...) %s[%a to %b], %t[%c to %d], %len : !stream.resource<*>{%n} -> %t as !stream.resource<*>{%m}`"""

    name = "stream.async.copy"

    target = operand_def(ResourceType)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    target_end = operand_def(IndexType)
    source = operand_def(ResourceType)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    source_end = operand_def(IndexType)
    length = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(ResourceType)

    def __init__(
        self,
        source: SSAValue,
        source_size: SSAValue,
        source_range: tuple[SSAValue, SSAValue],
        target: SSAValue,
        target_size: SSAValue,
        target_range: tuple[SSAValue, SSAValue],
        length: SSAValue,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[
                target,
                target_size,
                *target_range,
                source,
                source_size,
                *source_range,
                length,
            ],
            result_types=[target.type],
            properties=_affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncCopyOp:
        affinity = _parse_affinity(parser)
        source = parser.parse_unresolved_operand()
        source_range = _parse_range(parser, with_length=False)
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        target_range = _parse_range(parser, with_length=False)
        parser.parse_punctuation(",")
        length = parser.parse_operand(IndexType())
        parser.parse_punctuation(":")
        source_type, source_size = _parse_sized_type(parser)
        parser.parse_punctuation("->")
        target_type, target_size = _parse_tied_result(parser)
        op = cls(
            parser.resolve_operand(source, source_type),
            source_size,
            source_range,
            parser.resolve_operand(target, target_type),
            target_size,
            target_range,
            length,
            affinity,
        )
        return _parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        _print_affinity(printer, self.affinity)
        printer.print_string(" ")
        printer.print_operand(self.source)
        _print_range(printer, self.source_offset, self.source_end)
        printer.print_string(", ")
        printer.print_operand(self.target)
        _print_range(printer, self.target_offset, self.target_end)
        printer.print_string(", ")
        printer.print_operand(self.length)
        printer.print_string(" : ")
        _print_sized(printer, self.source.type, self.source_size)
        printer.print_string(" -> ")
        _print_tied_result(printer, self.target, self.target_size)
        _print_trailing_attrs(printer, self)


@irdl_op_definition
class AsyncDispatchOp(IRDLOperation):
    """`%r = stream.async.dispatch on(...) @exe::@fn(%a[%c0 to %n for %n], %i) : (!stream.resource<*>{%n}, index) -> !stream.resource<*>{%m}`

    Each resource operand carries the byte range the dispatch reads (`[offset to end for
    length]`); primitive operands (push constants) are plain values.
    """

    name = "stream.async.dispatch"

    workload = var_operand_def(IndexType)
    resource_operands = var_operand_def()
    resource_operand_sizes = var_operand_def(IndexType)
    resource_operand_offsets = var_operand_def(IndexType)
    resource_operand_ends = var_operand_def(IndexType)
    resource_operand_lengths = var_operand_def(IndexType)
    result_sizes = var_operand_def(IndexType)
    entry_points = prop_def(ArrayAttr[SymbolRefAttr])
    affinity = opt_prop_def(Attribute)
    outputs = var_result_def(ResourceType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        entry_point: SymbolRefAttr,
        operands: Sequence[SSAValue],
        operand_sizes: Sequence[SSAValue],
        operand_ranges: Sequence[tuple[SSAValue, SSAValue, SSAValue]],
        result_types: Sequence[Attribute],
        result_sizes: Sequence[SSAValue],
        affinity: Attribute | None = None,
        workload: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[
                list(workload),
                list(operands),
                list(operand_sizes),
                [r[0] for r in operand_ranges],
                [r[1] for r in operand_ranges],
                [r[2] for r in operand_ranges],
                list(result_sizes),
            ],
            result_types=[list(result_types)],
            properties={
                "entry_points": ArrayAttr([entry_point]),
                **_affinity_props(affinity=affinity),
            },
        )

    @property
    def entry_point(self) -> SymbolRefAttr:
        return self.entry_points.data[0]

    def resource_ranges(self) -> list[tuple[SSAValue, SSAValue, SSAValue, SSAValue, SSAValue]]:
        """(resource, size, offset, end, length) for each resource operand, in order."""
        resources = [v for v in self.resource_operands if _is_resource(v.type)]
        return list(
            zip(
                resources,
                self.resource_operand_sizes,
                self.resource_operand_offsets,
                self.resource_operand_ends,
                self.resource_operand_lengths,
                strict=True,
            )
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncDispatchOp:
        affinity = _parse_affinity(parser)
        entry_points = parse_entry_points(parser)
        workload = parse_optional_workload(parser)

        def parse_operand() -> tuple[object, tuple[SSAValue, ...] | None]:
            value = parser.parse_unresolved_operand()
            if parser.parse_optional_punctuation("[") is None:
                return value, None
            return value, _parse_range(parser, with_length=True, opened=True)

        parsed = _parse_operand_list(parser, parse_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = _parse_operand_list(parser, lambda: _parse_maybe_sized_type(parser))
        parser.parse_punctuation("->")
        if parser.parse_optional_punctuation("("):
            results = []
            if parser.parse_optional_punctuation(")") is None:
                results = parser.parse_comma_separated_list(
                    Parser.Delimiter.NONE, lambda: _parse_sized_type(parser)
                )
                parser.parse_punctuation(")")
        else:
            results = [_parse_sized_type(parser)]
        if len(parsed) != len(types):
            parser.raise_error("operand and type counts differ")
        operands = [
            parser.resolve_operand(u, t[0]) for (u, _), t in zip(parsed, types, strict=False)
        ]
        op = cls(
            entry_points.data[0],
            operands,
            [t[1] for t in types if t[1] is not None],
            [r for _, r in parsed if r is not None],
            [t for t, _ in results],
            [s for _, s in results],
            affinity,
            workload,
        )
        op.properties["entry_points"] = entry_points
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        _print_affinity(printer, self.affinity)
        print_entry_points(printer, self.entry_points)
        print_workload(printer, self.workload)
        ranges = iter(
            zip(
                self.resource_operand_offsets,
                self.resource_operand_ends,
                self.resource_operand_lengths,
                strict=False,
            )
        )
        printer.print_string("(")
        for i, value in enumerate(self.resource_operands):
            if i:
                printer.print_string(", ")
            printer.print_operand(value)
            if _is_resource(value.type):
                _print_range(printer, *next(ranges))
        printer.print_string(")")
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" : (")
        sizes = iter(self.resource_operand_sizes)
        for i, value in enumerate(self.resource_operands):
            if i:
                printer.print_string(", ")
            if _is_resource(value.type):
                _print_sized(printer, value.type, next(sizes))
            else:
                printer.print_attribute(value.type)
        printer.print_string(") -> ")
        many = len(self.outputs) != 1
        if many:
            printer.print_string("(")
        for i, (result, size) in enumerate(zip(self.outputs, self.result_sizes, strict=False)):
            if i:
                printer.print_string(", ")
            _print_sized(printer, result.type, size)
        if many:
            printer.print_string(")")


def _parse_maybe_sized_type(parser: Parser) -> tuple[Attribute, SSAValue | None]:
    ty = parser.parse_type()
    if not _is_resource(ty):
        return ty, None
    return ty, _parse_size(parser)


# ---- async execution regions ------------------------------------------------------------------


def _parse_resource_captures(parser: Parser) -> tuple[list, list, list]:
    """`with(%x as %arg0: type{%n}, ...)`: captured operands, their sizes, block arguments."""
    parser.parse_keyword("with")
    captures = _parse_operand_list(parser, lambda: _parse_capture(parser))
    operands = [c[0] for c in captures]
    sizes = [c[1] for c in captures]
    args = [c[2] for c in captures]
    return operands, sizes, args


def _parse_capture(parser: Parser):
    unresolved = parser.parse_unresolved_operand()
    parser.parse_keyword("as")
    arg = parser.parse_argument(expect_type=True)
    size = _parse_size(parser)
    return parser.resolve_operand(unresolved, arg.type), size, arg


def _print_resource_captures(
    printer: Printer, operands: Sequence[SSAValue], sizes: Sequence[SSAValue], block: Block
) -> None:
    printer.print_string(" with(")
    for i, (value, size, arg) in enumerate(zip(operands, sizes, block.args, strict=True)):
        if i:
            printer.print_string(", ")
        printer.print_operand(value)
        printer.print_string(" as ")
        printer.print_block_argument(arg)
        printer.print_string("{")
        printer.print_operand(size)
        printer.print_string("}")
    printer.print_string(")")


def _parse_region_results(parser: Parser) -> tuple[list[Attribute], list[SSAValue]]:
    """`-> type{%n}` or `-> (type{%n}, ...)`, optional."""
    if parser.parse_optional_punctuation("->") is None:
        return [], []
    if parser.parse_optional_punctuation("("):
        pairs = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, lambda: _parse_sized_type(parser)
        )
        parser.parse_punctuation(")")
    else:
        pairs = [_parse_sized_type(parser)]
    return [t for t, _ in pairs], [s for _, s in pairs]


def _print_region_results(
    printer: Printer, types: Sequence[Attribute], sizes: Sequence[SSAValue]
) -> None:
    if not types:
        return
    printer.print_string(" -> ")
    if len(types) > 1:
        printer.print_string("(")
    for i, (ty, size) in enumerate(zip(types, sizes, strict=True)):
        if i:
            printer.print_string(", ")
        _print_sized(printer, ty, size)
    if len(types) > 1:
        printer.print_string(")")


@irdl_op_definition
class YieldOp(IRDLOperation):
    """`stream.yield %a, %b : !stream.resource<external>{%n}, ...` ends async regions."""

    name = "stream.yield"

    resource_operands = var_operand_def()
    resource_operand_sizes = var_operand_def(IndexType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(IsTerminator(), Pure())

    def __init__(self, values: Sequence[SSAValue] = (), sizes: Sequence[SSAValue] = ()):
        super().__init__(operands=[list(values), list(sizes)])

    @classmethod
    def parse(cls, parser: Parser) -> YieldOp:
        attrs = parser.parse_optional_attr_dict()
        unresolved = []
        first = parser.parse_optional_unresolved_operand()
        if first is not None:
            unresolved = [first]
            while parser.parse_optional_punctuation(","):
                unresolved.append(parser.parse_unresolved_operand())
        types: list[tuple[Attribute, SSAValue]] = []
        if unresolved:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE, lambda: _parse_sized_type(parser)
            )
        values = [
            parser.resolve_operand(u, t) for u, (t, _) in zip(unresolved, types, strict=False)
        ]
        op = cls(values, [s for _, s in types])
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        if not self.resource_operands:
            return
        printer.print_string(" ")
        printer.print_list(self.resource_operands, printer.print_operand)
        printer.print_string(" : ")
        for i, (value, size) in enumerate(
            zip(self.resource_operands, self.resource_operand_sizes, strict=False)
        ):
            if i:
                printer.print_string(", ")
            _print_sized(printer, value.type, size)


@irdl_op_definition
class AsyncExecuteOp(IRDLOperation):
    """`%res, %tp = stream.async.execute on(...) await(%w) => with(%x as %arg0: type{%n}) -> type{%m} {...} => !stream.timepoint`

    One unit of work submitted to a device queue; its results are ready when `%tp` is.
    """

    name = "stream.async.execute"

    resource_operands = var_operand_def()
    resource_operand_sizes = var_operand_def(IndexType)
    result_sizes = var_operand_def(IndexType)
    await_timepoint = opt_operand_def(TimepointType)
    affinity = opt_prop_def(Attribute)
    outputs = var_result_def()
    result_timepoint = result_def(TimepointType)
    body = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        operands: Sequence[SSAValue],
        operand_sizes: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        result_sizes: Sequence[SSAValue],
        body: Region,
        affinity: Attribute | None = None,
        await_timepoint: SSAValue | None = None,
    ):
        super().__init__(
            operands=[
                list(operands),
                list(operand_sizes),
                list(result_sizes),
                [await_timepoint] if await_timepoint else [],
            ],
            result_types=[list(result_types), TimepointType()],
            regions=[body],
            properties=_affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncExecuteOp:
        affinity = _parse_affinity(parser)
        timepoint = _parse_optional_await(parser)
        operands, sizes, args = _parse_resource_captures(parser)
        result_types, result_sizes = _parse_region_results(parser)
        body = parser.parse_region(args)
        _parse_arrow(parser)
        parser.parse_type()
        op = cls(operands, sizes, result_types, result_sizes, body, affinity, timepoint)
        return _parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        _print_affinity(printer, self.affinity)
        _print_await(printer, self.await_timepoint)
        _print_resource_captures(
            printer, self.resource_operands, self.resource_operand_sizes, self.body.block
        )
        _print_region_results(printer, self.outputs.types, self.result_sizes)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        printer.print_string(" => !stream.timepoint")
        _print_trailing_attrs(printer, self)


@irdl_op_definition
class AsyncConcurrentOp(IRDLOperation):
    """`%r:2 = stream.async.concurrent with(%x as %arg0: type{%n}) -> (type{%m}, ...) {...}`

    Work inside may run in any order or at the same time (ScheduleConcurrencyPass).
    """

    name = "stream.async.concurrent"

    resource_operands = var_operand_def()
    resource_operand_sizes = var_operand_def(IndexType)
    result_sizes = var_operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    outputs = var_result_def()
    body = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        operands: Sequence[SSAValue],
        operand_sizes: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        result_sizes: Sequence[SSAValue],
        body: Region,
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[list(operands), list(operand_sizes), list(result_sizes)],
            result_types=[list(result_types)],
            regions=[body],
            properties=_affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncConcurrentOp:
        affinity = _parse_affinity(parser)
        operands, sizes, args = _parse_resource_captures(parser)
        result_types, result_sizes = _parse_region_results(parser)
        body = parser.parse_region(args)
        op = cls(operands, sizes, result_types, result_sizes, body, affinity)
        return _parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        _print_affinity(printer, self.affinity)
        _print_resource_captures(
            printer, self.resource_operands, self.resource_operand_sizes, self.body.block
        )
        _print_region_results(printer, self.outputs.types, self.result_sizes)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        _print_trailing_attrs(printer, self)


# ---- cmd ops: explicit commands on allocated resources ----------------------------------------


@irdl_op_definition
class CmdExecuteOp(IRDLOperation):
    """`%tp = stream.cmd.execute on(...) await(%w) => with(%x as %arg0: type{%n}) {...} => !stream.timepoint`

    A command buffer: its body records dispatches, fills and copies on the captured resources.
    """

    name = "stream.cmd.execute"

    resource_operands = var_operand_def()
    resource_operand_sizes = var_operand_def(IndexType)
    await_timepoint = opt_operand_def(TimepointType)
    once = opt_prop_def(UnitAttr)
    affinity = opt_prop_def(Attribute)
    result_timepoint = result_def(TimepointType)
    body = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(NoTerminator())

    def __init__(
        self,
        operands: Sequence[SSAValue],
        operand_sizes: Sequence[SSAValue],
        body: Region,
        affinity: Attribute | None = None,
        await_timepoint: SSAValue | None = None,
    ):
        super().__init__(
            operands=[
                list(operands),
                list(operand_sizes),
                [await_timepoint] if await_timepoint else [],
            ],
            result_types=[TimepointType()],
            regions=[body],
            properties=_affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser) -> CmdExecuteOp:
        once = parser.parse_optional_keyword("once") is not None
        affinity = _parse_affinity(parser)
        timepoint = _parse_optional_await(parser)
        operands, sizes, args = _parse_resource_captures(parser)
        body = parser.parse_region(args)
        _parse_arrow(parser)
        parser.parse_type()
        op = cls(operands, sizes, body, affinity, timepoint)
        if once:
            op.properties["once"] = UnitAttr()
        return _parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        if self.once is not None:
            printer.print_string(" once")
        _print_affinity(printer, self.affinity)
        _print_await(printer, self.await_timepoint)
        _print_resource_captures(
            printer, self.resource_operands, self.resource_operand_sizes, self.body.block
        )
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        printer.print_string(" => !stream.timepoint")
        _print_trailing_attrs(printer, self)


class _CmdBlockOp(IRDLOperation):
    """`stream.cmd.serial {...}` / `stream.cmd.concurrent {...}`: a nested command scope."""

    body = region_def("single_block")

    traits = traits_def(NoTerminator())

    def __init__(self, body: Region | None = None):
        super().__init__(regions=[body if body is not None else Region(Block())])

    @classmethod
    def parse(cls, parser: Parser):
        body = parser.parse_region()
        if not body.blocks:
            body.add_block(Block())
        return _parse_trailing_attrs(parser, cls(body))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_region(self.body)
        _print_trailing_attrs(printer, self)


@irdl_op_definition
class CmdSerialOp(_CmdBlockOp):
    """Commands inside run one after another."""

    name = "stream.cmd.serial"


@irdl_op_definition
class CmdConcurrentOp(_CmdBlockOp):
    """Commands inside may run at the same time (no barrier between them)."""

    name = "stream.cmd.concurrent"


@irdl_op_definition
class CmdDispatchOp(IRDLOperation):
    """`stream.cmd.dispatch @exe::@fn(%u : i32) { ro %arg0[%c0 for %n] : !stream.resource<external>{%n}, wo ... }`"""

    name = "stream.cmd.dispatch"

    workload = var_operand_def(IndexType)
    uniform_operands = var_operand_def()
    resources = var_operand_def(ResourceType)
    resource_sizes = var_operand_def(IndexType)
    resource_offsets = var_operand_def(IndexType)
    resource_lengths = var_operand_def(IndexType)
    entry_points = prop_def(ArrayAttr[SymbolRefAttr])
    resource_accesses = prop_def(ArrayAttr[StringAttr])

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        entry_point: SymbolRefAttr,
        uniform_operands: Sequence[SSAValue],
        bindings: Sequence[tuple[Access | str, SSAValue, SSAValue, SSAValue, SSAValue]],
        workload: Sequence[SSAValue] = (),
    ):
        """`bindings`: (access, resource, resource size, offset, length) per binding."""
        super().__init__(
            operands=[
                list(workload),
                list(uniform_operands),
                [b[1] for b in bindings],
                [b[2] for b in bindings],
                [b[3] for b in bindings],
                [b[4] for b in bindings],
            ],
            properties={
                "entry_points": ArrayAttr([entry_point]),
                "resource_accesses": ArrayAttr([StringAttr(str(Access(b[0]))) for b in bindings]),
            },
        )

    @property
    def entry_point(self) -> SymbolRefAttr:
        return self.entry_points.data[0]

    def bindings(self) -> list[tuple[Access, SSAValue, SSAValue, SSAValue, SSAValue]]:
        return [
            (Access(a.data), r, s, o, n)
            for a, r, s, o, n in zip(
                self.resource_accesses.data,
                self.resources,
                self.resource_sizes,
                self.resource_offsets,
                self.resource_lengths,
                strict=True,
            )
        ]

    @classmethod
    def parse(cls, parser: Parser) -> CmdDispatchOp:
        entry_points = parse_entry_points(parser)
        workload = parse_optional_workload(parser)
        uniform: list[SSAValue] = []
        if parser.parse_optional_punctuation("("):
            names = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation(")")
            uniform = parser.resolve_operands(names, types, parser.pos)
        parser.parse_punctuation("{")
        bindings = []
        if parser.parse_optional_punctuation("}") is None:
            bindings = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE, lambda: _parse_binding(parser)
            )
            parser.parse_punctuation("}")
        op = cls(entry_points.data[0], uniform, bindings, workload)
        op.properties["entry_points"] = entry_points
        return _parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        print_entry_points(printer, self.entry_points)
        print_workload(printer, self.workload)
        if self.uniform_operands:
            printer.print_string("(")
            printer.print_list(self.uniform_operands, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list([v.type for v in self.uniform_operands], printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" {")
        with printer.indented():
            for i, (access, resource, size, offset, length) in enumerate(self.bindings()):
                printer.print_string(",\n" if i else "\n")
                printer.print_string(f"{access} ")
                printer.print_operand(resource)
                printer.print_string("[")
                printer.print_operand(offset)
                printer.print_string(" for ")
                printer.print_operand(length)
                printer.print_string("] : ")
                _print_sized(printer, resource.type, size)
        printer.print_string("\n}")
        _print_trailing_attrs(printer, self)


def _parse_binding(parser: Parser):
    access = parser.parse_identifier()
    if access not in Access.__members__.values():
        parser.raise_error(f"expected ro, wo or rw, got '{access}'")
    resource = parser.parse_unresolved_operand()
    parser.parse_punctuation("[")
    offset = parser.parse_operand(IndexType())
    parser.parse_keyword("for")
    length = parser.parse_operand(IndexType())
    parser.parse_punctuation("]")
    parser.parse_punctuation(":")
    ty, size = _parse_sized_type(parser)
    return access, parser.resolve_operand(resource, ty), size, offset, length


@irdl_op_definition
class CmdFillOp(IRDLOperation):
    """`stream.cmd.fill %v, %t[%off for %len] : i32 -> !stream.resource<transient>{%n}`"""

    name = "stream.cmd.fill"

    target = operand_def(ResourceType)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    target_length = operand_def(IndexType)
    value = operand_def()

    def __init__(
        self,
        value: SSAValue,
        target: SSAValue,
        target_size: SSAValue,
        target_offset: SSAValue,
        target_length: SSAValue,
    ):
        super().__init__(operands=[target, target_size, target_offset, target_length, value])

    @classmethod
    def parse(cls, parser: Parser) -> CmdFillOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        offset = parser.parse_operand(IndexType())
        parser.parse_keyword("for")
        length = parser.parse_operand(IndexType())
        parser.parse_punctuation("]")
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation("->")
        ty, size = _parse_sized_type(parser)
        op = cls(
            parser.resolve_operand(value, value_type),
            parser.resolve_operand(target, ty),
            size,
            offset,
            length,
        )
        return _parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        printer.print_operand(self.target)
        printer.print_string("[")
        printer.print_operand(self.target_offset)
        printer.print_string(" for ")
        printer.print_operand(self.target_length)
        printer.print_string("] : ")
        printer.print_attribute(self.value.type)
        printer.print_string(" -> ")
        _print_sized(printer, self.target.type, self.target_size)
        _print_trailing_attrs(printer, self)


@irdl_op_definition
class CmdCopyOp(IRDLOperation):
    """`stream.cmd.copy %s[%a], %t[%b], %len : !stream.resource<*>{%n} -> !stream.resource<*>{%m}`"""

    name = "stream.cmd.copy"

    source = operand_def(ResourceType)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    target = operand_def(ResourceType)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    length = operand_def(IndexType)

    def __init__(
        self,
        source: SSAValue,
        source_size: SSAValue,
        source_offset: SSAValue,
        target: SSAValue,
        target_size: SSAValue,
        target_offset: SSAValue,
        length: SSAValue,
    ):
        super().__init__(
            operands=[
                source,
                source_size,
                source_offset,
                target,
                target_size,
                target_offset,
                length,
            ]
        )

    @classmethod
    def parse(cls, parser: Parser) -> CmdCopyOp:
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        source_offset = parser.parse_operand(IndexType())
        parser.parse_punctuation("]")
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        target_offset = parser.parse_operand(IndexType())
        parser.parse_punctuation("]")
        parser.parse_punctuation(",")
        length = parser.parse_operand(IndexType())
        parser.parse_punctuation(":")
        source_type, source_size = _parse_sized_type(parser)
        parser.parse_punctuation("->")
        target_type, target_size = _parse_sized_type(parser)
        op = cls(
            parser.resolve_operand(source, source_type),
            source_size,
            source_offset,
            parser.resolve_operand(target, target_type),
            target_size,
            target_offset,
            length,
        )
        return _parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string("[")
        printer.print_operand(self.source_offset)
        printer.print_string("], ")
        printer.print_operand(self.target)
        printer.print_string("[")
        printer.print_operand(self.target_offset)
        printer.print_string("], ")
        printer.print_operand(self.length)
        printer.print_string(" : ")
        _print_sized(printer, self.source.type, self.source_size)
        printer.print_string(" -> ")
        _print_sized(printer, self.target.type, self.target_size)
        _print_trailing_attrs(printer, self)


# ---- timepoints --------------------------------------------------------------------------------


@irdl_op_definition
class TimepointImmediateOp(IRDLOperation):
    """`%t = stream.timepoint.immediate => !stream.timepoint`: already reached."""

    name = "stream.timepoint.immediate"

    result_timepoint = result_def(TimepointType)

    traits = traits_def(Pure())

    assembly_format = "attr-dict `=` `` `>` type($result_timepoint)"

    def __init__(self):
        super().__init__(result_types=[TimepointType()])


@irdl_op_definition
class TimepointJoinOp(IRDLOperation):
    """`%t = stream.timepoint.join max(%a, %b) => !stream.timepoint`: reached when all are."""

    name = "stream.timepoint.join"

    await_timepoints = var_operand_def(TimepointType)
    result_timepoint = result_def(TimepointType)

    traits = traits_def(Pure())

    assembly_format = "`max` `(` $await_timepoints `)` `=` `` `>` type($result_timepoint) attr-dict"

    def __init__(self, timepoints: Sequence[SSAValue]):
        super().__init__(operands=[list(timepoints)], result_types=[TimepointType()])


@irdl_op_definition
class TimepointAwaitOp(IRDLOperation):
    """`%r:2 = stream.timepoint.await %t => %a, %b : !stream.resource<external>{%n}, ...`

    Makes resources usable on the host once the timepoint is reached (the host waits).
    """

    name = "stream.timepoint.await"

    resource_operands = var_operand_def()
    resource_operand_sizes = var_operand_def(IndexType)
    await_timepoint = operand_def(TimepointType)
    sync = opt_prop_def(UnitAttr)
    outputs = var_result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        timepoint: SSAValue,
        operands: Sequence[SSAValue],
        sizes: Sequence[SSAValue],
    ):
        super().__init__(
            operands=[list(operands), list(sizes), timepoint],
            result_types=[[v.type for v in operands]],
        )

    @classmethod
    def parse(cls, parser: Parser) -> TimepointAwaitOp:
        sync = parser.parse_optional_keyword("sync") is not None
        timepoint = parser.parse_operand(TimepointType())
        _parse_arrow(parser)
        names = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, lambda: _parse_sized_type(parser)
        )
        operands = parser.resolve_operands(names, [t for t, _ in types], parser.pos)
        op = cls(timepoint, operands, [s for _, s in types])
        if sync:
            op.properties["sync"] = UnitAttr()
        return _parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        if self.sync is not None:
            printer.print_string(" sync")
        printer.print_string(" ")
        printer.print_operand(self.await_timepoint)
        printer.print_string(" => ")
        printer.print_list(self.resource_operands, printer.print_operand)
        printer.print_string(" : ")
        for i, (value, size) in enumerate(
            zip(self.resource_operands, self.resource_operand_sizes, strict=False)
        ):
            if i:
                printer.print_string(", ")
            _print_sized(printer, value.type, size)
        _print_trailing_attrs(printer, self)


Stream = Dialect(
    "stream",
    [
        ExecutableOp,
        ExecutableExportOp,
        ReturnOp,
        BindingSubspanOp,
        ResourceAllocaOp,
        ResourceDeallocaOp,
        ResourceSizeOp,
        ResourceSubviewOp,
        TensorImportOp,
        TensorExportOp,
        TensorSizeOfOp,
        TensorCloneOp,
        TensorSplatOp,
        TensorDispatchOp,
        AsyncAllocaOp,
        AsyncSplatOp,
        AsyncCloneOp,
        AsyncCastOp,
        AsyncTransferOp,
        AsyncUpdateOp,
        AsyncCopyOp,
        AsyncDispatchOp,
        AsyncExecuteOp,
        AsyncConcurrentOp,
        YieldOp,
        CmdExecuteOp,
        CmdSerialOp,
        CmdConcurrentOp,
        CmdDispatchOp,
        CmdFillOp,
        CmdCopyOp,
        TimepointImmediateOp,
        TimepointJoinOp,
        TimepointAwaitOp,
    ],
    [ResourceType, TimepointType, BindingType],
)
