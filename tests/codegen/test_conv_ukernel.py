"""2-D convolutions through the convolution micro-kernel (`ireelab_uk_conv_2d_*`): the
lowering is chosen (visible in the IR), and results match numpy for both layouts, batches,
strides and dilations; depthwise convolutions (`ireelab_uk_depthwise_conv_2d_*`) likewise, in NHWC and NCHW."""

from __future__ import annotations

import numpy as np
import pytest
from codegen_harness import compile_executable, parse_module, run_codegen
from dispatch_bodies import Dispatch, _load, _store, _tensor

from ireelab.compiler.codegen.convolution import match_conv, match_depthwise
from ireelab.compiler.codegen.cpu_lower_to_ukernels import CPULowerToUKernelsPass


def _conv(
    layout: str,
    n: int,
    hw: int,
    c: int,
    f: int,
    k: int,
    stride: int,
    dilation: int,
    accumulate: bool = False,
):
    """One convolution dispatch; `accumulate` adds into a third input instead of zeros."""
    span = (k - 1) * dilation + 1
    o = (hw - span) // stride + 1
    if layout == "nhwc_hwcf":
        image, filt, out = (n, hw, hw, c), (k, k, c, f), (n, o, o, f)
    else:
        image, filt, out = (n, c, hw, hw), (f, c, k, k), (n, f, o, o)
    if accumulate:
        start = _load("%3", 2, out)
    else:
        start = f"""%2 = tensor.empty() : {_tensor(out)}
        %3 = linalg.fill ins(%cst : f32) outs(%2 : {_tensor(out)}) -> {_tensor(out)}"""
    body = f"""
        %cst = arith.constant 0.000000e+00 : f32
        {_load("%0", 0, image)}
        {_load("%1", 1, filt)}
        {start}
        %4 = linalg.conv_2d_{layout} {{dilations = dense<{dilation}> : tensor<2xi64>, strides = dense<{stride}> : tensor<2xi64>}} ins(%0, %1 : {_tensor(image)}, {_tensor(filt)}) outs(%3 : {_tensor(out)}) -> {_tensor(out)}
        {_store("%4", 3 if accumulate else 2, out)}"""

    def reference(x: np.ndarray, w: np.ndarray, *initial: np.ndarray) -> np.ndarray:
        if layout == "nchw_fchw":
            x, w = x.transpose(0, 2, 3, 1), w.transpose(2, 3, 1, 0)
        result = np.zeros((n, o, o, f))
        for i in range(k):
            for j in range(k):
                rows = slice(i * dilation, i * dilation + (o - 1) * stride + 1, stride)
                cols = slice(j * dilation, j * dilation + (o - 1) * stride + 1, stride)
                result += np.einsum("nhwc,cf->nhwf", x[:, rows, cols, :], w[i, j])
        result = result if layout == "nhwc_hwcf" else result.transpose(0, 3, 1, 2)
        return result + initial[0] if initial else result

    name = f"conv_{layout}_{n}x{hw}x{c}x{f}_k{k}s{stride}d{dilation}{'_acc' if accumulate else ''}"
    inputs = [image, filt, out] if accumulate else [image, filt]
    return Dispatch(name, inputs, out, body, reference)


CASES = [
    ("nhwc_hwcf", 1, 9, 4, 8, 3, 1, 1),
    ("nhwc_hwcf", 2, 11, 3, 5, 3, 2, 1),  # batch 2, stride 2: strided image rows
    ("nhwc_hwcf", 1, 12, 4, 6, 2, 1, 3),  # dilation 3
    ("nhwc_hwcf", 1, 5, 2, 3, 1, 1, 1),  # 1x1 filter: one GEMM over all pixels
    # NHWC strategies of `_uk_conv_hwc`: im2col for few channels, one GEMM per tap otherwise
    ("nhwc_hwcf", 1, 10, 3, 300, 3, 2, 1),  # im2col; F tiled (150): a strided filter view
    ("nhwc_hwcf", 1, 8, 40, 24, 3, 1, 2),  # taps, dilation 2
    ("nhwc_hwcf", 2, 7, 40, 16, 1, 1, 1),  # 1x1 with wide channels: one GEMM
    ("nhwc_hwcf", 1, 9, 40, 8, 1, 2, 1),  # 1x1 stride 2: pixels do not merge, taps
    ("nhwc_hwcf", 1, 9, 5, 8, 1, 2, 1),  # 1x1 stride 2, few channels: im2col
    ("nhwc_hwcf", 1, 12, 4, 6, 3, 1, 1, True),  # im2col accumulating into an initial value
    ("nhwc_hwcf", 1, 6, 40, 6, 1, 1, 1, True),  # merged 1x1 accumulating
    ("nchw_fchw", 1, 9, 4, 8, 3, 1, 1),  # transposed views, packed filter
    ("nchw_fchw", 2, 10, 3, 4, 3, 2, 2),  # stride 2: packed image columns too
]


