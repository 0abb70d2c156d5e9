"""`linalg.conv_1d_ncw_fcw` and `linalg.conv_3d_ncdhw_fcdhw` (ONNX's 1-D and 3-D Conv /
ConvTranspose as torch-mlir lowers them), with strides and dilations, against numpy: sums of
at most 24 f32 products of values in [-1, 1), rtol 1e-5, atol 1e-5."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

# (op, input shape, filter shape, strides, dilations)
CASES = [
    ("conv_1d_ncw_fcw", (2, 3, 9), (4, 3, 3), (2,), (1,)),
    ("conv_3d_ncdhw_fcdhw", (1, 2, 5, 6, 4), (3, 2, 2, 3, 2), (1, 2, 1), (2, 1, 1)),
]


def _out(shape, kernel, strides, dilations) -> list[int]:
    return [
        (n - (k - 1) * d - 1) // s + 1
        for n, k, s, d in zip(shape[2:], kernel[2:], strides, dilations, strict=True)
    ]


def _program(op, x, w, strides, dilations) -> str:
    o = (x[0], w[0], *_out(x, w, strides, dilations))
    t = [f"tensor<{'x'.join(map(str, s))}xf32>" for s in (x, w, o)]
    k = len(strides)
    return f"""
func.func @conv(%x: {t[0]}, %w: {t[1]}) -> {t[2]} {{
  %c = arith.constant 0.0 : f32
  %e = tensor.empty() : {t[2]}
  %f = linalg.fill ins(%c : f32) outs(%e : {t[2]}) -> {t[2]}
  %r = linalg.{op} {{dilations = dense<{list(dilations)}> : vector<{k}xi64>, strides = dense<{list(strides)}> : vector<{k}xi64>}} ins(%x, %w : {t[0]}, {t[1]}) outs(%f : {t[2]}) -> {t[2]}
  return %r : {t[2]}
}}
"""


def _numpy(x, w, strides, dilations) -> np.ndarray:
    out = _out(x.shape, w.shape, strides, dilations)
    result = 0.0
    for taps in itertools.product(*(range(k) for k in w.shape[2:])):
        index = tuple(
            slice(t * d, t * d + (o - 1) * s + 1, s)
            for t, o, s, d in zip(taps, out, strides, dilations, strict=True)
        )
        window = x[(slice(None), slice(None), *index)]
        result = result + np.einsum("nc...,fc->nf...", window, w[(slice(None), slice(None), *taps)])
    return result


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_conv_matches_numpy(case, compile_cached) -> None:
    op, xs, ws, strides, dilations = case
    rng = np.random.default_rng(5)
    x, w = (rng.uniform(-1, 1, s).astype(np.float32) for s in (xs, ws))
    got = compile_cached(_program(op, xs, ws, strides, dilations)).conv(x, w)
    want = _numpy(x.astype(np.float64), w.astype(np.float64), strides, dilations)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
