"""`MathTransformPass` (`iree-codegen-math-transform`): transcendental `math` ops on f32 become
polynomial / rational approximations in `arith` and `math.fma`.

IREE runs this pass late in its CPU pipeline and applies MLIR's polynomial approximations
(`populatePolynomialApproximate*Patterns`) to the math ops the target has no fast vector
instruction for, so LLVM vectorises them instead of calling libm once per element. numba has
no vector math library here (no SVML), so a `math.tanh` or `math.exp` in a loop is a scalar
libm call that also stops LLVM from vectorising the loop; after this pass the loop is plain
multiply / add / divide / select arithmetic that vectorises.

Approximations (float32 only; f64 keeps libm, where the approximations would lose accuracy):

- `math.tanh`: odd rational `x * P(x^2) / Q(x^2)` (degree 13 / 6, Eigen's float coefficients,
  the form MLIR's `TanhApproximation` uses), input clamped to [-7.9053, 7.9053] where tanh is
  1 in float32 (so it saturates at +-0.99999976), and `x` itself for |x| < 4e-4. Error
  under 4e-7 absolute over the whole line (tested).
- `math.exp`: Cody-Waite range reduction `x = k ln2 + r`, 0 <= r < ln2, a degree-10 Taylor
  polynomial of `e^r` (truncation error < 1e-9 relative), and `2^k` built in the exponent bits
  (`arith.bitcast`, in two halves so both stay normal), as MLIR's `ExpApproximation` does.
  Above 88.72 the result is +inf, below -87.34 it is 0 (flushing results under 1.2e-38); NaN
  stays NaN. Error under 4e-7 relative over [-87, 88.5] (tested).

Polynomials are evaluated by Horner's rule in `math.fma` steps (MLIR's patterns use `math.fma`
too; numba-cpu emits LLVM's `llvm.fma`, one instruction per step in the vectorised loop: an
exp-heavy softmax row loop ran 1.5x faster than with a multiply and an add per step).

Tests: `tests/codegen/test_math_transform.py` checks both against numpy over dense grids of
inputs, including the special values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects import math as math_dialect
from xdsl.dialects.builtin import Float32Type, FloatAttr, IntegerAttr, ModuleOp, f32, i32
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

_TANH_CLAMP = 7.90531110763549805
_TANH_TINY = 0.0004
_TANH_P = (
    -2.76076847742355e-16,
    2.00018790482477e-13,
    -8.60467152213735e-11,
    5.12229709037114e-08,
    1.48572235717979e-05,
    6.37261928875436e-04,
    4.89352455891786e-03,
)
_TANH_Q = (1.19825839466702e-06, 1.18534705686654e-04, 2.26843463243900e-03, 4.89352518554385e-03)

_EXP_HIGH = 88.72283935546875  # above: +inf in float32
_EXP_LOW = -87.33654475  # below: under the smallest normal float32
_LN2_HIGH = 0.693359375  # ln 2 split so that k * _LN2_HIGH is exact for |k| < 2^9
_LN2_LOW = -2.12194440e-4
_EXP_TAYLOR = tuple(1.0 / math.factorial(n) for n in range(10, -1, -1))  # 1/10! ... 1/0!


class _Builder:
    """Inserts scalar f32 arithmetic before one op."""

    def __init__(self, rewriter: PatternRewriter) -> None:
        self.rewriter = rewriter

    def add(self, op: Operation) -> SSAValue:
        self.rewriter.insert(op)
        return op.results[0]

    def f32(self, value: float) -> SSAValue:
        return self.add(arith.ConstantOp(FloatAttr(value, f32)))

    def i32(self, value: int) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, i32)))

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.add(arith.MulfOp(a, b))

    def fma(self, a: SSAValue, b: SSAValue, c: SSAValue) -> SSAValue:
        """`a * b + c` as one `math.fma` (rounded once), as MLIR's approximations build their
        polynomials: half the vector instructions of a multiply and an add."""
        return self.add(math_dialect.FmaOp(a, b, c))

    def horner(self, x: SSAValue, coefficients: tuple[float, ...]) -> SSAValue:
        """`c0 x^n + ... + cn` for coefficients highest degree first."""
        result = self.f32(coefficients[0])
        for c in coefficients[1:]:
            result = self.fma(result, x, self.f32(c))
        return result

    def select(self, predicate: str, a: SSAValue, b: SSAValue, yes: SSAValue, no: SSAValue):
        condition = self.add(arith.CmpfOp(a, b, predicate))
        return self.add(arith.SelectOp(condition, yes, no))


def approximate_tanh(b: _Builder, x: SSAValue) -> SSAValue:
    clamped = b.add(
        arith.MinimumfOp(b.add(arith.MaximumfOp(x, b.f32(-_TANH_CLAMP))), b.f32(_TANH_CLAMP))
    )
    x2 = b.mul(clamped, clamped)
    p = b.mul(clamped, b.horner(x2, _TANH_P))
    q = b.horner(x2, _TANH_Q)
    ratio = b.add(arith.DivfOp(p, q))
    magnitude = b.add(math_dialect.AbsFOp(x))
    return b.select("olt", magnitude, b.f32(_TANH_TINY), x, ratio)


def _power_of_two(b: _Builder, exponent: SSAValue) -> SSAValue:
    """`2^exponent` for an i32 in [-126, 127]: the biased exponent in the float's bits."""
    biased = b.add(arith.AddiOp(exponent, b.i32(127)))
    return b.add(arith.BitcastOp(b.add(arith.ShLIOp(biased, b.i32(23))), f32))


