"""Cmd ops: explicit commands on allocated resources, `stream.cmd.*`.

Mirrors IREE's `stream.cmd.{execute,serial,concurrent,dispatch,fill,copy}`
(`Dialect/Stream/IR/StreamOps.td`): `ScheduleAllocationPass` turns each execution region into
a `stream.cmd.execute` whose body records commands on resources captured by reference, which
`ConvertToHALPass` turns into one command buffer.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IndexType, StringAttr, SymbolRefAttr, UnitAttr
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
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
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoTerminator

from ireelab.dialects.flow_directives import (
    parse_entry_points,
    parse_optional_workload,
    print_entry_points,
    print_workload,
)
from ireelab.dialects.stream.syntax import (
    affinity_props,
    parse_affinity,
    parse_arrow,
    parse_optional_await,
    parse_resource_captures,
    parse_sized_type,
    parse_trailing_attrs,
    print_affinity,
    print_await,
    print_resource_captures,
    print_sized,
    print_trailing_attrs,
)
from ireelab.dialects.stream.types import Access, ResourceType, TimepointType


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
            properties=affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser) -> CmdExecuteOp:
        once = parser.parse_optional_keyword("once") is not None
        affinity = parse_affinity(parser)
        timepoint = parse_optional_await(parser)
        operands, sizes, args = parse_resource_captures(parser)
        body = parser.parse_region(args)
        parse_arrow(parser)
        parser.parse_type()
        op = cls(operands, sizes, body, affinity, timepoint)
        if once:
            op.properties["once"] = UnitAttr()
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        if self.once is not None:
            printer.print_string(" once")
        print_affinity(printer, self.affinity)
        print_await(printer, self.await_timepoint)
        print_resource_captures(
            printer, self.resource_operands, self.resource_operand_sizes, self.body.block
        )
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)
        printer.print_string(" => !stream.timepoint")
        print_trailing_attrs(printer, self)


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
        return parse_trailing_attrs(parser, cls(body))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_region(self.body)
        print_trailing_attrs(printer, self)


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
        return parse_trailing_attrs(parser, op)

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
                print_sized(printer, resource.type, size)
        printer.print_string("\n}")
        print_trailing_attrs(printer, self)


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
    ty, size = parse_sized_type(parser)
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
        ty, size = parse_sized_type(parser)
        op = cls(
            parser.resolve_operand(value, value_type),
            parser.resolve_operand(target, ty),
            size,
            offset,
            length,
        )
        return parse_trailing_attrs(parser, op)

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
        print_sized(printer, self.target.type, self.target_size)
        print_trailing_attrs(printer, self)


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
        source_type, source_size = parse_sized_type(parser)
        parser.parse_punctuation("->")
        target_type, target_size = parse_sized_type(parser)
        op = cls(
            parser.resolve_operand(source, source_type),
            source_size,
            source_offset,
            parser.resolve_operand(target, target_type),
            target_size,
            target_offset,
            length,
        )
        return parse_trailing_attrs(parser, op)

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
        print_sized(printer, self.source.type, self.source_size)
        printer.print_string(" -> ")
        print_sized(printer, self.target.type, self.target_size)
        print_trailing_attrs(printer, self)
