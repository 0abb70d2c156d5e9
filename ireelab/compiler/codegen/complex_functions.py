"""Complex `tan`, `tanh`, `expm1`, `log1p`, `rsqrt` and `atan2` as IREE 3.13's
ConvertComplexToStandardPass expands them (MLIR's patterns, op for op as `iree-opt
--convert-complex-to-standard` prints them). A helper of `convert_complex_to_standard.py`.

- `tanh(a + bi)` is `(e1 - e2 + 4i cos b sin b) / (-e1 e2 + 4 cos^2 b)` with `e1 = expm1(2a)`,
  `e2 = expm1(-2a)`, which stays accurate near 0 and gives `copysign(1, a)` once `e1 e2`
  overflows; NaN and zero imaginary parts are fixed where `a` is or is not infinite.
- `tan z` is `-i tanh(iz)`: the same formula on `(-b, a)`, the parts swapped back.
- `expm1(a + bi)` is `expm1(a) (cos b - 1 + 1) + (cos b - 1) + i e^a sin b`, `cos b - 1` from
  a polynomial in `b^2` below `b^2 = 0.61685` (no cancellation), `cos b - 1` above.
- `log1p(z)` is `log|1 + z| + i atan2(b, a + 1)`, the real part as `log1p` of the larger part
  minus one plus half `log1p` of the squared ratio of the parts.
- `rsqrt z` is `|z|^(-1/2) (cos(-arg/2) + i sin(-arg/2))`, infinite at 0 (with a NaN
  imaginary part, as MLIR gives), signed zeros at infinities.
- `atan2(y, x)` is `-i log((x + iy) / sqrt(x^2 + y^2))`, built of complex ops that the next
  round of the pass expands in turn.
"""

from __future__ import annotations

from xdsl.dialects import arith, complex
from xdsl.dialects import math as math_dialect
from xdsl.dialects.builtin import IntegerAttr, i1
from xdsl.ir import SSAValue

from ireelab.compiler.codegen.complex_expansion import Expansion

_COS_MINUS_ONE = (
    4.7377507964246208e-14,
    -1.147028484342536e-11,
    2.087675428708152e-9,
    -2.755731921499979e-7,
    2.4801587301570551e-5,
    -0.0013888888888888872,
    0.041666666666666664,
)
"""MLIR's polynomial for `(cos b - 1 + b^2 / 2) / b^4` in `b^2`, highest power first (these
doubles, rounded to the element type: what IREE prints for f32 is their f32 rounding)."""


def _tanh_parts(e: Expansion, a: SSAValue, b: SSAValue) -> tuple[SSAValue, SSAValue]:
    inf, four = e.constant(float("inf"), a), e.constant(4.0, a)
    twice = e.f(arith.AddfOp, a, a)
    up = e.f(math_dialect.ExpM1Op, twice)
    down = e.f(math_dialect.ExpM1Op, e.f(arith.NegfOp, twice))
    numerator = e.f(arith.SubfOp, up, down)
    product = e.f(arith.NegfOp, e.f(arith.MulfOp, up, down))
    cos_b = e.f(math_dialect.CosOp, b)
    cos_squared = e.f(arith.MulfOp, e.f(arith.MulfOp, cos_b, cos_b), four)
    sin_cos = e.f(arith.MulfOp, cos_b, e.f(math_dialect.SinOp, b))
    imag_numerator = e.f(arith.MulfOp, four, sin_cos)
    denominator = e.f(arith.AddfOp, product, cos_squared)
    overflowed = e.cmp("oeq", product, inf)
    unit = e.f(math_dialect.CopySignOp, e.constant(-1.0, a), a)
    real = e.f(arith.SelectOp, overflowed, unit, e.f(arith.DivfOp, numerator, denominator))
    imag = e.f(arith.DivfOp, imag_numerator, denominator)
    zero, nan = e.constant(0.0, a), e.constant(float("nan"), a)
    a_inf = e.cmp("oeq", e.f(math_dialect.AbsFOp, a), inf)
    b_zero = e.cmp("oeq", b, zero)
    true = e.add(arith.ConstantOp(IntegerAttr(1, i1)))
    a_finite = e.f(arith.XOrIOp, a_inf, true)
    imag_nan = e.cmp("uno", imag_numerator, imag_numerator)
    real_nan = e.f(arith.AndIOp, imag_nan, a_finite)
    imag_zero = e.f(arith.OrIOp, b_zero, e.f(arith.AndIOp, a_inf, imag_nan))
    return (
        e.f(arith.SelectOp, real_nan, nan, real),
        e.f(arith.SelectOp, imag_zero, zero, imag),
    )


def tanh(e: Expansion, op: complex.TanhOp) -> SSAValue:
    return e.create(*_tanh_parts(e, *e.parts(op.complex)))


def tan(e: Expansion, op: complex.TanOp) -> SSAValue:
    a, b = e.parts(op.complex)
    real, imag = _tanh_parts(e, e.f(arith.NegfOp, b), a)
    return e.create(imag, e.f(arith.NegfOp, real))