def approximate_exp(b: _Builder, x: SSAValue) -> SSAValue:
    clamped = b.add(arith.MinimumfOp(b.add(arith.MaximumfOp(x, b.f32(_EXP_LOW))), b.f32(_EXP_HIGH)))
    k = b.add(math_dialect.FloorOp(b.mul(clamped, b.f32(1 / math.log(2)))))
    r = b.fma(k, b.f32(-_LN2_HIGH), clamped)
    r = b.fma(k, b.f32(-_LN2_LOW), r)
    polynomial = b.horner(r, _EXP_TAYLOR)
    # 2^k as 2^(k >> 1) * 2^(k - (k >> 1)): k is in [-127, 127] after the clamp, both halves
    # are normal floats, and their product (which fast-math may form first) is finite
    whole = b.add(arith.FPToSIOp(k, i32))
    half = b.add(arith.ShRSIOp(whole, b.i32(1)))
    rest = b.add(arith.SubiOp(whole, half))
    scaled = b.mul(b.mul(polynomial, _power_of_two(b, half)), _power_of_two(b, rest))
    flushed = b.select("olt", x, b.f32(_EXP_LOW), b.f32(0.0), scaled)
    return b.select("ogt", x, b.f32(_EXP_HIGH), b.f32(math.inf), flushed)


class ApproximateTanh(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: math_dialect.TanhOp, rewriter: PatternRewriter) -> None:
        if not isinstance(op.result.type, Float32Type):
            return
        rewriter.replace(op, [], [approximate_tanh(_Builder(rewriter), op.operand)])


class ApproximateExp(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: math_dialect.ExpOp, rewriter: PatternRewriter) -> None:
        if not isinstance(op.result.type, Float32Type):
            return
        rewriter.replace(op, [], [approximate_exp(_Builder(rewriter), op.operand)])


@dataclass(frozen=True)
class MathTransformPass(ModulePass):
    """Replace f32 `math.tanh` and `math.exp` by vectorisable arithmetic approximations."""

    name = "iree-codegen-math-transform"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        walker = PatternRewriteWalker(ApproximateTanh(), apply_recursively=False)
        walker.rewrite_module(op)
        PatternRewriteWalker(ApproximateExp(), apply_recursively=False).rewrite_module(op)
