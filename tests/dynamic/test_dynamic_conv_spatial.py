"""Convolutions and pools over `?` image sizes (issue 17): one module for every size.

A 1-D `ncw_fcw` over a `?` width (its result sized by the program, or an argument of its
own `?` width, or padded as torch's Conv1d pads it), 2-D `nchw_fchw` (with a `?` batch too)
and `nhwc_hwcf` (with a fused bias add), both depthwise layouts, a 3-D `ncdhw_fcdhw`, a
grouped `ngchw_fgchw`, and `nchw` max / `nhwc` sum pools, with strides and dilations. Each
program sizes its result as a framework exporter does: a `tensor.empty` whose sizes are its
own arithmetic on the image's (`affine.apply` `(s0 - 5) floordiv 2 + 1`), computed on the
host at run time.

iree-compile forms one dispatch per convolution whose workload is every `?` size of its
operands, the image's first (`[%ih, %iw, %n, %oh, %ow]`), and names the export with a `D`
for each (`conv_dispatch_0_conv_Dx3xDxDx2x3x3_f32`); ireelab forms the same. One module
runs each program here at several sizes, from the smallest the window allows (a 1x1
result) to sizes that are not multiples of any tile, against numpy and the real IREE.
The workgroups tile the result's `?` dims; each reads a window of the image whose run-time
size follows its tile's (`stride * tile + k`), the last tile the remainder. `?` channel and
filter counts are in test_dynamic_conv_channels.py; a `?` window stays refused
(programs/refused_dynamic_conv_window.mlir).
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

SIZES = {
    # image sizes (`?` dims only, in order) at which each program runs
    "conv_1d_width": [(5,), (6,), (7,), (40,), (133,)],
    "conv_1d_into_argument": [(3,), (4,), (8,), (70,)],
    "conv_1d_padded_width": [(1,), (2,), (37,), (200,)],
    "conv_nchw_spatial": [(1, 3, 5), (2, 4, 9), (3, 11, 6), (1, 30, 37)],
    "conv_nhwc_spatial": [(3, 3), (4, 7), (13, 10), (33, 31)],
    "depthwise_nhwc_spatial": [(3, 3), (4, 6), (9, 12), (31, 17)],
    "depthwise_nchw_spatial": [(5, 5), (6, 9), (21, 14)],
    "conv_3d_spatial": [(2, 2, 2), (3, 4, 5), (6, 11, 70)],
    "grouped_fgchw_spatial": [(3, 3), (4, 6), (20, 140)],
    "pool_nchw_max_spatial": [(2, 2), (3, 5), (10, 7), (33, 150)],
    "pool_nhwc_sum_spatial": [(1, 5, 5), (2, 6, 9), (3, 17, 12)],
}
TOLERANCE = dict(rtol=1e-5, atol=1e-5)
"""f32 sums of at most 27 products of values in [0, 1)."""


def _args(name: str, sizes: tuple[int, ...], rng: np.random.Generator):
    def r(*shape):
        return rng.random(shape, dtype=np.float32)

    if name == "conv_1d_width":
        return r(1, 2, *sizes), r(4, 2, 3)
    if name == "conv_1d_into_argument":  # accumulates into its third argument
        (w,) = sizes
        return r(1, 1, w), r(1, 1, 3), r(1, 1, w - 2)
    if name == "conv_1d_padded_width":
        return r(1, 4, *sizes), r(8, 4, 3), r(8)
    if name == "conv_nchw_spatial":
        n, h, w = sizes
        return r(n, 2, h, w), r(3, 2, 3, 3)
    if name == "conv_nhwc_spatial":
        return r(1, *sizes, 3), r(3, 3, 3, 4), r(4)
    if name == "depthwise_nhwc_spatial":
        return r(1, *sizes, 4), r(3, 3, 4)
    if name == "depthwise_nchw_spatial":
        return r(1, 3, *sizes), r(3, 3, 3)
    if name == "conv_3d_spatial":
        return r(1, 2, *sizes), r(3, 2, 2, 2, 2)
    if name == "grouped_fgchw_spatial":
        return r(1, 2, 2, *sizes), r(3, 2, 2, 3, 3)
    if name == "pool_nchw_max_spatial":
        return (r(1, 3, *sizes),)
    n, h, w = sizes
    return (r(n, h, w, 2),)


def _reference(name: str, *args: np.ndarray) -> np.ndarray:
    x = args[0]
    if name == "conv_1d_width":  # stride 2, dilation 2
        windows = sliding_window_view(x, 5, axis=2)[:, :, ::2, ::2]  # n c o k
        return np.einsum("ncok,fck->nfo", windows, args[1])
    if name == "conv_1d_into_argument":
        return np.einsum("ncok,fck->nfo", sliding_window_view(x, 3, axis=2), args[1]) + args[2]
    if name == "conv_1d_padded_width":  # padding 1, bias, ReLU
        padded = np.pad(x, ((0, 0), (0, 0), (1, 1)))
        windows = sliding_window_view(padded, 3, axis=2)
        return np.maximum(np.einsum("ncok,fck->nfo", windows, args[1]) + args[2][:, None], 0)
    if name == "conv_nchw_spatial":  # strides [2, 1], dilations [1, 2]
        windows = sliding_window_view(x, (3, 5), axis=(2, 3))[:, :, ::2, :, :, ::2]
        return np.einsum("ncijkl,fckl->nfij", windows, args[1])
    if name == "conv_nhwc_spatial":
        windows = sliding_window_view(x, (3, 3), axis=(1, 2))  # n oh ow c kh kw
        return np.einsum("nijckl,klcf->nijf", windows, args[1]) + args[2]
    if name == "depthwise_nhwc_spatial":  # stride 2
        windows = sliding_window_view(x, (3, 3), axis=(1, 2))[:, ::2, ::2]
        return np.einsum("nijckl,klc->nijc", windows, args[1])
    if name == "depthwise_nchw_spatial":  # dilation 2
        windows = sliding_window_view(x, (5, 5), axis=(2, 3))[..., ::2, ::2]
        return np.einsum("ncijkl,ckl->ncij", windows, args[1])
    if name == "conv_3d_spatial":  # strides [2, 1, 1]
        windows = sliding_window_view(x, (2, 2, 2), axis=(2, 3, 4))[:, :, ::2]
        return np.einsum("ncdhwxyz,fcxyz->nfdhw", windows, args[1])
    if name == "grouped_fgchw_spatial":  # stride 2; n g c h w, filter f g c kh kw
        windows = sliding_window_view(x, (3, 3), axis=(3, 4))[:, :, :, ::2, ::2]
        return np.einsum("ngcijkl,fgckl->ngfij", windows, args[1])
    if name == "pool_nchw_max_spatial":  # 2x2, stride 2
        return sliding_window_view(x, (2, 2), axis=(2, 3))[:, :, ::2, ::2].max(axis=(4, 5))
    windows = sliding_window_view(x, (5, 5), axis=(1, 2))[..., ::2, ::2]  # 3x3, dilation 2
    return windows.sum(axis=(4, 5))


def _function(name: str) -> str:
    if name == "conv_1d_into_argument":
        return "t"
    return "pool" if name.startswith("pool") else "conv"


@pytest.fixture(scope="module")
def modules():
    return {name: ireelab.compile(str(PROGRAMS / f"{name}.mlir")) for name in SIZES}


@pytest.mark.parametrize("name", list(SIZES))
def test_one_module_runs_every_size(name, modules):
    rng = np.random.default_rng(17)
    run = getattr(modules[name], _function(name))
    for sizes in SIZES[name]:
        args = _args(name, sizes, rng)
        got = np.asarray(run(*args))
        want = _reference(name, *args)
        assert got.shape == want.shape, sizes
        np.testing.assert_allclose(got, want, **TOLERANCE, err_msg=str(sizes))


def _count_tiles(name: str) -> list[int]:
    """The divisors of the export's count region (`ceildiv(workload[k], tile)` per `?` axis,
    x first), read from the IR so the test follows the tiles the strategy picks."""
    ir = ireelab.compile(str(PROGRAMS / f"{name}.mlir"), compile_to="executable-targets").ir()
    region = re.search(r"count\(%\w+: !hal\.device.*?hal\.return", ir, re.S).group(0)
    divisors = re.findall(r"arith\.divsi %\w+, (%\w+) : index", region)
    return [
        int(re.search(rf"{d} = arith\.constant (\d+) : index", region).group(1)) for d in divisors
    ]


def test_the_grid_follows_the_result_size(modules, dispatched):
    """The channels-last conv is cut into workgroups along its `?` result width (x) and
    height (y), counted at dispatch time; the last tile along each is the remainder."""
    name = "conv_nhwc_spatial"
    width_tile, row_tile = _count_tiles(name)
    rng = np.random.default_rng(5)
    for h, w in [(3, 3), (13, 10), (33, 31)]:
        dispatched.clear()
        modules[name].conv(*_args(name, (h, w), rng))
        oh, ow = h - 2, w - 2
        assert dispatched == [(-(-ow // width_tile), -(-oh // row_tile), 1)]
    assert row_tile < 31  # the largest size had a partial last row tile


def test_the_convolution_runs_the_micro_kernel_on_runtime_tiles():
    ir = ireelab.compile(
        str(PROGRAMS / "conv_nchw_spatial.mlir"), compile_to="executable-targets"
    ).ir()
    uses = re.findall(
        r'ukernel\.generic "ireelab_uk_conv_2d_nchw_fchw" ins\(%\w+, %\w+ : ([^,]+),', ir
    )
    assert uses and uses[0].startswith("memref<?x2x?x?xf32")  # batch, rows, columns at run time


def test_a_dynamic_window_stays_refused():
    with pytest.raises(ireelab.CompileError) as caught:
        ireelab.compile(str(PROGRAMS / "refused_dynamic_conv_window.mlir"))
    message = str(caught.value).splitlines()[0]
    assert re.search(
        r"refused_dynamic_conv_window\.mlir:4:3: error: \[input\] dynamic shape", message
    )
    assert "tensor<1x1x?xf32> of 'linalg.conv_1d_ncw_fcw' is not supported yet" in message


# ---- against the real IREE -----------------------------------------------------------------


@pytest.mark.iree
@needs_iree
@pytest.mark.parametrize("name", list(SIZES))
def test_dispatches_and_results_match_iree(name, modules):
    """The same export names and workload sizes as iree-compile (one entry per `?` of the
    dispatch's operands), and equal results at every size."""
    import ireelab.iree

    path = str(PROGRAMS / f"{name}.mlir")
    ours, iree_ir = flow_of_both(path)
    assert exports(ours) == exports(iree_ir)
    counts = workload_counts(ours)
    assert counts == workload_counts(iree_ir)
    assert all(n >= 2 for n in counts)  # the image's `?` sizes and the result's
    theirs = ireelab.iree.compile(path, trace=False)
    rng = np.random.default_rng(3)
    for sizes in SIZES[name]:
        args = _args(name, sizes, rng)
        want = theirs.invoke_all(_function(name), *args)
        want = want[0] if isinstance(want, tuple | list) else want
        got = getattr(modules[name], _function(name))(*args)
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), **TOLERANCE)
