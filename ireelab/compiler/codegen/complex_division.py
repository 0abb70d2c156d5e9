"""`complex.div` as IREE 3.13's ConvertComplexToStandardPass expands it.

Smith's algorithm (divide by the larger part of the divisor first, which neither overflows
nor underflows where the quotient does not), then the recovery of C99's Annex G where that
gives NaN + NaN i: a nonzero numerator over zero is an infinity with the numerator's signs
(`copysign(inf, c) * a`), an infinite numerator over a finite divisor stays infinite, and a
finite numerator over an infinite divisor is a signed zero. A helper of
`convert_complex_to_standard.py` (MLIR's `DivOpConversion`, in its default "improved" range).
"""

from __future__ import annotations

from xdsl.dialects import arith, complex
from xdsl.dialects import math as math_dialect
from xdsl.ir import SSAValue

from ireelab.compiler.codegen.complex_expansion import Expansion


def _smith(e: Expansion, a, b, c, d) -> tuple[tuple[SSAValue, SSAValue], ...]:
    """The quotient for |c| < |d| (ratio c / d) and for |c| >= |d| (ratio d / c)."""
    r = e.f(arith.DivfOp, c, d)
    t = e.f(arith.AddfOp, d, e.f(arith.MulfOp, r, c))
    narrow = (
        e.f(arith.DivfOp, e.f(arith.AddfOp, e.f(arith.MulfOp, a, r), b), t),
        e.f(arith.DivfOp, e.f(arith.SubfOp, e.f(arith.MulfOp, b, r), a), t),
    )
    r = e.f(arith.DivfOp, d, c)
    t = e.f(arith.AddfOp, c, e.f(arith.MulfOp, r, d))
    wide = (
        e.f(arith.DivfOp, e.f(arith.AddfOp, a, e.f(arith.MulfOp, b, r)), t),
        e.f(arith.DivfOp, e.f(arith.SubfOp, b, e.f(arith.MulfOp, a, r)), t),
    )
    return narrow, wide


def _unit_if_infinite(e: Expansion, is_inf: SSAValue, value: SSAValue, one, zero) -> SSAValue:
    """copysign(1, value) where value is infinite, else copysign(0, value)."""
    return e.f(math_dialect.CopySignOp, e.f(arith.SelectOp, is_inf, one, zero), value)


def _cross(e: Expansion, scale, p, q, c, d) -> tuple[SSAValue, SSAValue]:
    """scale * (p c + q d) and scale * (q c - p d): (p + q i) / (c + d i) up to |c + d i|^2."""
    real = e.f(arith.AddfOp, e.f(arith.MulfOp, p, c), e.f(arith.MulfOp, q, d))
    imag = e.f(arith.SubfOp, e.f(arith.MulfOp, q, c), e.f(arith.MulfOp, p, d))
    return e.f(arith.MulfOp, scale, real), e.f(arith.MulfOp, scale, imag)


def div(e: Expansion, op: complex.DivOp) -> SSAValue:
    (a, b), (c, d) = e.parts(op.lhs), e.parts(op.rhs)
    narrow, wide = _smith(e, a, b, c, d)
    zero = e.constant(0.0, a)
    abs_c, abs_d = e.f(math_dialect.AbsFOp, c), e.f(math_dialect.AbsFOp, d)
    c_zero, d_zero = e.cmp("oeq", abs_c, zero), e.cmp("oeq", abs_d, zero)
    numerator_ordered = e.f(arith.OrIOp, e.cmp("ord", a, zero), e.cmp("ord", b, zero))
    by_zero = e.f(arith.AndIOp, numerator_ordered, e.f(arith.AndIOp, c_zero, d_zero))
    inf = e.constant(float("inf"), a)
    signed_inf = e.f(math_dialect.CopySignOp, inf, c)
    zero_case = (e.f(arith.MulfOp, signed_inf, a), e.f(arith.MulfOp, signed_inf, b))
    divisor_finite = e.f(arith.AndIOp, e.cmp("one", abs_c, inf), e.cmp("one", abs_d, inf))
    abs_a, abs_b = e.f(math_dialect.AbsFOp, a), e.f(math_dialect.AbsFOp, b)
    a_inf, b_inf = e.cmp("oeq", abs_a, inf), e.cmp("oeq", abs_b, inf)
    infinite_numerator = e.f(arith.AndIOp, e.f(arith.OrIOp, a_inf, b_inf), divisor_finite)
    one = e.constant(1.0, a)
    a_unit, b_unit = (
        _unit_if_infinite(e, a_inf, a, one, zero),
        _unit_if_infinite(e, b_inf, b, one, zero),
    )
    inf_case = _cross(e, inf, a_unit, b_unit, c, d)
    numerator_finite = e.f(arith.AndIOp, e.cmp("one", abs_a, inf), e.cmp("one", abs_b, inf))
    c_inf, d_inf = e.cmp("oeq", abs_c, inf), e.cmp("oeq", abs_d, inf)
    infinite_divisor = e.f(arith.AndIOp, numerator_finite, e.f(arith.OrIOp, c_inf, d_inf))
    c_unit, d_unit = (
        _unit_if_infinite(e, c_inf, c, one, zero),
        _unit_if_infinite(e, d_inf, d, one, zero),
    )
    zero_result = _cross(e, zero, a, b, c_unit, d_unit)
    d_wider = e.cmp("olt", abs_c, abs_d)
    plain = [e.f(arith.SelectOp, d_wider, n, w) for n, w in zip(narrow, wide, strict=True)]
    fixed = plain
    for case, values in (
        (infinite_divisor, zero_result),
        (infinite_numerator, inf_case),
        (by_zero, zero_case),
    ):
        fixed = [e.f(arith.SelectOp, case, v, f) for v, f in zip(values, fixed, strict=True)]
    both_nan = e.f(arith.AndIOp, e.cmp("uno", plain[0], zero), e.cmp("uno", plain[1], zero))
    real, imag = (e.f(arith.SelectOp, both_nan, f, p) for f, p in zip(fixed, plain, strict=True))
    return e.create(real, imag)