def _check_ukernel(dispatch: Dispatch, kernel: str, helper: str) -> None:
    """`dispatch` runs as `kernel` (in the IR) through `helper` (in the numba source) and
    matches its float64 reference."""
    executable = compile_executable(dispatch.text())
    assert f'ukernel.generic "{kernel}"' in str(executable.module)
    assert f"{helper}(" in executable.source
    rng = np.random.default_rng(3)
    inputs = [rng.uniform(-1, 1, s).astype(np.float32) for s in dispatch.inputs]
    out = np.full(dispatch.output, np.nan, np.float32)
    executable.run(inputs, [out])
    expected = dispatch.reference(*(a.astype(np.float64) for a in inputs))
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(map(str, c)))
def test_conv_matches_numpy(case) -> None:
    _check_ukernel(_conv(*case), f"ireelab_uk_conv_2d_{case[0]}", "_uk_conv_hwc")


def test_lowering_is_visible_and_folds_the_zero_fill() -> None:
    module = run_codegen(
        parse_module(_conv("nhwc_hwcf", 2, 11, 3, 5, 3, 2, 1).text()), until=CPULowerToUKernelsPass
    )
    text = str(module)
    assert 'iree_codegen.ukernel.generic "ireelab_uk_conv_2d_nhwc_hwcf"' in text
    assert "linalg.conv_2d" not in text and "linalg.fill" not in text
    assert "(%" in text.split("ireelab_uk_conv_2d_nhwc_hwcf")[1].split("\n")[0]


def _check_loop_nest(dispatch: Dispatch, ukernels: str | None, helper: str) -> None:
    """`dispatch` does not call `helper` and matches its reference through the loop nest."""
    executable = compile_executable(dispatch.text(ukernels))
    assert f"{helper}(" not in executable.source
    rng = np.random.default_rng(4)
    inputs = [rng.uniform(-1, 1, s).astype(np.float32) for s in dispatch.inputs]
    out = np.zeros(dispatch.output, np.float32)
    executable.run(inputs, [out])
    np.testing.assert_allclose(out, dispatch.reference(*inputs), rtol=1e-4, atol=1e-4)


def test_loops_without_ukernels() -> None:
    _check_loop_nest(_conv("nhwc_hwcf", 1, 9, 4, 8, 3, 1, 1), "none", "_uk_conv_hwc")


def _first_linalg(text: str):
    module = parse_module(text)
    return next(op for op in module.walk() if op.name.startswith("linalg.conv"))


def test_match_reads_strides_and_dilations() -> None:
    dims = match_conv(_first_linalg(_conv("nhwc_hwcf", 2, 11, 3, 5, 3, 2, 3).text()))
    assert dims is not None
    assert (dims.layout, dims.strides, dims.dilations, dims.batch) == (
        "nhwc_hwcf",
        (2, 2),
        (3, 3),
        0,
    )
    dims = match_conv(_first_linalg(_conv("nchw_fchw", 1, 9, 4, 8, 3, 1, 1).text()))
    assert dims is not None and dims.layout == "nchw_fchw" and (dims.f, dims.c) == (1, 4)


