"""`math.rsqrt` at 0 and infinity: inf and 0, as IREE gives (the kernels' `arcp` would let
LLVM compute `1 / sqrt(x)` as an estimate and a Newton step, NaN at both). Exact elsewhere
to f32 rounding (rtol 1e-6) against numpy."""

from __future__ import annotations

import numpy as np

import ireelab

PROGRAM = """
func.func @rsqrt(%x: tensor<6xf32>) -> tensor<6xf32> {
  %r = math.rsqrt %x : tensor<6xf32>
  return %r : tensor<6xf32>
}
"""


def test_rsqrt_at_zero_and_infinity() -> None:
    x = np.array([0.0, np.inf, 4.0, 0.25, 1e-30, np.nan], np.float32)
    got = ireelab.compile(PROGRAM).rsqrt(x)
    with np.errstate(divide="ignore"):
        want = (1 / np.sqrt(x.astype(np.float64))).astype(np.float32)
    np.testing.assert_allclose(got, want, rtol=1e-6, equal_nan=True)
    assert got[0] == np.inf and got[1] == 0
