"""Convolutions over `?` channel and filter counts (issue 17): one module for every size.

Channels-first `nchw_fchw` and channels-last `nhwc_hwcf` with a `?` input channel count
(the reduction's extent), a `?` filter count (the result's channels; in the channels-last
case with a bias of that many elements fused in), and both together with `?` batch and
image sizes; depthwise `nhwc_hwc` and `nchw_chw` over a `?` channel count; 1-D `ncw_fcw`,
3-D `ncdhw_fcdhw` and grouped `ngchw_fgchw` / `ngchw_gfchw` over `?` channel, filter and
group counts; `nchw` max and `nhwc` sum pools over a `?` channel count. The window stays
static: a `?` window is refused at its line
(tests/bad_inputs/compile/unsupported_dynamic_shape.mlir,
programs/refused_dynamic_conv_window.mlir).

iree-compile forms one dispatch per convolution, its workload every `?` size of its
operands and result, its export named with a `D` for each `?` loop
(`conv_dispatch_0_conv_DxDxDxDxDx3x3_f32`: n, f, oh, ow, c, then the window); ireelab forms
the same, tiles the result's `?` dims (channels in tiles of 256) and runs the convolution
micro-kernel (2-D, depthwise) or loops (1-D, 3-D, grouped) on tiles whose channel and
filter counts are read at run time. Each program
runs here at several sizes, from a single channel and filter to counts past one tile
(260), against numpy and the real IREE; past the first call no size compiles anything.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from flow_sites import exports, flow_of_both, needs_iree, workload_counts
from numpy.lib.stride_tricks import sliding_window_view

import ireelab

PROGRAMS = Path(__file__).parent / "programs"

LAYOUTS = {
    # layout, strides, dilations; "+bias" when the program adds a bias per filter
    "conv_nchw_in_channels": ("nchw_fchw", (1, 1), (1, 1)),
    "conv_nchw_filters": ("nchw_fchw", (2, 2), (1, 1)),
    "conv_nchw_channels": ("nchw_fchw", (2, 1), (1, 2)),
    "conv_nhwc_in_channels": ("nhwc_hwcf+bias", (1, 1), (1, 1)),
    "conv_nhwc_filters": ("nhwc_hwcf+bias", (1, 1), (1, 1)),
    "conv_nhwc_channels": ("nhwc_hwcf", (2, 2), (1, 1)),
    "depthwise_nhwc_channels": ("nhwc_hwc", (2, 2), (1, 1)),
    "depthwise_nchw_channels": ("nchw_chw", (1, 1), (2, 2)),
    "conv_1d_channels": ("ncw_fcw", (2,), (2,)),
    "conv_3d_channels": ("ncdhw_fcdhw", (1, 1, 1), (1, 1, 1)),
    "grouped_fgchw_channels": ("ngchw_fgchw", (1, 1), (1, 1)),
    "grouped_gfchw_channels": ("ngchw_gfchw", (2, 2), (1, 1)),
    "pool_nchw_max_channels": ("pool_nchw_max", (2, 2), (1, 1)),  # a 2x2 window
    "pool_nhwc_sum_channels": ("pool_nhwc_sum", (1, 1), (2, 2)),  # a 3x3 window
}
SHAPES = {
    # (image, filter) shapes at which each program runs (the bias, if any, has f elements)
    "conv_nchw_in_channels": [((1, c, 7, 7), (3, c, 3, 3)) for c in (1, 2, 5, 33)],
    "conv_nchw_filters": [
        ((1, 2, 3, 3), (1, 2, 3, 3)),
        ((2, 2, 7, 8), (5, 2, 3, 3)),
        ((1, 2, 9, 5), (260, 2, 3, 3)),
        ((3, 2, 12, 10), (17, 2, 3, 3)),
    ],
    "conv_nchw_channels": [
        ((1, 1, 3, 5), (1, 1, 3, 3)),
        ((2, 3, 9, 11), (5, 3, 3, 3)),
        ((1, 17, 7, 6), (9, 17, 3, 3)),
        ((1, 2, 4, 6), (260, 2, 3, 3)),
        ((2, 40, 12, 13), (70, 40, 3, 3)),
    ],
    "conv_nhwc_in_channels": [
        ((1, h, w, c), (3, 3, c, 4)) for h, w, c in [(3, 3, 1), (4, 7, 3), (9, 6, 33), (13, 10, 2)]
    ],
    "conv_nhwc_filters": [((1, 6, 7, 3), (3, 3, 3, f)) for f in (1, 4, 7, 260)],
    "conv_nhwc_channels": [
        ((1, 2, 2, 1), (2, 2, 1, 1)),
        ((2, 5, 6, 3), (2, 2, 3, 4)),
        ((1, 9, 7, 20), (2, 2, 20, 260)),
        ((3, 4, 11, 7), (2, 2, 7, 1)),
    ],
    "depthwise_nhwc_channels": [
        ((1, h, w, c), (3, 3, c)) for h, w, c in [(3, 3, 1), (4, 6, 5), (9, 12, 260), (7, 5, 3)]
    ],
    "depthwise_nchw_channels": [
        ((1, 1, 5, 5), (1, 3, 3)),
        ((2, 3, 6, 9), (3, 3, 3)),
        ((1, 260, 5, 6), (260, 3, 3)),
        ((3, 7, 11, 8), (7, 3, 3)),
    ],
    "conv_1d_channels": [
        ((1, 1, 5), (1, 1, 3)),
        ((2, 3, 12), (5, 3, 3)),
        ((1, 20, 40), (300, 20, 3)),
        ((3, 2, 7), (1, 2, 3)),
    ],
    "conv_3d_channels": [
        ((1, c, 5, 6, 7), (f, c, 2, 2, 2)) for c, f in [(1, 1), (3, 5), (7, 260), (2, 1)]
    ],
    "grouped_fgchw_channels": [
        ((1, g, c, 6, 6), (f, g, c, 3, 3)) for g, c, f in [(1, 1, 1), (2, 3, 4), (3, 5, 7)]
    ],
    "grouped_gfchw_channels": [
        ((1, 1, 1, 3, 3), (1, 1, 1, 3, 3)),
        ((2, 2, 3, 7, 8), (2, 4, 3, 3, 3)),
        ((1, 3, 2, 9, 5), (3, 260, 2, 3, 3)),
        ((3, 4, 1, 10, 12), (4, 1, 1, 3, 3)),
    ],
    # pools: (image, window) shapes, the window only for the reference
    "pool_nchw_max_channels": [
        ((1, 1, 2, 2), (2, 2)),
        ((2, 5, 7, 6), (2, 2)),
        ((1, 260, 4, 5), (2, 2)),
        ((3, 3, 11, 9), (2, 2)),
    ],
    "pool_nhwc_sum_channels": [((1, 7, 8, c), (3, 3)) for c in (1, 2, 260, 17)],
}
TOLERANCE = dict(rtol=1e-5, atol=1e-5)
"""f32 sums of at most 360 products of values in [0, 1) (40 channels of a 3x3 window)."""


def _args(name: str, shapes, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    image, weights = (rng.random(s, dtype=np.float32) for s in shapes)
    if name.startswith("pool"):
        return (image,)
    if not LAYOUTS[name][0].endswith("+bias"):
        return image, weights
    return image, weights, rng.random(weights.shape[-1], dtype=np.float32)


EQUATIONS = {
    "nchw_fchw": "ncijkl,fckl->nfij",
    "nhwc_hwcf+bias": "nijckl,klcf->nijf",
    "nhwc_hwcf": "nijckl,klcf->nijf",
    "nhwc_hwc": "nijckl,klc->nijc",
    "nchw_chw": "ncijkl,ckl->ncij",
    "ncw_fcw": "ncok,fck->nfo",
    "ncdhw_fcdhw": "ncdhwxyz,fcxyz->nfdhw",
    "ngchw_fgchw": "ngcijkl,fgckl->ngfij",
    "ngchw_gfchw": "ngcijkl,gfckl->ngfij",
}
POOL_WINDOWS = {"pool_nchw_max_channels": (2, 2), "pool_nhwc_sum_channels": (3, 3)}
"""Each layout's convolution over the image's windows (the window's dims last)."""


def _reference(name: str, x: np.ndarray, *operands: np.ndarray) -> np.ndarray:
    layout, strides, dilations = LAYOUTS[name]
    rank = len(strides)
    channels_last = "nhwc" in layout
    image_axes = tuple(range(1, 1 + rank)) if channels_last else tuple(range(x.ndim - rank, x.ndim))
    if layout.startswith("pool"):
        window = POOL_WINDOWS[name]
    else:
        w = operands[0]
        window = w.shape[:rank] if channels_last else w.shape[-rank:]
    span = tuple((k - 1) * d + 1 for k, d in zip(window, dilations, strict=True))
    windows = sliding_window_view(x, span, axis=image_axes)  # the window's dims appended
    picks = [slice(None)] * windows.ndim
    for axis, stride in zip(image_axes, strides, strict=True):
        picks[axis] = slice(None, None, stride)
    for i, dilation in enumerate(dilations):
        picks[x.ndim + i] = slice(None, None, dilation)
    windows = windows[tuple(picks)]
    if layout == "pool_nchw_max":
        return windows.max(axis=(-2, -1))
    if layout == "pool_nhwc_sum":
        return windows.sum(axis=(-2, -1))
    result = np.einsum(EQUATIONS[layout], windows, w)
    return result + operands[1] if len(operands) > 1 else result


def _function(name: str) -> str:
    return "pool" if name.startswith("pool") else "conv"


@pytest.fixture(scope="module")
def modules():
    # the specialised kernels from the first call on (no background swap from the generic
    # tier mid-test), so a compile past the first call is one a size caused
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("IREELAB_GENERIC_KERNELS", "0")
        yield {name: ireelab.compile(str(PROGRAMS / f"{name}.mlir")) for name in SHAPES}


@pytest.mark.parametrize("name", list(SHAPES))
def test_one_kernel_runs_every_size(name, modules, numba_compiles):
    """Equal to numpy at every size; once the first size has run, no other size compiles
    a kernel (one kernel, its channel and filter counts read at run time)."""
    rng = np.random.default_rng(17)
    run = getattr(modules[name], _function(name))
    for i, shapes in enumerate(SHAPES[name]):
        if i == 1:
            numba_compiles.clear()
        args = _args(name, shapes, rng)
        got = np.asarray(run(*args))
        want = _reference(name, *args)
        assert got.shape == want.shape, shapes
        np.testing.assert_allclose(got, want, **TOLERANCE, err_msg=str(shapes))
    assert numba_compiles == []


@pytest.mark.parametrize(
    "name, kernel, image, weights",
    [
        ("conv_nchw_channels", "conv_2d_nchw_fchw", "?x?x?x?", "?x?x3x3"),
        ("conv_nhwc_channels", "conv_2d_nhwc_hwcf", "?x?x?x?", "2x2x?x?"),
        ("depthwise_nhwc_channels", "depthwise_conv_2d_nhwc_hwc", "?x?x?", "3x3x?"),
        ("depthwise_nchw_channels", "depthwise_conv_2d_nchw_chw", "?x?x?x?", "?x3x3"),
    ],
)
def test_the_micro_kernel_takes_channels_at_run_time(name, kernel, image, weights):
    """The micro-kernel call takes memrefs whose channel and filter counts are `?` (the
    channels-last depthwise one without its unit batch, which FoldUnitExtentDimsPass drops)."""
    ir = ireelab.compile(str(PROGRAMS / f"{name}.mlir"), compile_to="executable-targets").ir()
    uses = re.findall(
        rf'ukernel\.generic "ireelab_uk_{kernel}" ins\(%\w+, %\w+ : memref<([^,]+)xf32, '
        r"[^>]*>>, memref<([^,]+)xf32",
        ir,
    )
    assert uses == [(image, weights)]


# ---- against the real IREE -----------------------------------------------------------------


@pytest.mark.iree
@needs_iree
@pytest.mark.parametrize("name", list(SHAPES))
def test_dispatches_and_results_match_iree(name, modules):
    """The same export names and workload sizes as iree-compile, and equal results at
    every size."""
    import ireelab.iree

    path = str(PROGRAMS / f"{name}.mlir")
    ours, iree_ir = flow_of_both(path)
    assert exports(ours) == exports(iree_ir)
    assert workload_counts(ours) == workload_counts(iree_ir)
    theirs = ireelab.iree.compile(path, trace=False)
    rng = np.random.default_rng(3)
    for shapes in SHAPES[name]:
        args = _args(name, shapes, rng)
        want = theirs.invoke_all(_function(name), *args)
        want = want[0] if isinstance(want, tuple | list) else want
        got = getattr(modules[name], _function(name))(*args)
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), **TOLERANCE)
