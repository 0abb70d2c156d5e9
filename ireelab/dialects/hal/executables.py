"""Executables (stages E and F): `hal.executable` > `hal.executable.variant` >
`hal.executable.export`, and `hal.executable.binary` once serialised.

Mirrors IREE's executable ops in `Dialect/HAL/IR/HALOps.td`: `MaterializeInterfacesPass`
creates them from `stream.executable`s, codegen fills the variant's inner module and each
export's workgroup count region (ended by `hal.return`), and `SerializeAllExecutablesPass`
replaces the variant by a binary.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    VectorType,
    i8,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    ReturnLike,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException

from ireelab.dialects.hal.attributes import ExecutableTargetAttr, PipelineLayoutAttr
from ireelab.dialects.hal.memoize_ops import DeviceMemoizeOp
from ireelab.dialects.hal.syntax import parse_stripped_or_full
from ireelab.dialects.hal.types import DeviceType


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
            target = parse_stripped_or_full(parser, ExecutableTargetAttr)
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
            layout = parse_stripped_or_full(parser, PipelineLayoutAttr)
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
        # The bytes are the i8 elements' storage as they are (two's complement, one byte
        # each): packing them as a list of ints checked every element (about 20 us a byte,
        # a second per 50 KB of kernel source).
        elements = DenseIntOrFPElementsAttr(VectorType(i8, [len(data)]), BytesAttr(bytes(data)))
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "sym_visibility": StringAttr("public"),
                "format": StringAttr(format),
                "data": elements,
                "mime_type": StringAttr(mime_type) if mime_type is not None else None,
            }
        )

    @property
    def bytes(self) -> bytes:
        return self.data.data.data

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
    """`hal.return %x, %y, %z : index, index, index`: ends a workgroup-count region (or a
    `hal.device.memoize` region, returning what it memoizes)."""

    name = "hal.return"

    operands_ = var_operand_def()

    traits = traits_def(
        IsTerminator(), ReturnLike(), HasParent(ExecutableExportOp, DeviceMemoizeOp)
    )

    assembly_format = "attr-dict ($operands_^ `:` type($operands_))?"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])
