"""`stream.async.dispatch`: a dispatch on resources with byte ranges per operand.

Mirrors IREE's `stream.async.dispatch` (`Dialect/Stream/IR/StreamOps.td`), which
`EncodeHostTensorsPass` makes from `stream.tensor.dispatch`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IndexType, SymbolRefAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from ireelab.dialects.flow_directives import (
    parse_entry_points,
    parse_optional_workload,
    print_entry_points,
    print_workload,
)
from ireelab.dialects.stream.syntax import (
    affinity_props,
    is_resource,
    parse_affinity,
    parse_operand_list,
    parse_range,
    parse_size,
    parse_sized_type,
    print_affinity,
    print_range,
    print_sized,
)
from ireelab.dialects.stream.tensor_ops import tied_list, tied_props
from ireelab.dialects.stream.types import ResourceType


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
    tied_operands = opt_prop_def(ArrayAttr)
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
        tied: Sequence[int] = (),
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
                **affinity_props(affinity=affinity),
                **tied_props(tied),
            },
        )

    def tied(self) -> list[int]:
        """Per result, the index in `resource_operands` it updates in place, or -1."""
        return tied_list(self, len(self.outputs))

    @property
    def entry_point(self) -> SymbolRefAttr:
        return self.entry_points.data[0]

    def resource_ranges(self) -> list[tuple[SSAValue, SSAValue, SSAValue, SSAValue, SSAValue]]:
        """(resource, size, offset, end, length) for each resource operand, in order."""
        resources = [v for v in self.resource_operands if is_resource(v.type)]
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
        affinity = parse_affinity(parser)
        entry_points = parse_entry_points(parser)
        workload = parse_optional_workload(parser)

        def parse_operand() -> tuple[object, tuple[SSAValue, ...] | None]:
            value = parser.parse_unresolved_operand()
            if parser.parse_optional_punctuation("[") is None:
                return value, None
            return value, parse_range(parser, with_length=True, opened=True)

        parsed = parse_operand_list(parser, parse_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parse_operand_list(parser, lambda: _parse_maybe_sized_type(parser))
        parser.parse_punctuation("->")
        names = [u.operand_name for u, _ in parsed]

        def parse_result() -> tuple[Attribute, SSAValue, int]:
            tied = parser.parse_optional_unresolved_operand()
            if tied is None:
                return (*parse_sized_type(parser), -1)
            index = names.index(tied.operand_name)
            return types[index][0], parse_size(parser), index

        if parser.parse_optional_punctuation("("):
            results = []
            if parser.parse_optional_punctuation(")") is None:
                results = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parse_result)
                parser.parse_punctuation(")")
        else:
            results = [parse_result()]
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
            [t for t, _, _ in results],
            [s for _, s, _ in results],
            affinity,
            workload,
            [i for _, _, i in results],
        )
        op.properties["entry_points"] = entry_points
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
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
            if is_resource(value.type):
                print_range(printer, *next(ranges))
        printer.print_string(")")
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" : (")
        sizes = iter(self.resource_operand_sizes)
        for i, value in enumerate(self.resource_operands):
            if i:
                printer.print_string(", ")
            if is_resource(value.type):
                print_sized(printer, value.type, next(sizes))
            else:
                printer.print_attribute(value.type)
        printer.print_string(") -> ")
        many = len(self.outputs) != 1
        if many:
            printer.print_string("(")
        for i, (result, size, tied) in enumerate(
            zip(self.outputs, self.result_sizes, self.tied(), strict=False)
        ):
            if i:
                printer.print_string(", ")
            if tied < 0:
                print_sized(printer, result.type, size)
                continue
            printer.print_operand(self.resource_operands[tied])
            printer.print_string("{")
            printer.print_operand(size)
            printer.print_string("}")
        if many:
            printer.print_string(")")


def _parse_maybe_sized_type(parser: Parser) -> tuple[Attribute, SSAValue | None]:
    ty = parser.parse_type()
    if not is_resource(ty):
        return ty, None
    return ty, parse_size(parser)