def _depthwise(layout: str, n: int, hw: int, c: int, k: int, stride: int, dilation: int, acc=False):
    """A depthwise convolution dispatch: the named NHWC op, or NCHW as a generic (what
    `linalg.depthwise_conv_2d_nchw_chw` generalises to)."""
    o = (hw - ((k - 1) * dilation + 1)) // stride + 1
    if layout == "nhwc_hwc":
        image, filt, out = (n, hw, hw, c), (k, k, c), (n, o, o, c)
        op = f"""linalg.depthwise_conv_2d_nhwc_hwc {{dilations = dense<{dilation}> : tensor<2xi64>, strides = dense<{stride}> : tensor<2xi64>}} ins(%0, %1 : {_tensor(image)}, {_tensor(filt)}) outs(%3 : {_tensor(out)}) -> {_tensor(out)}"""
    else:
        image, filt, out = (n, c, hw, hw), (c, k, k), (n, c, o, o)
        h, w = f"d2 * {stride} + d4 * {dilation}", f"d3 * {stride} + d5 * {dilation}"
        maps = (
            f"affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, {h}, {w})>, "
            "affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d4, d5)>, "
            "affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>"
        )
        iterators = '["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]'
        op = f"""linalg.generic {{indexing_maps = [{maps}], iterator_types = {iterators}}} ins(%0, %1 : {_tensor(image)}, {_tensor(filt)}) outs(%3 : {_tensor(out)}) {{
        ^bb0(%a: f32, %b: f32, %acc: f32):
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %acc, %m : f32
          linalg.yield %s : f32
        }} -> {_tensor(out)}"""
    if acc:
        start = _load("%3", 2, out)
    else:
        start = f"""%2 = tensor.empty() : {_tensor(out)}
        %3 = linalg.fill ins(%cst : f32) outs(%2 : {_tensor(out)}) -> {_tensor(out)}"""
    body = f"""
        %cst = arith.constant 0.000000e+00 : f32
        {_load("%0", 0, image)}
        {_load("%1", 1, filt)}
        {start}
        %4 = {op}
        {_store("%4", 3 if acc else 2, out)}"""

    def reference(x: np.ndarray, wt: np.ndarray, *initial: np.ndarray) -> np.ndarray:
        if layout == "nchw_chw":
            x, wt = x.transpose(0, 2, 3, 1), wt.transpose(1, 2, 0)
        result = np.zeros((n, o, o, c))
        for i in range(k):
            for j in range(k):
                rows = slice(i * dilation, i * dilation + (o - 1) * stride + 1, stride)
                cols = slice(j * dilation, j * dilation + (o - 1) * stride + 1, stride)
                result += x[:, rows, cols, :] * wt[i, j]
        result = result if layout == "nhwc_hwc" else result.transpose(0, 3, 1, 2)
        return result + initial[0] if initial else result

    name = f"dw_{layout}_{n}x{hw}x{c}_k{k}s{stride}d{dilation}{'_acc' if acc else ''}"
    return Dispatch(name, [image, filt, out] if acc else [image, filt], out, body, reference)


DEPTHWISE_CASES = [
    ("nhwc_hwc", 1, 10, 8, 3, 1, 1),  # unit stride: runs of whole pixels
    ("nhwc_hwc", 2, 11, 5, 3, 2, 1),  # batch 2, stride 2: pixel by pixel
    ("nhwc_hwc", 1, 12, 96, 3, 1, 2),  # dilation 2
    ("nchw_chw", 1, 10, 8, 3, 1, 1),  # columns at unit stride
    ("nchw_chw", 2, 11, 6, 3, 2, 2),  # stride 2, dilation 2
    ("nhwc_hwc", 1, 9, 4, 3, 1, 1, True),  # accumulating into an initial value
    ("nchw_chw", 1, 9, 4, 3, 1, 1, True),
]


@pytest.mark.parametrize("case", DEPTHWISE_CASES, ids=lambda c: "-".join(map(str, c)))
def test_depthwise_matches_numpy(case) -> None:
    kernel = f"ireelab_uk_depthwise_conv_2d_{case[0]}"
    _check_ukernel(_depthwise(*case), kernel, "_uk_depthwise_hwc")


def _depthwise_hwc_reference(image, filt, sh, sw, dh, dw, oh, ow):
    result = np.zeros((oh, ow, image.shape[2]), np.float64)
    for i in range(filt.shape[0]):
        for j in range(filt.shape[1]):
            rows = slice(i * dh, i * dh + (oh - 1) * sh + 1, sh)
            cols = slice(j * dw, j * dw + (ow - 1) * sw + 1, sw)
            result += image[rows, cols, :] * filt[i, j]
    return result


