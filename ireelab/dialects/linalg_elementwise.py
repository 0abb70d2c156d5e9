"""`linalg.elementwise <kind>`: MLIR's one elementwise op, the form IREE 3.13 parses.

IREE 3.13's LLVM dropped the named elementwise ops of MLIR's OpDSL (`linalg.add`,
`linalg.exp`, ...; `custom op 'linalg.add' is unknown`) for `linalg.elementwise` with an
`#linalg.elementwise_kind` (MLIR's `ElementwiseOp` in LinalgStructuredOps.td):

    %r = linalg.elementwise <add> ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>)
           outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>

Every operand is read through an identity map unless `indexing_maps = [...]` says otherwise
(a transposed or broadcast input); the loops are all parallel; the body applies the kind's
scalar function to the inputs (cast to the output's element type, as the named ops do, except
`select`'s i1 condition). xDSL 0.75 has neither the op nor the attribute.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import auto

from xdsl.builder import Builder
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import AffineMapAttr, AnyFloat, ArrayAttr, ShapedType
from xdsl.dialects.linalg.abstract_ops import ElementwiseOperation
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, BlockArgument, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_attr_definition, irdl_op_definition, opt_prop_def, prop_def
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum

from ireelab.dialects.linalg_helpers import (
    ScalarFn,
    cast_scalar,
    float_or_int,
    parse_operand_group,
    reciprocal,
)


class ElementwiseKind(StrEnum):
    """MLIR's `ElementwiseKind` (unary, binary and ternary functions)."""

    exp = auto()
    log = auto()
    abs = auto()
    ceil = auto()
    floor = auto()
    negf = auto()
    reciprocal = auto()
    round = auto()
    sqrt = auto()
    rsqrt = auto()
    square = auto()
    tanh = auto()
    erf = auto()
    add = auto()
    sub = auto()
    mul = auto()
    div = auto()
    div_unsigned = auto()
    max_signed = auto()
    min_signed = auto()
    max_unsigned = auto()
    min_unsigned = auto()
    powf = auto()
    select = auto()


@irdl_attr_definition
class ElementwiseKindAttr(EnumAttribute[ElementwiseKind]):
    """`#linalg.elementwise_kind<add>`."""

    name = "linalg.elementwise_kind"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ElementwiseKind:
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


def _float(op: type, twice: bool = False) -> ScalarFn:
    return lambda xs: op(*xs, *xs).result if twice else op(*xs).result


def _integer(op: type) -> ScalarFn:
    return lambda xs: op(*xs).result


def _select(xs: Sequence[SSAValue]) -> SSAValue:
    return arith.SelectOp(*xs).result


BODIES: dict[ElementwiseKind, ScalarFn] = {
    ElementwiseKind.exp: _float(math.ExpOp),
    ElementwiseKind.log: _float(math.LogOp),
    ElementwiseKind.abs: _float(math.AbsFOp),
    ElementwiseKind.ceil: _float(math.CeilOp),
    ElementwiseKind.floor: _float(math.FloorOp),
    ElementwiseKind.negf: _float(arith.NegfOp),
    ElementwiseKind.reciprocal: reciprocal,
    ElementwiseKind.round: _float(math.RoundOp),
    ElementwiseKind.sqrt: _float(math.SqrtOp),
    ElementwiseKind.rsqrt: _float(math.RsqrtOp),
    ElementwiseKind.square: _float(arith.MulfOp, twice=True),
    ElementwiseKind.tanh: _float(math.TanhOp),
    ElementwiseKind.erf: _float(math.ErfOp),
    ElementwiseKind.add: float_or_int(arith.AddfOp, arith.AddiOp),
    ElementwiseKind.sub: float_or_int(arith.SubfOp, arith.SubiOp),
    ElementwiseKind.mul: float_or_int(arith.MulfOp, arith.MuliOp),
    ElementwiseKind.div: float_or_int(arith.DivfOp, arith.DivSIOp),
    ElementwiseKind.div_unsigned: _integer(arith.DivUIOp),
    ElementwiseKind.max_signed: float_or_int(arith.MaximumfOp, arith.MaxSIOp),
    ElementwiseKind.min_signed: float_or_int(arith.MinimumfOp, arith.MinSIOp),
    ElementwiseKind.max_unsigned: _integer(arith.MaxUIOp),
    ElementwiseKind.min_unsigned: _integer(arith.MinUIOp),
    ElementwiseKind.powf: _float(math.PowFOp),
    ElementwiseKind.select: _select,
}
"""The scalar function of each kind (floats and, where MLIR defines one, integers)."""

