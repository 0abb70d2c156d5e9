"""`arith.remf` (C's `fmod`: the remainder of a division truncated toward zero, with the
dividend's sign; ONNX's Mod imports to it) on whole tensors, end to end against numpy's
`np.fmod`, exact: signs mixed, a zero divisor (nan), an infinite divisor (the dividend)."""

from __future__ import annotations

import numpy as np
import pytest

import ireelab

PROGRAM = """
func.func @rem(%a: tensor<8x{t}>, %b: tensor<8x{t}>) -> tensor<8x{t}> {{
  %r = arith.remf %a, %b : tensor<8x{t}>
  return %r : tensor<8x{t}>
}}
"""


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_remf_is_fmod(dtype) -> None:
    module = ireelab.compile(PROGRAM.format(t="f32" if dtype == np.float32 else "f64"))
    a = np.array([5.5, -5.5, 5.5, -5.5, 7.0, 0.0, 3.0, -2.25], dtype=dtype)
    b = np.array([2.0, 2.0, -2.0, -2.0, 0.0, 3.0, np.inf, 0.5], dtype=dtype)
    with np.errstate(invalid="ignore"):
        want = np.fmod(a, b)
    np.testing.assert_array_equal(module.rem(a, b), want)
