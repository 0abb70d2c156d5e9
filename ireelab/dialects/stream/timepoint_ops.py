"""Timepoint ops: `stream.timepoint.{immediate,join,await,import,barrier,chain_external}`.

Mirrors IREE's timepoint ops (`Dialect/Stream/IR/StreamOps.td`): `!stream.timepoint` values
order asynchronous work; host code waits on them with `stream.timepoint.await`, and the HAL
stage turns them into fences. IREE's asynchronous ABI brings fences from outside in
(`stream.timepoint.import`) and signals them when results are ready (`stream.timepoint.barrier`
names the timepoint a resource is ready at, `stream.timepoint.chain_external` signals a fence
when a timepoint is reached).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import IndexType, UnitAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from ireelab.dialects.stream.syntax import (
    affinity_props,
    parse_arrow,
    parse_sized_type,
    parse_trailing_attrs,
    print_sized,
    print_trailing_attrs,
)
from ireelab.dialects.stream.types import TimepointType


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
        parse_arrow(parser)
        names = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, lambda: parse_sized_type(parser)
        )
        operands = parser.resolve_operands(names, [t for t, _ in types], parser.pos)
        op = cls(timepoint, operands, [s for _, s in types])
        if sync:
            op.properties["sync"] = UnitAttr()
        return parse_trailing_attrs(parser, op)

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
            print_sized(printer, value.type, size)
        print_trailing_attrs(printer, self)


@irdl_op_definition
class TimepointImportOp(IRDLOperation):
    """`%t = stream.timepoint.import on(#aff) %fence : (!hal.fence) => !stream.timepoint`:
    the timepoint at which an external fence is signalled."""

    name = "stream.timepoint.import"

    operands_ = var_operand_def()
    affinity = opt_prop_def(Attribute)
    result_timepoint = result_def(TimepointType)

    traits = traits_def(Pure())

    assembly_format = (
        "(`on` `(` $affinity^ `)`)? $operands_ `:` `(` type($operands_) `)` "
        "`=` `` `>` type($result_timepoint) attr-dict-with-keyword"
    )

    def __init__(self, fence: SSAValue, affinity: Attribute | None = None):
        super().__init__(
            operands=[[fence]],
            result_types=[TimepointType()],
            properties=affinity_props(affinity=affinity),
        )


@irdl_op_definition
class TimepointBarrierOp(IRDLOperation):
    """`%r, %t = stream.timepoint.barrier on(#aff) %res : !stream.resource<*>{%n} => !stream.timepoint`:
    the resource (unchanged) and the timepoint at which it is ready."""

    name = "stream.timepoint.barrier"

    T: ClassVar = VarConstraint("T", AnyAttr())
    resource = operand_def(T)
    resource_size = operand_def(IndexType)
    affinity = opt_prop_def(Attribute)
    result = result_def(T)
    result_timepoint = result_def(TimepointType)

    assembly_format = (
        "(`on` `(` $affinity^ `)`)? $resource `:` type($resource) `` `{` $resource_size `}` "
        "`=` `` `>` type($result_timepoint) attr-dict-with-keyword"
    )

    def __init__(self, resource: SSAValue, size: SSAValue, affinity: Attribute | None = None):
        super().__init__(
            operands=[resource, size],
            result_types=[resource.type, TimepointType()],
            properties=affinity_props(affinity=affinity),
        )


@irdl_op_definition
class TimepointChainExternalOp(IRDLOperation):
    """`stream.timepoint.chain_external on(#aff) %t => (%fence : !hal.fence)`: signal the
    external fences once `%t` is reached."""

    name = "stream.timepoint.chain_external"

    await_timepoint = operand_def(TimepointType)
    external_values = var_operand_def()
    affinity = opt_prop_def(Attribute)

    assembly_format = (
        "(`on` `(` $affinity^ `)`)? $await_timepoint `=` `` `>` "
        "`(` $external_values `:` type($external_values) `)` attr-dict-with-keyword"
    )

    def __init__(
        self,
        timepoint: SSAValue,
        external: Sequence[SSAValue],
        affinity: Attribute | None = None,
    ):
        super().__init__(
            operands=[timepoint, list(external)], properties=affinity_props(affinity=affinity)
        )