@pytest.mark.parametrize("stride", [1, 2])
@pytest.mark.parametrize("accumulate", [False, True])
@pytest.mark.parametrize("channels", [1, 40, 200])
def test_depthwise_on_channel_tiles_of_wider_arrays(stride, accumulate, channels) -> None:
    """A `?`-channel dispatch hands the micro-kernel channel tiles of wider tensors: views
    whose pixels are unit-stride runs at a stride of the whole width (numba's 'A' layout).
    Each pixel is read as a contiguous row; the tile's neighbours are never touched."""
    from ireelab.runtime.hal.ukernels import _uk_depthwise_hwc_views

    rng = np.random.default_rng(channels + stride)
    wide = channels + 24
    image = rng.standard_normal((11, 13, wide), dtype=np.float32)
    filt = rng.standard_normal((3, 3, wide), dtype=np.float32)
    oh, ow = (11 - 3) // stride + 1, (13 - 3) // stride + 1
    out = rng.standard_normal((oh, ow, wide), dtype=np.float32)
    before = out.copy()
    tile = slice(8, 8 + channels)
    expected = _depthwise_hwc_reference(
        image[:, :, tile], filt[:, :, tile], stride, stride, 1, 1, oh, ow
    )
    if accumulate:
        expected += before[:, :, tile]
    _uk_depthwise_hwc_views(
        image[:, :, tile], filt[:, :, tile], out[:, :, tile], stride, stride, 1, 1, int(accumulate)
    )
    np.testing.assert_allclose(out[:, :, tile], expected, rtol=1e-5, atol=1e-5)
    outside = np.ones(wide, bool)
    outside[tile] = False
    np.testing.assert_array_equal(out[:, :, outside], before[:, :, outside])


def test_depthwise_on_views_with_strided_channels() -> None:
    """Channels at a stride in the image (every other one): the channel-plane path, same
    results."""
    from ireelab.runtime.hal.ukernels import _uk_depthwise_hwc_views

    rng = np.random.default_rng(5)
    image = rng.standard_normal((9, 9, 16), dtype=np.float32)
    # filter and output as channel tiles too: the views of the test above (one compile)
    filt = rng.standard_normal((3, 3, 12), dtype=np.float32)[:, :, 2:10]
    out = np.zeros((7, 7, 12), np.float32)[:, :, 2:10]
    _uk_depthwise_hwc_views(image[:, :, ::2], filt, out, 1, 1, 1, 1, 0)
    expected = _depthwise_hwc_reference(image[:, :, ::2], filt, 1, 1, 1, 1, 7, 7)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)


def test_wide_depthwise_keeps_the_loop_nest() -> None:
    _check_loop_nest(_depthwise("nhwc_hwc", 1, 6, 130, 3, 1, 1), None, "_uk_depthwise_hwc")


def test_depthwise_match_reads_its_loops() -> None:
    dims = match_depthwise(
        _first_linalg_or_generic(_depthwise("nchw_chw", 1, 9, 4, 3, 2, 1).text())
    )
    assert dims is not None and (dims.layout, dims.strides, dims.f, dims.c) == (
        "nchw_chw",
        (2, 2),
        1,
        1,
    )
    assert (
        match_conv(_first_linalg_or_generic(_depthwise("nhwc_hwc", 1, 9, 4, 3, 1, 1).text()))
        is None
    )


def _first_linalg_or_generic(text: str):
    module = parse_module(text)
    return next(
        op for op in module.walk() if op.name.startswith(("linalg.depthwise", "linalg.generic"))
    )


def test_im2col_threshold_is_the_runtime_one() -> None:
    """Tile selection keeps 2-row tiles for exactly the convolutions the micro-kernel runs as
    im2col (the compiler must not import the runtime's numba module to ask)."""
    from ireelab.compiler.codegen import select_lowering_strategy
    from ireelab.runtime.hal import ukernels

    assert select_lowering_strategy.IM2COL_MAX_CHANNELS == ukernels.IM2COL_MAX_CHANNELS
