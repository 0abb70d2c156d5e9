"""How ConvertComplexToStandardPass builds an expansion: the float ops replacing one complex op.

A helper of `convert_complex_to_standard.py` and the expansions beside it
(`complex_division.py`, `complex_functions.py`): each expansion appends ops in order, every
new op taking the replaced op's location, and reads parts with `complex.re` / `complex.im`
and builds pairs with `complex.create`, as MLIR's patterns do. `magnitude` is MLIR's
`computeAbs`, which `abs`, `sqrt` and the other expansions share.
"""

from __future__ import annotations

from xdsl.dialects import arith, complex
from xdsl.dialects import math as math_dialect
from xdsl.dialects.builtin import FloatAttr
from xdsl.ir import Operation, SSAValue

from ireelab.diagnostics import copy_location


class Expansion:
    """The ops replacing one complex op, in order."""

    def __init__(self, op: Operation) -> None:
        self.op = op
        self.ops: list[Operation] = []

    def add(self, new: Operation) -> SSAValue:
        copy_location(self.op, new)
        self.ops.append(new)
        return new.results[0]

    def parts(self, value: SSAValue) -> tuple[SSAValue, SSAValue]:
        return self.add(complex.ReOp(value)), self.add(complex.ImOp(value))

    def create(self, real: SSAValue, imag: SSAValue) -> SSAValue:
        return self.add(complex.CreateOp(real, imag, self.op.results[0].type))

    def constant(self, value: float, like: SSAValue) -> SSAValue:
        return self.add(arith.ConstantOp(FloatAttr(value, like.type)))

    def element_constant(self, value: float) -> SSAValue:
        """A constant of the element type of the (complex) result."""
        return self.add(arith.ConstantOp(FloatAttr(value, self.op.results[0].type.element_type)))

    def f(self, cls, *operands: SSAValue) -> SSAValue:
        return self.add(cls(*operands))

    def cmp(self, predicate: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.add(arith.CmpfOp(lhs, rhs, predicate))


def magnitude(e: Expansion, a: SSAValue, b: SSAValue, root: bool = False) -> SSAValue:
    """|a + bi| as `max * sqrt(1 + (min / max)^2)`, or with `root` its square root as
    `sqrt(max) * (1 + (min / max)^2)^0.25` (MLIR's `computeAbs`); `min` where that is NaN."""
    abs_a, abs_b = e.f(math_dialect.AbsFOp, a), e.f(math_dialect.AbsFOp, b)
    high = e.f(arith.MaximumfOp, abs_a, abs_b)
    low = e.f(arith.MinimumfOp, abs_a, abs_b)
    ratio = e.f(arith.DivfOp, low, high)
    grown = e.f(arith.AddfOp, e.f(arith.MulfOp, ratio, ratio), e.constant(1.0, a))
    if root:
        quarter = e.f(math_dialect.PowFOp, grown, e.constant(0.25, a))
        result = e.f(arith.MulfOp, e.f(math_dialect.SqrtOp, high), quarter)
    else:
        result = e.f(arith.MulfOp, high, e.f(math_dialect.SqrtOp, grown))
    return e.f(arith.SelectOp, e.cmp("uno", result, result), low, result)
