"""MathTransformPass: f32 tanh / exp become arithmetic, accurate to the stated bounds.

Accuracy is measured through the whole codegen path (numba kernel) against numpy in float64:
tanh within 4e-7 absolute, exp within 4e-7 relative over its normal range, and the special
values (inf, -inf, nan, overflow, underflow) as IEEE gives them.
"""

from __future__ import annotations

import numpy as np
import pytest
from codegen_harness import compile_executable, parse_module, run_codegen
from dispatch_bodies import Dispatch, _load, _store, _tensor

from ireelab.compiler.codegen.math_transform import MathTransformPass


def unary(op: str, size: int) -> Dispatch:
    t = _tensor((size,))
    operands, before = "%in", ""
    if op == "math.fma":  # x * x - (1 + 2^-11)
        operands, before = "%in, %in, %c", "%c = arith.constant -1.00048828125 : f32"
    body = f"""
        {_load("%0", 0, (size,))}
        %1 = tensor.empty() : {t}
        %2 = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}} ins(%0 : {t}) outs(%1 : {t}) {{
        ^bb0(%in: f32, %out: f32):
          {before}
          %3 = {op} {operands} : f32
          linalg.yield %3 : f32
        }} -> {t}
        {_store("%2", 1, (size,))}"""
    reference = {"math.tanh": np.tanh, "math.exp": np.exp, "math.fma": None}[op]
    return Dispatch(f"{op.replace('.', '_')}_{size}", [(size,)], (size,), body, reference)


def _run(op: str, x: np.ndarray) -> np.ndarray:
    executable = compile_executable(unary(op, x.size).text())
    out = np.full(x.size, np.nan, np.float32)
    executable.run([x.astype(np.float32)], [out])
    return out


def test_no_transcendental_call_is_left() -> None:
    text = str(run_codegen(parse_module(unary("math.tanh", 64).text()), until=MathTransformPass))
    assert "math.tanh" not in text
    assert "arith.divf" in text  # the rational form
    text = str(run_codegen(parse_module(unary("math.exp", 64).text()), until=MathTransformPass))
    assert "math.exp" not in text
    assert "arith.bitcast" in text and "arith.shli" in text  # 2^k in the exponent bits


def test_polynomials_are_fused_multiply_adds() -> None:
    # Horner steps are math.fma, as MLIR's approximations build them: no multiply feeds an add
    for op, steps in (("math.exp", 12), ("math.tanh", 9)):
        text = str(run_codegen(parse_module(unary(op, 64).text()), until=MathTransformPass))
        assert text.count("math.fma") == steps, op


def test_fma_rounds_once() -> None:
    # x = 1 + 2^-12: x * x = 1 + 2^-11 + 2^-24 exactly; rounded to f32 first it loses the
    # 2^-24 (a tie, to even) and x * x - (1 + 2^-11) is 0, fused it is exactly 2^-24
    got = _run("math.fma", np.array([1 + 2.0**-12], np.float32))[0]
    assert got == np.float32(2.0**-24)


def test_tanh_accuracy() -> None:
    x = np.concatenate([np.linspace(-10, 10, 40001), [0.0, -0.0, 1e-30, 3e-4, 5e-4, 7.9, 8.0]])
    x32 = x.astype(np.float32)
    got = _run("math.tanh", x32)
    np.testing.assert_allclose(got, np.tanh(x32.astype(np.float64)), rtol=0, atol=4e-7)
    special = _run("math.tanh", np.array([np.inf, -np.inf, np.nan], np.float32))
    # saturates at +-0.99999976, within the stated 4e-7 of +-1
    assert abs(special[0] - 1.0) < 4e-7 and abs(special[1] + 1.0) < 4e-7 and np.isnan(special[2])


def test_exp_accuracy() -> None:
    x32 = np.linspace(-87.0, 88.5, 60001).astype(np.float32)
    got = _run("math.exp", x32)
    np.testing.assert_allclose(got, np.exp(x32.astype(np.float64)), rtol=4e-7, atol=0)


@pytest.mark.parametrize(
    "value, expected",
    [(np.inf, np.inf), (100.0, np.inf), (-np.inf, 0.0), (-100.0, 0.0), (0.0, 1.0)],
)
def test_exp_special_values(value: float, expected: float) -> None:
    assert _run("math.exp", np.array([value], np.float32))[0] == expected


def test_exp_keeps_nan() -> None:
    assert np.isnan(_run("math.exp", np.array([np.nan], np.float32))[0])
