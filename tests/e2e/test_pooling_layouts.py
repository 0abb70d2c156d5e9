"""linalg's pooling ops in the 1-D (`nwc`, `ncw`) and 3-D (`ndhwc`) layouts IREE's ONNX
importer produces (1-D and 3-D AveragePool / MaxPool / LpPool, LRN's window over channels),
with strides and dilations, compiled by ireelab against numpy and the real IREE. Sums of at
most 12 f32 values in [-1, 1): rtol 1e-5, atol 1e-6; max / min are exact."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from ireelab.iree.availability import INSTALL_HINT, is_available

TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}

# (op, layout, input shape, window, strides, dilations)
CASES = [
    ("pooling_ncw_sum", "ncw", (2, 3, 9), (3,), (2,), (1,)),
    ("pooling_ncw_max", "ncw", (1, 2, 8), (2,), (1,), (2,)),
    ("pooling_nwc_sum", "nwc", (2, 7, 3), (3,), (1,), (1,)),
    ("pooling_nwc_min", "nwc", (1, 9, 2), (2,), (2,), (2,)),
    ("pooling_ndhwc_sum", "ndhwc", (1, 5, 6, 4, 2), (3, 2, 2), (1, 2, 1), (1, 1, 2)),
    ("pooling_ndhwc_max", "ndhwc", (2, 4, 4, 4, 1), (2, 2, 2), (2, 2, 2), (1, 1, 1)),
]


def _output_shape(layout, shape, window, strides, dilations) -> tuple[int, ...]:
    spatial = iter(zip(window, strides, dilations, strict=True))
    out = []
    for letter, size in zip(layout, shape, strict=True):
        if letter in "dhw":
            k, s, d = next(spatial)
            size = (size - (k - 1) * d - 1) // s + 1
        out.append(size)
    return tuple(out)


def _program(op, layout, shape, window, strides, dilations) -> str:
    out = _output_shape(layout, shape, window, strides, dilations)
    x, w, o = (f"tensor<{'x'.join(map(str, dims))}xf32>" for dims in (shape, window, out))
    init = "0xFF800000" if op.endswith("max") else "0x7F800000" if op.endswith("min") else "0.0"
    rank = len(window)
    return f"""
func.func @pool(%x: {x}) -> {o} {{
  %c = arith.constant {init} : f32
  %e = tensor.empty() : {o}
  %f = linalg.fill ins(%c : f32) outs(%e : {o}) -> {o}
  %w = tensor.empty() : {w}
  %r = linalg.{op} {{dilations = dense<{list(dilations)}> : vector<{rank}xi64>, strides = dense<{list(strides)}> : vector<{rank}xi64>}} ins(%x, %w : {x}, {w}) outs(%f : {o}) -> {o}
  return %r : {o}
}}
"""


def _numpy(op, layout, x, window, strides, dilations) -> np.ndarray:
    """Fold every window tap's strided slice of `x` (channels moved last, then back)."""
    last = layout.startswith("nc")
    if last:
        x = np.moveaxis(x, 1, -1)
    spatial_shape = x.shape[1:-1]
    out = [
        (n - (k - 1) * d - 1) // s + 1
        for n, k, s, d in zip(spatial_shape, window, strides, dilations, strict=True)
    ]
    fold = {"sum": np.add, "max": np.maximum, "min": np.minimum}[op.rsplit("_", 1)[1]]
    result = None
    for taps in itertools.product(*(range(k) for k in window)):
        index = tuple(
            slice(t * d, t * d + (o - 1) * s + 1, s)
            for t, o, s, d in zip(taps, out, strides, dilations, strict=True)
        )
        part = x[(slice(None), *index, slice(None))]
        result = part if result is None else fold(result, part)
    return np.moveaxis(result, -1, 1) if last else result


def _input(shape) -> np.ndarray:
    return np.random.default_rng(3).uniform(-1, 1, shape).astype(np.float32)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_pooling_matches_numpy(case, compile_cached) -> None:
    op, layout, shape, window, strides, dilations = case
    x = _input(shape)
    got = compile_cached(_program(*case)).pool(x)
    want = _numpy(op, layout, x.astype(np.float64), window, strides, dilations)
    np.testing.assert_allclose(got, want, **TOLERANCE)


@pytest.mark.iree
@pytest.mark.skipif(not is_available(), reason=INSTALL_HINT)
@pytest.mark.parametrize("case", CASES[::2], ids=[c[0] for c in CASES[::2]])
def test_pooling_matches_iree(case, compile_cached) -> None:
    from ireelab import iree

    x = _input(case[2])
    source = _program(*case)
    ours = compile_cached(source).pool(x)
    theirs = iree.compile(source, trace=False).invoke_all("pool", x)
    theirs = theirs[0] if isinstance(theirs, tuple | list) else theirs
    np.testing.assert_allclose(ours, np.asarray(theirs), **TOLERANCE)


ALL_UNIT_LOOPS = """
func.func @pool(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x1x1xf32> {
  %c = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 0, 0, 0] high[0, 0, 2, 2] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %c : f32
  } : tensor<1x1x2x2xf32> to tensor<1x1x4x4xf32>
  %e = tensor.empty() : tensor<1x1x1x1xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  %w = tensor.empty() : tensor<1x1xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p, %w : tensor<1x1x4x4xf32>, tensor<1x1xf32>) outs(%f : tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  return %r : tensor<1x1x1x1xf32>
}
"""


def test_pooling_whose_loops_are_all_unit_reads_one_element(compile_cached) -> None:
    # ONNX's MaxPool with ceil_mode: a 1x1 window at stride 2 over a padded 4x4 input, every
    # loop of trip count 1; FoldUnitExtentDimsPass keeps a plainly read loop, not the window's
    x = np.array([[[[1.0, 2.0], [3.0, 4.0]]]], dtype=np.float32)
    np.testing.assert_array_equal(compile_cached(ALL_UNIT_LOOPS).pool(x), x[:, :, :1, :1])
