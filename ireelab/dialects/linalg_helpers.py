"""Scalar bodies and operand lists shared by ireelab's linalg ops (`linalg_ext`,
`linalg_elementwise`): the casts MLIR's named ops apply (`cast_signed`), float-or-integer
scalar functions, and the `ins(...)` / `outs(...)` groups of their custom syntax."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, FloatAttr, IntegerType
from xdsl.ir import Attribute, SSAValue
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

ScalarFn = Callable[[Sequence[SSAValue]], SSAValue]


def cast_scalar(value: SSAValue, to: Attribute) -> SSAValue:
    """Cast `value` to `to` the way linalg's named ops do (`cast_signed` semantics)."""
    src = value.type
    if src == to:
        return value
    if isinstance(src, AnyFloat) and isinstance(to, AnyFloat):
        wider = src.bitwidth < to.bitwidth
        return (arith.ExtFOp(value, to) if wider else arith.TruncFOp(value, to)).result
    if isinstance(src, IntegerType) and isinstance(to, AnyFloat):
        return arith.SIToFPOp(value, to).result
    if isinstance(src, IntegerType) and isinstance(to, IntegerType):
        wider = src.width.data < to.width.data
        return (arith.ExtSIOp(value, to) if wider else arith.TruncIOp(value, to)).result
    if isinstance(src, AnyFloat) and isinstance(to, IntegerType):
        return arith.FPToSIOp(value, to).result
    raise VerifyException(f"linalg: cannot cast {src} to {to}")


def is_float(t: Attribute) -> bool:
    return isinstance(t, AnyFloat)


def float_or_int(float_op: type, int_op: type | None) -> ScalarFn:
    def fn(xs: Sequence[SSAValue]) -> SSAValue:
        if is_float(xs[0].type) or int_op is None:
            return float_op(*xs).result
        return int_op(*xs).result

    return fn


def reciprocal(xs: Sequence[SSAValue]) -> SSAValue:
    one = arith.ConstantOp(FloatAttr(1.0, xs[0].type))
    return arith.DivfOp(one, xs[0]).result


def square(xs: Sequence[SSAValue]) -> SSAValue:
    return float_or_int(arith.MulfOp, arith.MuliOp)([xs[0], xs[0]])


def parse_optional_operand_group(parser: Parser, keyword: str) -> list[SSAValue] | None:
    """`keyword(%a, %b : t1, t2)`, or None when the keyword is absent."""
    pos = parser.pos
    if not parser.parse_optional_keyword(keyword):
        return None
    parser.parse_punctuation("(")
    names = parser.parse_comma_separated_list(
        parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return list(parser.resolve_operands(names, types, pos))


def parse_operand_group(parser: Parser, keyword: str) -> list[SSAValue]:
    """`keyword(%a, %b : t1, t2)`, required."""
    group = parse_optional_operand_group(parser, keyword)
    if group is None:
        parser.raise_error(f"expected '{keyword}(...)'")
    return group
