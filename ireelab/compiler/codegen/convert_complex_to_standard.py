"""`ConvertComplexToStandardPass` (`convert-complex-to-standard`): complex arithmetic as float
arithmetic on the two parts.

MLIR's pass of this name, which IREE's CPU pipeline runs in its lowering to LLVM right before
MathTransformPass (LLVMCPU/Passes.cpp): every `complex` op but `create` / `re` / `im` becomes
`arith` / `math` on the real and imaginary parts, so what is left of complex numbers is
building a pair and reading its halves. ComplexToLLVM then makes a `complex<f32>` an LLVM
`{f32, f32}`; ireelab's kernels hold it as numba's `complex64`, the same two floats (its
buffers are `complex64` arrays, the pair layout IREE stores), and the emitter reads
`create` / `re` / `im` as `complex(a, b)`, `.real`, `.imag`.

The expansions are MLIR's: `mul` is `(ac - bd) + (ad + bc)i`; `abs` is `max * sqrt(1 +
(min / max)^2)` of the parts' magnitudes, which neither overflows nor underflows where the
result does not (and is `min` where that is NaN: 0 for 0); `div` is Smith's algorithm, which
divides by the larger part of the divisor first. Other complex ops (`exp`, `log`, `pow`, ...)
are left and reported by the emitter, located.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, complex
from xdsl.dialects import math as math_dialect
from xdsl.dialects.builtin import FloatAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ireelab.diagnostics import copy_location


class _Expansion:
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

    def f(self, cls, *operands: SSAValue) -> SSAValue:
        return self.add(cls(*operands))


def _add_sub(e: _Expansion, op: complex.AddOp | complex.SubOp) -> SSAValue:
    (a, b), (c, d) = e.parts(op.lhs), e.parts(op.rhs)
    cls = arith.AddfOp if isinstance(op, complex.AddOp) else arith.SubfOp
    return e.create(e.f(cls, a, c), e.f(cls, b, d))


def _mul(e: _Expansion, op: complex.MulOp) -> SSAValue:
    (a, b), (c, d) = e.parts(op.lhs), e.parts(op.rhs)
    real = e.f(arith.SubfOp, e.f(arith.MulfOp, a, c), e.f(arith.MulfOp, b, d))
    imag = e.f(arith.AddfOp, e.f(arith.MulfOp, b, c), e.f(arith.MulfOp, a, d))
    return e.create(real, imag)


def _div(e: _Expansion, op: complex.DivOp) -> SSAValue:
    """Smith's algorithm: with |c| >= |d|, r = d / c, t = c + d r and the quotient is
    ((a + b r) + (b - a r) i) / t; the other way round with the roles of c and d swapped."""
    (a, b), (c, d) = e.parts(op.lhs), e.parts(op.rhs)
    abs_c, abs_d = e.f(math_dialect.AbsFOp, c), e.f(math_dialect.AbsFOp, d)
    c_wider = e.f(lambda x, y: arith.CmpfOp(x, y, "oge"), abs_c, abs_d)
    # |c| >= |d|
    r1 = e.f(arith.DivfOp, d, c)
    t1 = e.f(arith.AddfOp, c, e.f(arith.MulfOp, d, r1))
    re1 = e.f(arith.DivfOp, e.f(arith.AddfOp, a, e.f(arith.MulfOp, b, r1)), t1)
    im1 = e.f(arith.DivfOp, e.f(arith.SubfOp, b, e.f(arith.MulfOp, a, r1)), t1)
    # |d| > |c|
    r2 = e.f(arith.DivfOp, c, d)
    t2 = e.f(arith.AddfOp, d, e.f(arith.MulfOp, c, r2))
    re2 = e.f(arith.DivfOp, e.f(arith.AddfOp, e.f(arith.MulfOp, a, r2), b), t2)
    im2 = e.f(arith.DivfOp, e.f(arith.SubfOp, e.f(arith.MulfOp, b, r2), a), t2)
    real = e.f(arith.SelectOp, c_wider, re1, re2)
    imag = e.f(arith.SelectOp, c_wider, im1, im2)
    return e.create(real, imag)


def _neg(e: _Expansion, op: complex.NegOp) -> SSAValue:
    a, b = e.parts(op.complex)
    return e.create(e.f(arith.NegfOp, a), e.f(arith.NegfOp, b))


def _conj(e: _Expansion, op: complex.ConjOp) -> SSAValue:
    a, b = e.parts(op.complex)
    return e.create(a, e.f(arith.NegfOp, b))


def _abs(e: _Expansion, op: complex.AbsOp) -> SSAValue:
    a, b = e.parts(op.complex)
    abs_a, abs_b = e.f(math_dialect.AbsFOp, a), e.f(math_dialect.AbsFOp, b)
    high = e.f(arith.MaximumfOp, abs_a, abs_b)
    low = e.f(arith.MinimumfOp, abs_a, abs_b)
    ratio = e.f(arith.DivfOp, low, high)
    grown = e.f(arith.AddfOp, e.f(arith.MulfOp, ratio, ratio), e.constant(1.0, a))
    result = e.f(arith.MulfOp, high, e.f(math_dialect.SqrtOp, grown))
    is_nan = e.f(lambda x, y: arith.CmpfOp(x, y, "uno"), result, result)
    return e.f(arith.SelectOp, is_nan, low, result)


def _compare(e: _Expansion, op: complex.EqualOp | complex.NotEqualOp) -> SSAValue:
    (a, b), (c, d) = e.parts(op.lhs), e.parts(op.rhs)
    if isinstance(op, complex.EqualOp):
        same = (arith.CmpfOp(a, c, "oeq"), arith.CmpfOp(b, d, "oeq"))
        return e.f(arith.AndIOp, e.add(same[0]), e.add(same[1]))
    differ = (arith.CmpfOp(a, c, "une"), arith.CmpfOp(b, d, "une"))
    return e.f(arith.OrIOp, e.add(differ[0]), e.add(differ[1]))


_EXPANSIONS = {
    complex.AddOp: _add_sub,
    complex.SubOp: _add_sub,
    complex.MulOp: _mul,
    complex.DivOp: _div,
    complex.NegOp: _neg,
    complex.ConjOp: _conj,
    complex.AbsOp: _abs,
    complex.EqualOp: _compare,
    complex.NotEqualOp: _compare,
}


def convert_complex_to_standard(module: ModuleOp) -> None:
    for op in [o for o in module.walk() if type(o) in _EXPANSIONS]:
        expansion = _Expansion(op)
        value = _EXPANSIONS[type(op)](expansion, op)
        Rewriter.replace_op(op, expansion.ops, [value])


@dataclass(frozen=True)
class ConvertComplexToStandardPass(ModulePass):
    name = "convert-complex-to-standard"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        convert_complex_to_standard(op)
