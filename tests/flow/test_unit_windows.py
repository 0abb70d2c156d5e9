"""Unit loops inside windows and pads, and inits that are read, as IREE 3.13's dispatch creation
folds them (FoldUnitExtentDimsPass with MLIR's DropUnitDims, DropPadUnitDims and
MoveInitOperandsToInput): what makes SqueezeNet form IREE's 30 dispatches. Each program's
expected names are what `iree-compile --compile-to=flow` prints for it (the differential test
`test_iree_differential.py` checks them against the real IREE too); results against numpy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import ireelab
from ireelab.notebook.summary import dispatches_in

PROGRAMS = Path(__file__).parent / "programs"
RNG = np.random.default_rng(7)


def _names(program: str) -> list[str]:
    text = (PROGRAMS / program).read_text()
    return [d.export for d in dispatches_in(ireelab.compile(text, compile_to="flow").ir())]


def _rand(*shape) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def _conv1x1(x, w, b):
    return np.maximum(np.einsum("nchw,fc->nfhw", x, w[:, :, 0, 0]) + b[None, :, None, None], 0)


def _relu_pad_pool(x):
    padded = np.full((1, 4, 7, 7), -np.inf, np.float32)
    padded[:, :, :5, :5] = np.maximum(x, 0)
    windows = [
        padded[:, :, 2 * i : 2 * i + 3, 2 * j : 2 * j + 3] for i in range(3) for j in range(3)
    ]
    return np.stack([w.max(axis=(2, 3)) for w in windows], -1).reshape(1, 4, 3, 3)


CASES = {
    # a 1x1 window `d1 + d4` with d4 of size 1 reads as d1: the conv is matmul-like
    "unit_window_conv1x1.mlir": (
        ["conv1x1_dispatch_0_matmul_like_4x36x8_f32"],
        lambda: (_rand(1, 8, 6, 6), _rand(4, 8, 1, 1), _rand(4)),
        _conv1x1,
    ),
    # a pooling to 1x1 is a plain reduction, and its divide joins it as a consumer
    "unit_window_global_avg_pool.mlir": (
        ["global_avg_pool_dispatch_0_reduction_10x9_f32"],
        lambda: (_rand(1, 10, 3, 3),),
        lambda x: x.mean(axis=(2, 3), keepdims=True),
    ),
    # the batch-1 pad is 3-D, so its insert_slice joins the producer's dispatch
    "unit_pad_batch1_pool.mlir": (
        [
            "relu_pad_pool_dispatch_0_elementwise_4x5x5_f32",
            "relu_pad_pool_dispatch_1_conv_4x3x3x3x3_f32",
        ],
        lambda: (_rand(1, 4, 5, 5),),
        _relu_pad_pool,
    ),
    # the read init moves to the inputs: an elementwise op, not a broadcast
    "init_read_moved_to_input.mlir": (
        ["scale_dispatch_0_elementwise_6_f32"],
        lambda: (_rand(6), np.float32(2.5).reshape(())),
        lambda x, s: x / s,
    ),
}


@pytest.mark.parametrize("program", sorted(CASES))
def test_dispatches_named_as_iree(program):
    assert _names(program) == CASES[program][0]


@pytest.mark.parametrize("program", sorted(CASES))
def test_results_match_numpy(program):
    _, make_args, expected = CASES[program]
    args = make_args()
    module = ireelab.compile((PROGRAMS / program).read_text())
    (function,) = [f for f in module.functions if not f.startswith("__")]
    result = getattr(module, function)(*args)
    np.testing.assert_allclose(result, expected(*args), rtol=1e-5, atol=1e-6)
