"""`iree_linalg_ext.fft` on buffers -> loops: one radix-2 Cooley-Tukey stage.

Part of `LinalgExtToLoopsPass` (`linalg_ext_to_loops.py`). Mirrors `FftOp`'s
`generateScalarImplementation` in IREE's `LinalgExt/IR/TilingInterfaceImpl.cpp`: IREE's
iteration domain is the batch dims and the innermost dim with stride `m = 1 << stage`; each
point `k` of it updates the butterflies `(k + j, k + j + m/2)` for `j < m/2` (IREE builds
that inner loop as a `linalg.generic` on two subviews). Here the same loops are written
directly: the batch dims, then the `n >> stage` groups, then `j`. The twiddle factor is
`(real_coeff[j], imag_coeff[j])` when the op has coefficients, else `cos` / `sin` of
`-2 pi j / m`, computed as IREE does (in f32: `-2 pi` divided by `m`, times `j`; in f64 for
f64 data).
"""

from __future__ import annotations

import math

from xdsl.dialects import arith
from xdsl.dialects import math as mathd
from xdsl.dialects.builtin import (
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerType,
    ShapedType,
)
from xdsl.ir import SSAValue

from ireelab.compiler.codegen.loop_builder import LoopBuilder, close, finish_nest
from ireelab.diagnostics import CompileError
from ireelab.dialects.iree_linalg_ext_fft import FftOp


def _twiddle(
    op: FftOp, body: LoopBuilder, j: SSAValue, m: SSAValue, element
) -> tuple[SSAValue, SSAValue]:
    """`w = exp(-2 pi i j / m)` as (real, imaginary)."""
    if op.has_coefficients():
        return body.load(op.real_coeff, [j]), body.load(op.imag_coeff, [j])
    angle = body.insert(arith.ConstantOp(FloatAttr(-2 * math.pi, element)))
    angle = body.insert(arith.DivfOp(angle, _to_float(body, m, element)))
    w = body.insert(arith.MulfOp(angle, _to_float(body, j, element)))
    return body.insert(mathd.CosOp(w)), body.insert(mathd.SinOp(w))


def _to_float(builder: LoopBuilder, index: SSAValue, element) -> SSAValue:
    """index -> i32 (f32) or i64 (f64) -> float, as IREE's `indexToF32`."""
    width = 32 if isinstance(element, Float32Type) else 64
    integer = builder.insert(arith.IndexCastOp(index, IntegerType(width)))
    return builder.insert(arith.SIToFPOp(integer, element))


def _stage(builder: LoopBuilder, op: FftOp) -> SSAValue:
    if isinstance(op.stage.type, IndexType):
        return op.stage
    return builder.insert(arith.IndexCastOp(op.stage, IndexType()))


def lower_fft(op: FftOp, builder: LoopBuilder) -> None:
    shaped = op.real.type
    assert isinstance(shaped, ShapedType)
    shape = tuple(shaped.get_shape())
    element = shaped.get_element_type()
    if not isinstance(element, Float32Type | Float64Type):
        raise CompileError.at(
            op, f"'{op.name}' on {element} is not supported yet (f32 and f64 are)", stage="codegen"
        )
    stage = _stage(builder, op)
    m = builder.insert(arith.ShLIOp(builder.value(1), stage))
    half = builder.insert(arith.ShRSIOp(m, builder.value(1)))
    groups = builder.insert(arith.ShRSIOp(builder.value(shape[-1]), stage))
    counters, inner = builder.nest(shape[:-1])
    group, _, group_body, _ = inner.loop(0, groups)
    start = group_body.insert(arith.ShLIOp(group, stage))
    j, _, body, _ = group_body.loop(0, half)
    lhs = body.add(start, j)
    rhs = body.add(lhs, half)
    w_real, w_imag = _twiddle(op, body, j, m, element)
    at_lhs, at_rhs = [*counters, lhs], [*counters, rhs]
    u_real, u_imag = body.load(op.real, at_lhs), body.load(op.imag, at_lhs)
    v_real, v_imag = body.load(op.real, at_rhs), body.load(op.imag, at_rhs)
    # t = w * v: (x + yi)(u + vi) = (xu - yv) + (xv + yu)i
    t_real = body.insert(
        arith.SubfOp(
            body.insert(arith.MulfOp(w_real, v_real)), body.insert(arith.MulfOp(w_imag, v_imag))
        )
    )
    t_imag = body.insert(
        arith.AddfOp(
            body.insert(arith.MulfOp(w_real, v_imag)), body.insert(arith.MulfOp(w_imag, v_real))
        )
    )
    body.store(body.insert(arith.AddfOp(u_real, t_real)), op.real, at_lhs)
    body.store(body.insert(arith.AddfOp(u_imag, t_imag)), op.imag, at_lhs)
    body.store(body.insert(arith.SubfOp(u_real, t_real)), op.real, at_rhs)
    body.store(body.insert(arith.SubfOp(u_imag, t_imag)), op.imag, at_rhs)
    close(body)
    close(group_body)
    finish_nest(counters)
