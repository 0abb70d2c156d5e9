"""`stream.resource.pack`: the slices of one slab, each with a lifetime and a size.

Mirrors IREE's `stream.resource.pack` (`Dialect/Stream/IR/StreamOps.td`).
`ScheduleAllocationPass` emits one per slab whose slices are sized at run time; it yields the
slab's total length and each slice's offset, and `LayoutSlicesPass` replaces it with the
arithmetic that computes them (constants for static sizes, `util.align` / `arith.addi` on the
host for the others):

    %8:3 = stream.resource.pack on(#hal.device.affinity<@__device_0>) slices({
      [0, 2] = %2,
      [1, 2] = %3
    }) : index

`[0, 2]` is the slice's lifetime (first and last step of the execution region that use it);
slices whose lifetimes do not overlap may share memory.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IndexType, IntegerAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    opt_operand_def,
    opt_prop_def,
    prop_def,
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
    parse_affinity,
    parse_trailing_attrs,
    print_affinity,
    print_trailing_attrs,
)


@irdl_op_definition
class ResourcePackOp(IRDLOperation):
    """`%total, %offsets... = stream.resource.pack on(...) slices({[start, end] = %size, ...}) : index`"""

    name = "stream.resource.pack"

    offset = opt_operand_def(IndexType)
    """where the first slice may start (0 when absent)."""
    dynamic_slice_sizes = var_operand_def(IndexType)
    lifetime_intervals = prop_def(ArrayAttr[IntegerAttr])
    """[start, end] of every slice, flattened."""
    affinity = opt_prop_def(Attribute)
    total_length = result_def(IndexType)
    packed_offsets = var_result_def(IndexType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        sizes: Sequence[SSAValue],
        lifetimes: Sequence[tuple[int, int]],
        affinity: Attribute | None = None,
        offset: SSAValue | None = None,
    ):
        flat = [IntegerAttr(n, IndexType()) for lifetime in lifetimes for n in lifetime]
        super().__init__(
            operands=[[offset] if offset is not None else [], list(sizes)],
            result_types=[IndexType(), [IndexType()] * len(sizes)],
            properties={"lifetime_intervals": ArrayAttr(flat), **affinity_props(affinity=affinity)},
        )

    def lifetimes(self) -> list[tuple[int, int]]:
        flat = [a.value.data for a in self.lifetime_intervals.data]
        return list(zip(flat[::2], flat[1::2], strict=True))

    @classmethod
    def parse(cls, parser: Parser) -> ResourcePackOp:
        affinity = parse_affinity(parser)
        offset = None
        if parser.parse_optional_keyword("offset") is not None:
            with parser.in_parens():
                offset = parser.parse_operand(IndexType())
        parser.parse_keyword("slices")
        lifetimes: list[tuple[int, int]] = []
        sizes: list[SSAValue] = []
        with parser.in_parens():
            parser.parse_punctuation("{")
            if parser.parse_optional_punctuation("}") is None:
                pairs = parser.parse_comma_separated_list(
                    Parser.Delimiter.NONE, lambda: _parse_slice(parser)
                )
                parser.parse_punctuation("}")
                lifetimes = [p[0] for p in pairs]
                sizes = [p[1] for p in pairs]
        parser.parse_punctuation(":")
        parser.parse_type()
        op = cls(sizes, lifetimes, affinity, offset)
        return parse_trailing_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        print_affinity(printer, self.affinity)
        if self.offset is not None:
            printer.print_string(" offset(")
            printer.print_operand(self.offset)
            printer.print_string(")")
        printer.print_string(" slices({")
        with printer.indented():
            for i, ((start, end), size) in enumerate(
                zip(self.lifetimes(), self.dynamic_slice_sizes, strict=True)
            ):
                printer.print_string(",\n" if i else "\n")
                printer.print_string(f"[{start}, {end}] = ")
                printer.print_operand(size)
        printer.print_string("\n}) : index")
        print_trailing_attrs(printer, self)


def _parse_slice(parser: Parser) -> tuple[tuple[int, int], SSAValue]:
    parser.parse_punctuation("[")
    start = parser.parse_integer()
    parser.parse_punctuation(",")
    end = parser.parse_integer()
    parser.parse_punctuation("]")
    parser.parse_punctuation("=")
    return (start, end), parser.parse_operand(IndexType())
