"""The ABI boundary of stage A: `hal.tensor.import`, `hal.tensor.export`, `hal.tensor.barrier`.

Mirrors IREE's `hal.tensor.*` ops (`Dialect/HAL/IR/HALOps.td`), which `WrapEntryPointsPass`
places between a public function's `!hal.buffer_view` arguments/results and the tensors its
body computes on. IREE's asynchronous ABI (torch's default `$async` entry points) adds the
fences: an import waits on one (`wait(%fence) =>`), and a barrier signals one when the results
are ready.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import IndexType, StringAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    RangeOf,
    RangeVarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from ireelab.dialects.flow_directives import parse_shaped_type, print_shaped_type
from ireelab.dialects.hal.types import FenceType


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
    fit the declarative format."""

    name = "hal.tensor.import"

    source = operand_def()
    target_dims = var_operand_def(IndexType)
    """The target's `?` sizes, read from the view (`hal.buffer_view.dim`)."""
    wait_fence = opt_operand_def(FenceType)
    target = result_def(TensorType)
    name_ = opt_prop_def(StringAttr, prop_name="name")
    affinity = opt_prop_def(Attribute)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        source: SSAValue | Operation,
        target_type: Attribute,
        name: str | None = None,
        affinity: Attribute | None = None,
        wait_fence: SSAValue | Operation | None = None,
        target_dims: Sequence[SSAValue | Operation] = (),
    ):
        super().__init__(
            operands=[source, list(target_dims), [wait_fence] if wait_fence is not None else []],
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
            # MLIR lexes `=>` as `=` then `>` (IREE's format spells it `=` `` `>`).
            parser.parse_punctuation("=")
            parser.parse_punctuation(">")
        source = parser.parse_unresolved_operand()
        name = parser.parse_optional_str_literal()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation("->")
        target_type, dims = parse_shaped_type(parser)
        op = cls(
            parser.resolve_operand(source, source_type),
            target_type,
            name,
            affinity,
            parser.resolve_operand(fence, FenceType()) if fence is not None else None,
            dims,
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
        print_shaped_type(printer, self.target.type, self.target_dims)


@irdl_op_definition
class TensorExportOp(IRDLOperation):
    """`%1 = hal.tensor.export [on(#aff)] %tensor "name" : tensor<...> -> !hal.buffer_view`."""

    name = "hal.tensor.export"

    source = operand_def(TensorType)
    source_dims = var_operand_def(IndexType)
    """The source's `?` sizes, which the exported view's shape records."""
    target = result_def()
    name_ = opt_prop_def(StringAttr, prop_name="name")
    affinity = opt_prop_def(Attribute)

    def __init__(
        self,
        source: SSAValue | Operation,
        target_type: Attribute,
        name: str | None = None,
        affinity: Attribute | None = None,
        source_dims: Sequence[SSAValue | Operation] = (),
    ):
        super().__init__(
            operands=[source, list(source_dims)],
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
        source_type, dims = parse_shaped_type(parser)
        parser.parse_punctuation("->")
        target_type = parser.parse_type()
        op = cls(parser.resolve_operand(source, source_type), target_type, name, affinity, dims)
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
        print_shaped_type(printer, self.source.type, self.source_dims)
        printer.print_string(" -> ")
        printer.print_attribute(self.target.type)


@irdl_op_definition
class TensorBarrierOp(IRDLOperation):
    """`%r:n = hal.tensor.barrier join(%t0, ... : types) => %fence : !hal.fence`: signals
    `%fence` once every source tensor is ready, and returns the sources for chaining."""

    name = "hal.tensor.barrier"

    T: ClassVar = RangeVarConstraint("T", RangeOf(base(TensorType)))
    sources = var_operand_def(T)
    signal_fence = operand_def(FenceType)
    results_ = var_result_def(T)

    assembly_format = (
        "`join` `` `(` $sources `:` type($sources) `)` `=` `` `>` "
        "$signal_fence `:` type($signal_fence) attr-dict-with-keyword"
    )

    def __init__(self, sources: Sequence[SSAValue | Operation], signal_fence: SSAValue | Operation):
        values = [SSAValue.get(s) for s in sources]
        super().__init__(operands=[values, signal_fence], result_types=[[v.type for v in values]])
