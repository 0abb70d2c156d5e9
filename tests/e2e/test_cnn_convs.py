"""CNN convolutions end to end: the programs `benchmarks/conv_suite.py` times (one convolution
with bias and ReLU, SqueezeNet 1.1's layer kinds and depthwise ones), at small sizes that take
every strategy of the convolution micro-kernels (im2col for few input channels, one GEMM for
1x1 filters, one GEMM per tap for wide ones, stride 2, depthwise), compiled by ireelab and run
on local-task, against numpy and the real IREE (rtol 1e-4, atol 1e-4: f32 sums of up to 576
products of values in [-1, 1))."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from conv_suite import conv_program, depthwise_program  # noqa: E402

from ireelab.iree.availability import INSTALL_HINT, is_available  # noqa: E402

TOLERANCE = {"rtol": 1e-4, "atol": 1e-4}

# (layout, input channels, output channels, kernel, stride, output size)
CONVS = [
    ("nhwc", 3, 16, 3, 2, 9),  # the first conv's kind: im2col
    ("nhwc", 16, 24, 3, 1, 7),  # few channels, 3x3: im2col
    ("nhwc", 40, 20, 1, 1, 6),  # 1x1 squeeze: one GEMM over the tile
    ("nhwc", 64, 32, 3, 1, 5),  # wide 3x3: one GEMM per tap
    ("nchw", 3, 16, 3, 2, 9),
    ("nchw", 40, 20, 1, 1, 6),
    ("nchw", 64, 32, 3, 1, 5),
]
DEPTHWISE = [(32, 3, 1, 10), (48, 3, 2, 6)]  # (channels, kernel, stride, output size)

PROGRAMS = [("conv", *case, conv_program(*case)) for case in CONVS] + [
    ("depthwise", *case, depthwise_program(*case)) for case in DEPTHWISE
]


def _numpy(kind: str, layout: str, x: np.ndarray, w: np.ndarray, b: np.ndarray, stride: int):
    x, w, b = (a.astype(np.float64) for a in (x, w, b))
    if layout == "nchw":
        x, w = x.transpose(0, 2, 3, 1), w.transpose(2, 3, 1, 0)
    k, out = w.shape[0], (x.shape[1] - w.shape[0]) // stride + 1
    span = (out - 1) * stride + 1
    result = 0.0
    for i in range(k):
        for j in range(k):
            window = x[:, i : i + span : stride, j : j + span : stride, :]
            if kind == "depthwise":
                result = result + window * w[i, j]
            else:
                result = result + np.einsum("nhwc,cf->nhwf", window, w[i, j])
    result = np.maximum(result + b, 0.0)
    return result if layout == "nhwc" else result.transpose(0, 3, 1, 2)


def _inputs(shapes) -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    return [rng.uniform(-1, 1, s).astype(np.float32) for s in shapes]


def _ids(program) -> str:
    return "-".join(str(p) for p in program[:-1])


@pytest.mark.parametrize("program", PROGRAMS, ids=_ids)
def test_conv_matches_numpy(program, compile_cached) -> None:
    kind, *case, (source, shapes) = program
    layout = case[0] if kind == "conv" else "nhwc"
    stride = case[4] if kind == "conv" else case[2]
    inputs = _inputs(shapes)
    result = compile_cached(source, device="local-task").conv(*inputs)
    np.testing.assert_allclose(result, _numpy(kind, layout, *inputs, stride), **TOLERANCE)


@pytest.mark.iree
@pytest.mark.skipif(not is_available(), reason=INSTALL_HINT)
@pytest.mark.parametrize("program", PROGRAMS, ids=_ids)
def test_conv_matches_iree(program, compile_cached) -> None:
    from iree import compiler, runtime

    kind, *case, (source, shapes) = program
    inputs = _inputs(shapes)
    ours = compile_cached(source, device="local-task").conv(*inputs)
    vmfb = compiler.compile_str(source, target_backends=["llvm-cpu"])
    ctx = runtime.SystemContext(config=runtime.Config("local-task"))
    ctx.add_vm_module(runtime.VmModule.copy_buffer(ctx.instance, vmfb))
    theirs = np.asarray(ctx.modules.module.conv(*inputs))
    np.testing.assert_allclose(ours, theirs, **TOLERANCE)