def _cos_minus_one(e: Expansion, b: SSAValue) -> SSAValue:
    direct = e.f(arith.SubfOp, e.f(math_dialect.CosOp, b), e.constant(1.0, b))
    b2 = e.f(arith.MulfOp, b, b)
    b4 = e.f(arith.MulfOp, b2, b2)
    poly = e.constant(_COS_MINUS_ONE[0], b)
    for coefficient in _COS_MINUS_ONE[1:]:
        poly = e.f(math_dialect.FmaOp, poly, b2, e.constant(coefficient, b))
    series = e.f(
        arith.AddfOp,
        e.f(arith.MulfOp, b4, poly),
        e.f(arith.MulfOp, e.constant(-0.5, b), b2),
    )
    large = e.cmp("oge", b2, e.constant(0.61685, b))
    return e.f(arith.SelectOp, large, direct, series)


def expm1(e: Expansion, op: complex.Expm1Op) -> SSAValue:
    a, b = e.parts(op.complex)
    zero, one = e.constant(0.0, a), e.constant(1.0, a)
    grown = e.f(math_dialect.ExpM1Op, a)
    scale = e.f(arith.AddfOp, grown, one)
    sin_b = e.f(math_dialect.SinOp, b)
    cos_m1 = _cos_minus_one(e, b)
    real = e.f(arith.AddfOp, e.f(arith.MulfOp, grown, e.f(arith.AddfOp, cos_m1, one)), cos_m1)
    imag = e.f(arith.SelectOp, e.cmp("oeq", b, zero), zero, e.f(arith.MulfOp, scale, sin_b))
    return e.create(real, imag)


def log1p(e: Expansion, op: complex.Log1pOp) -> SSAValue:
    a, b = e.parts(op.complex)
    half, one = e.constant(0.5, a), e.constant(1.0, a)
    shifted = e.f(arith.AddfOp, a, one)
    abs_shifted, abs_b = e.f(math_dialect.AbsFOp, shifted), e.f(math_dialect.AbsFOp, b)
    high = e.f(arith.MaximumfOp, abs_shifted, abs_b)
    low = e.f(arith.MinimumfOp, abs_shifted, abs_b)
    real_larger = e.cmp("ogt", shifted, abs_b)
    base = e.f(arith.SelectOp, real_larger, a, e.f(arith.SubfOp, high, one))
    ratio = e.f(arith.DivfOp, low, high)
    log_base = e.f(math_dialect.Log1pOp, base)
    log_ratio = e.f(math_dialect.Log1pOp, e.f(arith.MulfOp, ratio, ratio))
    real = e.f(arith.AddfOp, e.f(arith.MulfOp, half, log_ratio), log_base)
    real = e.f(arith.SelectOp, e.cmp("uno", real, real), low, real)
    return e.create(real, e.f(math_dialect.Atan2Op, b, shifted))


def rsqrt(e: Expansion, op: complex.RsqrtOp) -> SSAValue:
    a, b = e.parts(op.complex)
    zero, inf = e.constant(0.0, a), e.constant(float("inf"), a)
    neg_half, nan = e.constant(-0.5, a), e.constant(float("nan"), a)
    abs_a, abs_b = e.f(math_dialect.AbsFOp, a), e.f(math_dialect.AbsFOp, b)
    high = e.f(arith.MaximumfOp, abs_a, abs_b)
    low = e.f(arith.MinimumfOp, abs_a, abs_b)
    ratio = e.f(arith.DivfOp, low, high)
    grown = e.f(arith.AddfOp, e.f(arith.MulfOp, ratio, ratio), e.constant(1.0, a))
    scale = e.f(
        arith.MulfOp,
        e.f(math_dialect.RsqrtOp, high),
        e.f(math_dialect.SqrtOp, e.f(math_dialect.RsqrtOp, grown)),
    )
    scale = e.f(arith.SelectOp, e.cmp("uno", scale, scale), e.f(math_dialect.RsqrtOp, low), scale)
    angle = e.f(arith.MulfOp, e.f(math_dialect.Atan2Op, b, a), neg_half)
    real = e.f(arith.MulfOp, scale, e.f(math_dialect.CosOp, angle))
    imag = e.f(arith.MulfOp, scale, e.f(math_dialect.SinOp, angle))
    zero_real = e.f(math_dialect.CopySignOp, zero, a)
    zero_imag = e.f(arith.NegfOp, e.f(math_dialect.CopySignOp, zero, b))
    b_inf = e.cmp("oeq", abs_b, inf)
    at_infinity = e.f(
        arith.OrIOp, e.f(arith.AndIOp, b_inf, e.cmp("uno", a, a)), e.cmp("oeq", abs_a, inf)
    )
    real = e.f(arith.SelectOp, at_infinity, zero_real, real)
    imag = e.f(arith.SelectOp, at_infinity, zero_imag, imag)
    at_zero = e.f(arith.AndIOp, e.cmp("oeq", a, zero), e.cmp("oeq", b, zero))
    return e.create(
        e.f(arith.SelectOp, at_zero, inf, real), e.f(arith.SelectOp, at_zero, nan, imag)
    )


def atan2(e: Expansion, op: complex.Atan2Op) -> SSAValue:
    y, x = op.lhs, op.rhs
    squares = e.add(complex.AddOp(e.add(complex.MulOp(x, x)), e.add(complex.MulOp(y, y))))
    norm = e.add(complex.SqrtOp(squares))
    zero = e.element_constant(0.0)
    i = e.create(zero, e.element_constant(1.0))
    numerator = e.add(complex.AddOp(x, e.add(complex.MulOp(i, y))))
    log = e.add(complex.LogOp(e.add(complex.DivOp(numerator, norm))))
    minus_i = e.create(zero, e.element_constant(-1.0))
    return e.add(complex.MulOp(minus_i, log))
