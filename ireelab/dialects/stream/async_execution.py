"""Async execution regions: `stream.async.execute`, `stream.async.concurrent`, `stream.yield`.

Mirrors IREE's execution-region ops (`Dialect/Stream/IR/StreamOps.td`):
`ScheduleExecutionPass` partitions work into `stream.async.execute` regions that await and
produce a `!stream.timepoint`, and `ScheduleConcurrencyPass` nests `stream.async.concurrent`
regions for work that may overlap.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IndexType
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    opt_operand_def,
    opt_prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, Pure

from ireelab.dialects.stream.syntax import (
    affinity_props,
    parse_affinity,
    parse_arrow,
    parse_optional_await,
    parse_region_results,
    parse_resource_captures,
    parse_sized_type,
    parse_trailing_attrs,
    print_affinity,
    print_await,
    print_region_results,
    print_resource_captures,
    print_sized,
    print_trailing_attrs,
)
from ireelab.dialects.stream.types import TimepointType


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
                Parser.Delimiter.NONE, lambda: parse_sized_type(parser)
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
            print_sized(printer, value.type, size)


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
            properties=affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncExecuteOp:
        affinity = parse_affinity(parser)
        timepoint = parse_optional_await(parser)
        operands, sizes, args = parse_resource_captures(parser)
        result_types, result_sizes = parse_region_results(parser)
        body = parser.parse_region(args)
        parse_arrow(parser)
        parser.parse_type()
        op = cls(operands, sizes, result_types, result_sizes, body, affinity, timepoint)
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        print_await(printer, self.await_timepoint)
        print_resource_captures(
            printer, self.resource_operands, self.resource_operand_sizes, self.body.block
        )
        print_region_results(printer, self.outputs.types, self.result_sizes)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        printer.print_string(" => !stream.timepoint")
        print_trailing_attrs(printer, self)


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
            properties=affinity_props(affinity=affinity),
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncConcurrentOp:
        affinity = parse_affinity(parser)
        operands, sizes, args = parse_resource_captures(parser)
        result_types, result_sizes = parse_region_results(parser)
        body = parser.parse_region(args)
        op = cls(operands, sizes, result_types, result_sizes, body, affinity)
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        print_resource_captures(
            printer, self.resource_operands, self.resource_operand_sizes, self.body.block
        )
        print_region_results(printer, self.outputs.types, self.result_sizes)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        print_trailing_attrs(printer, self)
