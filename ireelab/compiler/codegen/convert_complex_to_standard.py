"""`ConvertComplexToStandardPass` (`convert-complex-to-standard`): complex arithmetic as float
arithmetic on the two parts.

MLIR's pass of this name, which IREE's CPU pipeline runs in its lowering to LLVM right before
MathTransformPass (LLVMCPU/Passes.cpp): every `complex` op but `create` / `re` / `im` becomes
`arith` / `math` on the real and imaginary parts, so what is left of complex numbers is
building a pair and reading its halves. ComplexToLLVM then makes a `complex<f32>` an LLVM
`{f32, f32}`; ireelab's kernels hold it as numba's `complex64`, the same two floats (its
buffers are `complex64` arrays, the pair layout IREE stores), and the emitter reads
`create` / `re` / `im` as `complex(a, b)`, `.real`, `.imag`.

The expansions are MLIR's, as IREE 3.13 prints them: `mul` is `(ac - bd) + (ad + bc)i`; `abs`
is `max * sqrt(1 + (min / max)^2)` of the parts' magnitudes, which neither overflows nor
underflows where the result does not (and is `min` where that is NaN: 0 for 0); `div` is
Smith's algorithm with C99's recovery of infinities and zeros (`complex_division.py`). `exp`,
`log`, `pow`, `sqrt`, `sin`, `cos`, `angle` and `sign` are here (principal branches through
`math.atan2`, and the special cases at zeros and infinities MLIR's patterns give); `tan`,
`tanh`, `expm1`, `log1p`, `rsqrt` and `atan2` are in `complex_functions.py`. The builder the
expansions share is `complex_expansion.py`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, complex
from xdsl.dialects import math as math_dialect
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ireelab.compiler.codegen import complex_functions as functions
from ireelab.compiler.codegen.complex_division import div
from ireelab.compiler.codegen.complex_expansion import Expansion, magnitude


def _add_sub(e: Expansion, op: complex.AddOp | complex.SubOp) -> SSAValue:
    (a, b), (c, d) = e.parts(op.lhs), e.parts(op.rhs)
    cls = arith.AddfOp if isinstance(op, complex.AddOp) else arith.SubfOp
    return e.create(e.f(cls, a, c), e.f(cls, b, d))


def _mul(e: Expansion, op: complex.MulOp) -> SSAValue:
    (a, b), (c, d) = e.parts(op.lhs), e.parts(op.rhs)
    real = e.f(arith.SubfOp, e.f(arith.MulfOp, a, c), e.f(arith.MulfOp, b, d))
    imag = e.f(arith.AddfOp, e.f(arith.MulfOp, b, c), e.f(arith.MulfOp, a, d))
    return e.create(real, imag)


def _neg(e: Expansion, op: complex.NegOp) -> SSAValue:
    a, b = e.parts(op.complex)
    return e.create(e.f(arith.NegfOp, a), e.f(arith.NegfOp, b))


def _conj(e: Expansion, op: complex.ConjOp) -> SSAValue:
    a, b = e.parts(op.complex)
    return e.create(a, e.f(arith.NegfOp, b))


def _abs(e: Expansion, op: complex.AbsOp) -> SSAValue:
    return magnitude(e, *e.parts(op.complex))


def _exp(e: Expansion, op: complex.ExpOp) -> SSAValue:
    """exp(a + bi) = e^a cos b + i e^a sin b, as the MLIR of IREE 3.13 lowers it: where e^a
    overflows, (e^(a/2) cos b) e^(a/2) (finite where the product is), and a real argument
    gives an imaginary part of exactly 0 (so exp(inf) is inf + 0i, not inf + NaN i)."""
    a, b = e.parts(op.complex)
    zero, half = e.constant(0.0, a), e.constant(0.5, a)
    scale = e.f(math_dialect.ExpOp, a)
    root = e.f(math_dialect.ExpOp, e.f(arith.MulfOp, a, half))
    overflows = e.cmp("oeq", scale, e.constant(float("inf"), a))
    parts = []
    for trig in (math_dialect.CosOp, math_dialect.SinOp):
        t = e.f(trig, b)
        direct = e.f(arith.MulfOp, scale, t)
        halves = e.f(arith.MulfOp, e.f(arith.MulfOp, root, t), root)
        parts.append(e.f(arith.SelectOp, overflows, halves, direct))
    real, imag = parts
    imag = e.f(arith.SelectOp, e.cmp("oeq", b, zero), zero, imag)
    return e.create(real, imag)


def _log(e: Expansion, op: complex.LogOp) -> SSAValue:
    """log z = log|z| + i atan2(b, a): the principal branch (|z| a `complex.abs`, expanded
    in turn)."""
    magnitude = e.add(complex.AbsOp(op.complex))
    a, b = e.parts(op.complex)
    return e.create(e.f(math_dialect.LogOp, magnitude), e.f(math_dialect.Atan2Op, b, a))


def _angle(e: Expansion, op: complex.AngleOp) -> SSAValue:
    a, b = e.parts(op.complex)
    return e.f(math_dialect.Atan2Op, b, a)


def _sign(e: Expansion, op: complex.SignOp) -> SSAValue:
    """z / |z|, and z itself at 0."""
    a, b = e.parts(op.complex)
    zero = e.constant(0.0, a)
    is_zero = e.f(arith.AndIOp, e.cmp("oeq", a, zero), e.cmp("oeq", b, zero))
    magnitude = e.add(complex.AbsOp(op.complex))
    unit = e.create(e.f(arith.DivfOp, a, magnitude), e.f(arith.DivfOp, b, magnitude))
    return e.f(arith.SelectOp, is_zero, op.complex, unit)


def _sin_cos(e: Expansion, op: complex.SinOp | complex.CosOp) -> SSAValue:
    """With t = e^b: sin(a + bi) = (t/2 + 1/2t) sin a + i (t/2 - 1/2t) cos a, and
    cos(a + bi) = (1/2t + t/2) cos a + i (1/2t - t/2) sin a."""
    a, b = e.parts(op.complex)
    half = e.constant(0.5, a)
    t = e.f(math_dialect.ExpOp, b)
    up, down = e.f(arith.MulfOp, half, t), e.f(arith.DivfOp, half, t)
    sin_a, cos_a = e.f(math_dialect.SinOp, a), e.f(math_dialect.CosOp, a)
    if isinstance(op, complex.SinOp):
        real = e.f(arith.MulfOp, e.f(arith.AddfOp, up, down), sin_a)
        imag = e.f(arith.MulfOp, e.f(arith.SubfOp, up, down), cos_a)
    else:
        real = e.f(arith.MulfOp, e.f(arith.AddfOp, down, up), cos_a)
        imag = e.f(arith.MulfOp, e.f(arith.SubfOp, down, up), sin_a)
    return e.create(real, imag)


def _sqrt(e: Expansion, op: complex.SqrtOp) -> SSAValue:
    """sqrt z = sqrt|z| (cos(arg/2) + i sin(arg/2)), with IEEE's infinities and signed zeros
    as MLIR's lowering gives them (an infinite part gives an infinite root, -inf + bi gives
    0 + inf i, and 0 gives 0)."""
    a, b = e.parts(op.complex)
    zero, half = e.constant(0.0, a), e.constant(0.5, a)
    inf, nan = e.constant(float("inf"), a), e.constant(float("nan"), a)
    root = magnitude(e, a, b, root=True)
    half_arg = e.f(arith.MulfOp, e.f(math_dialect.Atan2Op, b, a), half)
    cos, sin = e.f(math_dialect.CosOp, half_arg), e.f(math_dialect.SinOp, half_arg)
    real = e.f(arith.MulfOp, root, cos)
    imag = e.f(arith.SelectOp, e.cmp("oeq", sin, zero), zero, e.f(arith.MulfOp, root, sin))
    abs_b = e.f(math_dialect.AbsFOp, b)
    b_inf, b_finite = e.cmp("oeq", abs_b, inf), e.cmp("one", abs_b, inf)
    a_inf, a_neg_inf = e.cmp("oeq", a, inf), e.cmp("oeq", a, e.constant(float("-inf"), a))
    real = e.f(arith.SelectOp, e.f(arith.AndIOp, a_neg_inf, b_finite), zero, real)
    real = e.f(arith.SelectOp, e.f(arith.OrIOp, b_inf, a_inf), inf, real)
    imag = e.f(arith.SelectOp, e.cmp("uno", root, root), nan, imag)
    signed_inf = e.f(math_dialect.CopySignOp, inf, b)
    imag = e.f(arith.SelectOp, e.f(arith.OrIOp, b_inf, a_neg_inf), signed_inf, imag)
    is_zero = e.cmp("oeq", root, zero)
    return e.create(
        e.f(arith.SelectOp, is_zero, zero, real), e.f(arith.SelectOp, is_zero, zero, imag)
    )


def _pow(e: Expansion, op: complex.PowOp) -> SSAValue:
    """(a + bi)^(c + di) = |z|^c e^(-d arg z) (cos q + i sin q), q = c arg z + d log|z|,
    with Kahan's special cases as MLIR's lowering has them: 0^w is 0 (1 for w = 0) when
    Re w >= 0 and Im w = 0, z^0 = 1, 1^w = 1, inf^c = inf for c > 0 and 0 for c < 0."""
    a, b = e.parts(op.lhs)
    c, d = e.parts(op.rhs)
    magnitude = e.add(complex.AbsOp(op.lhs))
    arg = e.f(math_dialect.Atan2Op, b, a)
    scale = e.f(
        arith.MulfOp,
        e.f(math_dialect.PowFOp, magnitude, c),
        e.f(math_dialect.ExpOp, e.f(arith.MulfOp, e.f(arith.NegfOp, d), arg)),
    )
    q = e.f(
        arith.AddfOp,
        e.f(arith.MulfOp, c, arg),
        e.f(arith.MulfOp, d, e.f(math_dialect.LogOp, magnitude)),
    )
    zero, one, inf = e.constant(0.0, a), e.constant(1.0, a), e.constant(float("inf"), a)
    c_one, c_zero, c_inf = e.create(one, zero), e.create(zero, zero), e.create(inf, zero)
    d_zero, c_is_zero, b_zero = e.cmp("oeq", d, zero), e.cmp("oeq", c, zero), e.cmp("oeq", b, zero)
    general = e.create(
        e.f(arith.MulfOp, scale, e.f(math_dialect.CosOp, q)),
        e.f(arith.MulfOp, scale, e.f(math_dialect.SinOp, q)),
    )
    base_zero = e.f(arith.AndIOp, e.cmp("oeq", magnitude, zero), d_zero)
    at_zero = e.f(arith.AndIOp, base_zero, e.cmp("ole", zero, c))
    result = e.f(arith.SelectOp, at_zero, e.f(arith.SelectOp, c_is_zero, c_one, c_zero), general)
    result = e.f(arith.SelectOp, e.f(arith.AndIOp, c_is_zero, d_zero), c_one, result)
    base_one = e.f(arith.AndIOp, e.cmp("oeq", a, one), b_zero)
    result = e.f(arith.SelectOp, base_one, c_one, result)
    base_inf = e.f(arith.AndIOp, e.cmp("oeq", a, inf), b_zero)
    real_up = e.f(arith.AndIOp, d_zero, e.cmp("ogt", c, zero))
    result = e.f(arith.SelectOp, e.f(arith.AndIOp, base_inf, real_up), c_inf, result)
    real_down = e.f(arith.AndIOp, d_zero, e.cmp("olt", c, zero))
    return e.f(arith.SelectOp, e.f(arith.AndIOp, base_inf, real_down), c_zero, result)


def _compare(e: Expansion, op: complex.EqualOp | complex.NotEqualOp) -> SSAValue:
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
    complex.DivOp: div,
    complex.NegOp: _neg,
    complex.ConjOp: _conj,
    complex.AbsOp: _abs,
    complex.ExpOp: _exp,
    complex.LogOp: _log,
    complex.PowOp: _pow,
    complex.SqrtOp: _sqrt,
    complex.SinOp: _sin_cos,
    complex.CosOp: _sin_cos,
    complex.AngleOp: _angle,
    complex.SignOp: _sign,
    complex.EqualOp: _compare,
    complex.NotEqualOp: _compare,
    complex.TanOp: functions.tan,
    complex.TanhOp: functions.tanh,
    complex.Expm1Op: functions.expm1,
    complex.Log1pOp: functions.log1p,
    complex.RsqrtOp: functions.rsqrt,
    complex.Atan2Op: functions.atan2,
}


def convert_complex_to_standard(module: ModuleOp) -> None:
    """Expand until no complex op but a pair's is left (`log`, `pow` and `sign` expand to
    a `complex.abs` first, and `atan2` to complex arithmetic, a square root and a log, as
    MLIR's patterns do, which the next rounds expand)."""
    while pending := [o for o in module.walk() if type(o) in _EXPANSIONS]:
        for op in pending:
            expansion = Expansion(op)
            value = _EXPANSIONS[type(op)](expansion, op)
            Rewriter.replace_op(op, expansion.ops, [value])


@dataclass(frozen=True)
class ConvertComplexToStandardPass(ModulePass):
    name = "convert-complex-to-standard"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        convert_complex_to_standard(op)