FLOAT_ONLY = frozenset(
    {"exp", "log", "abs", "ceil", "floor", "negf", "reciprocal", "round", "sqrt", "rsqrt"}
    | {"square", "tanh", "erf", "powf"}
)
"""Kinds MLIR defines on floats only (`math.absf`, ...; IREE 3.13 rejects them on integers)."""
INTEGER_ONLY = frozenset({"div_unsigned", "max_unsigned", "min_unsigned"})
"""Kinds MLIR defines on integers only (IREE 3.13 crashes on them with floats)."""

ARITY = {ElementwiseKind.select: 3} | {
    kind: 2
    for kind in BODIES
    if kind.value in {"add", "sub", "mul", "div", "div_unsigned", "powf"}
    or kind.value.startswith(("max_", "min_"))
}


def arity(kind: ElementwiseKind) -> int:
    return ARITY.get(kind, 1)


def kind_problem(
    kind: ElementwiseKind, ins: Sequence[SSAValue], outs: Sequence[SSAValue]
) -> str | None:
    """Why `linalg.elementwise <kind>` cannot take these operands, or None."""
    if len(ins) != arity(kind) or len(outs) != 1:
        return f"linalg.elementwise <{kind}> takes {arity(kind)} inputs and one output"
    element = outs[0].type.get_element_type() if isinstance(outs[0].type, ShapedType) else None
    is_float = isinstance(element, AnyFloat)
    if kind in FLOAT_ONLY and not is_float:
        return f"linalg.elementwise <{kind}> is defined on floats, not {element}"
    if kind in INTEGER_ONLY and is_float:
        return f"linalg.elementwise <{kind}> is defined on integers, not {element}"
    return None


def kind_region(kind: ElementwiseKind, arg_types: Sequence[Attribute]) -> Region:
    """The body: the kind's function of the inputs, cast to the output's element type."""

    @Builder.implicit_region(arg_types)
    def body(args: tuple[BlockArgument, ...]) -> None:
        out_type = args[-1].type
        inputs = list(args[:-1])
        if kind != ElementwiseKind.select:
            inputs = [cast_scalar(a, out_type) for a in inputs]
        else:
            inputs[1:] = [cast_scalar(a, out_type) for a in inputs[1:]]
        YieldOp(BODIES[kind](inputs))

    return body


@irdl_op_definition
class ElementwiseOp(ElementwiseOperation):
    """`linalg.elementwise <kind> [indexing_maps = [...]] ins(...) outs(...) -> T`."""

    name = "linalg.elementwise"

    kind = prop_def(ElementwiseKindAttr)
    indexing_maps = opt_prop_def(ArrayAttr[AffineMapAttr])

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        raise NotImplementedError("linalg.elementwise's body depends on its kind")

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        if self.indexing_maps is not None:
            return self.indexing_maps
        rank = len(self.outputs[0].type.get_shape())
        return ArrayAttr([AffineMapAttr(AffineMap.identity(rank))] * len(self.operands))

    def verify_(self) -> None:
        from xdsl.utils.exceptions import VerifyException

        problem = kind_problem(self.kind.data, list(self.inputs), list(self.outputs))
        if problem is not None:
            raise VerifyException(problem)

    @classmethod
    def parse(cls, parser: Parser) -> ElementwiseOp:
        pos = parser.pos
        kind = ElementwiseKindAttr(ElementwiseKindAttr.parse_parameter(parser))
        maps = None
        if parser.parse_optional_characters("indexing_maps"):
            parser.parse_punctuation("=")
            maps = parser.parse_attribute()
        ins = parse_operand_group(parser, "ins")
        outs = parse_operand_group(parser, "outs")
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->"):
            result_types = [parser.parse_type()]
        problem = kind_problem(kind.data, ins, outs)
        if problem is not None:
            parser.raise_error(problem, pos, parser.pos)
        properties: dict[str, Attribute] = {"kind": kind}
        if maps is not None:
            properties["indexing_maps"] = maps
        body = kind_region(kind.data, cls.body_arg_types((*ins, *outs)))
        return cls.build(
            operands=(ins, outs),
            result_types=(result_types,),
            properties=properties,
            regions=(body,),
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        self.kind.print_parameter(printer)
        if self.indexing_maps is not None:
            printer.print_string(" indexing_maps = ")
            printer.print_attribute(self.indexing_maps)
        for keyword, values in (("ins", self.inputs), ("outs", self.outputs)):
            printer.print_string(f" {keyword}(")
            printer.print_list(values, printer.print_ssa_value)
            printer.print_string(" : ")
            printer.print_list(values.types, printer.print_attribute)
            printer.print_string(")")
        if self.res:
            printer.print_string(" -> ")
            printer.print_attribute(self.res[0].type)
