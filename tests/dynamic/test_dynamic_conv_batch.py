"""Convolutions and pools over a `?` batch, as ONNX exports a CNN with a dynamic batch.

2-D ones in both layouts, channels-last depthwise, grouped (`ngchw_fgchw`), 1-D (dilated)
and 3-D; pools with 1-, 2- and 3-D windows, and a 3-D max pool as the windowed
`linalg.generic` IREE's ONNX importer writes; the ONNX models themselves are in
test_dynamic_onnx_cnn.py.

iree-compile forms one dispatch per convolution, its workload the batch alone (`[%n]`),
its export named with a `D` for it (`conv_dispatch_0_conv_Dx3x4x4x2x3x3_f32`); ireelab
forms the same dispatch and runs it with the convolution micro-kernel (2-D and depthwise)
or as loops, over the batch it is given. One module serves every batch size: compared here with numpy and
with the real IREE at batch 1, 2 and 3. `?` image sizes are in test_dynamic_conv_spatial.py;
`?` channel and filter counts in test_dynamic_conv_channels.py; a `?` filter window stays
refused (tests/bad_inputs/compile/unsupported_dynamic_shape.mlir).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from flow_sites import exports, flow_of_both, needs_iree, workload_counts
from numpy.lib.stride_tricks import sliding_window_view

import ireelab
from ireelab.diagnostics import CompileError

PROGRAMS = Path(__file__).parent / "programs"

NAMES = [
    "conv_nchw_batch",
    "conv_nhwc_batch",
    "depthwise_nhwc_batch",
    "grouped_fgchw_batch",
    "conv_1d_batch",
    "conv_3d_batch",
    "pool_nchw_max_batch",
    "pool_nhwc_sum_batch",
    "pool_ncw_sum_batch",
    "pool_ndhwc_max_batch",
    "pool_window_generic_batch",
]
BATCHES = (1, 2, 3)
TOLERANCE = dict(rtol=1e-5, atol=1e-5)
"""f32 sums of at most 18 products of values in [0, 1)."""


def _args(name: str, n: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    def r(*shape):
        return rng.random(shape, dtype=np.float32)

    return {
        "conv_nchw_batch": lambda: (r(n, 2, 6, 6), r(3, 2, 3, 3)),
        "conv_nhwc_batch": lambda: (r(n, 7, 7, 2), r(3, 3, 2, 4), r(4)),
        "depthwise_nhwc_batch": lambda: (r(n, 7, 7, 3), r(3, 3, 3)),
        "grouped_fgchw_batch": lambda: (r(n, 2, 2, 5, 5), r(3, 2, 2, 3, 3)),
        "conv_1d_batch": lambda: (r(n, 2, 9), r(4, 2, 3)),
        "conv_3d_batch": lambda: (r(n, 2, 4, 4, 4), r(3, 2, 2, 2, 2)),
        "pool_nchw_max_batch": lambda: (r(n, 3, 6, 6),),
        "pool_nhwc_sum_batch": lambda: (r(n, 5, 5, 2),),
        "pool_ncw_sum_batch": lambda: (r(n, 2, 9),),
        "pool_ndhwc_max_batch": lambda: (r(n, 4, 4, 4, 2),),
        "pool_window_generic_batch": lambda: (r(n, 3, 5, 5, 5),),
    }[name]()


def _reference(name: str, *args: np.ndarray) -> np.ndarray:
    x = args[0]
    if name == "conv_nchw_batch":
        windows = sliding_window_view(x, (3, 3), axis=(2, 3))  # n c oh ow kh kw
        return np.einsum("ncijkl,fckl->nfij", windows, args[1])
    if name == "conv_nhwc_batch":
        windows = sliding_window_view(x, (3, 3), axis=(1, 2))[:, ::2, ::2]  # n oh ow c kh kw
        return np.einsum("nijckl,klcf->nijf", windows, args[1]) + args[2]
    if name == "depthwise_nhwc_batch":
        windows = sliding_window_view(x, (3, 3), axis=(1, 2))[:, ::2, ::2]  # n oh ow c kh kw
        return np.einsum("nijckl,klc->nijc", windows, args[1])
    if name == "grouped_fgchw_batch":
        windows = sliding_window_view(x, (3, 3), axis=(3, 4))  # n g c oh ow kh kw
        return np.einsum("ngcijkl,fgckl->ngfij", windows, args[1])
    if name == "conv_1d_batch":
        windows = sliding_window_view(x, 5, axis=2)[..., ::2]  # n c o k, dilation 2
        return np.einsum("ncok,fck->nfo", windows, args[1])
    if name == "conv_3d_batch":
        windows = sliding_window_view(x, (2, 2, 2), axis=(2, 3, 4))  # n c d h w kd kh kw
        return np.einsum("ncdhwxyz,fcxyz->nfdhw", windows, args[1])
    if name == "pool_nchw_max_batch":
        return sliding_window_view(x, (2, 2), axis=(2, 3))[:, :, ::2, ::2].max(axis=(4, 5))
    if name == "pool_ncw_sum_batch":
        return sliding_window_view(x, 3, axis=2)[:, :, ::2].sum(axis=3)
    if name == "pool_ndhwc_max_batch":
        return sliding_window_view(x, (2, 2, 2), axis=(1, 2, 3)).max(axis=(5, 6, 7))
    if name == "pool_window_generic_batch":
        return sliding_window_view(x, (2, 2, 2), axis=(2, 3, 4)).max(axis=(5, 6, 7))
    return sliding_window_view(x, (3, 3), axis=(1, 2)).sum(axis=(4, 5))


def _function(name: str) -> str:
    return "pool" if name.startswith("pool") else "conv"


@pytest.fixture(scope="module")
def modules():
    return {name: ireelab.compile(str(PROGRAMS / f"{name}.mlir")) for name in NAMES}


@pytest.mark.parametrize("name", NAMES)
def test_one_module_runs_every_batch(name, modules):
    rng = np.random.default_rng(17)
    run = getattr(modules[name], _function(name))
    for n in BATCHES:
        args = _args(name, n, rng)
        got = np.asarray(run(*args))
        want = _reference(name, *args)
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, **TOLERANCE)


@pytest.mark.parametrize("name", ["conv_nchw_batch", "conv_nhwc_batch"])
def test_the_convolution_runs_the_micro_kernel(name):
    ir = ireelab.compile(str(PROGRAMS / f"{name}.mlir"), compile_to="executable-targets").ir()
    layout = "nchw_fchw" if "nchw" in name else "nhwc_hwcf"
    assert f'ukernel.generic "ireelab_uk_conv_2d_{layout}"' in ir


def test_the_batch_is_the_workload():
    ir = ireelab.compile(str(PROGRAMS / "conv_nchw_batch.mlir"), compile_to="flow").ir()
    (site,) = re.findall(r"flow\.dispatch @\w+::@(\w+)\[(%\w+)\]\(([^)]*)\)", ir)
    export, workload, operands = site
    assert export == "conv_dispatch_0_conv_Dx3x4x4x2x3x3_f32"
    assert operands.split(", ")[-1] == workload  # the batch, after the two tensors


@pytest.mark.parametrize(
    "image, weights, result",
    [("1x2x6x6", "3x2x?x?", "1x3x?x?"), ("1x2x6x6", "3x2x3x?", "1x3x4x?")],
    ids=["window", "window-width"],
)
def test_other_dynamic_sizes_stay_refused(image, weights, result, tmp_path):
    path = tmp_path / "conv.mlir"
    path.write_text(
        f"func.func @f(%x: tensor<{image}xf32>, %w: tensor<{weights}xf32>, "
        f"%o: tensor<{result}xf32>) -> tensor<{result}xf32> {{\n"
        "  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, "
        "strides = dense<1> : tensor<2xi64>} "
        f"ins(%x, %w : tensor<{image}xf32>, tensor<{weights}xf32>) "
        f"outs(%o : tensor<{result}xf32>) -> tensor<{result}xf32>\n"
        f"  return %0 : tensor<{result}xf32>\n}}\n"
    )
    with pytest.raises(CompileError, match=r"2:3: .*\[input\] dynamic shape .* not supported yet"):
        ireelab.compile(str(path))


# ---- against the real IREE -----------------------------------------------------------------


@pytest.mark.iree
@needs_iree
@pytest.mark.parametrize("name", NAMES)
def test_dispatches_and_results_match_iree(name, modules):
    """The same export names and workload sizes as iree-compile, and equal results."""
    import ireelab.iree

    path = str(PROGRAMS / f"{name}.mlir")
    ours, iree_ir = flow_of_both(path)
    assert exports(ours) == exports(iree_ir)
    assert workload_counts(ours) == workload_counts(iree_ir) == [1]
    theirs = ireelab.iree.compile(path, trace=False)
    rng = np.random.default_rng(3)
    for n in BATCHES:
        args = _args(name, n, rng)
        want = theirs.invoke_all(_function(name), *args)
        want = want[0] if isinstance(want, tuple | list) else want
        got = getattr(modules[name], _function(name))(*args)
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), **TOLERANCE)


def test_a_generic_window_over_a_dynamic_dim_stays_refused(tmp_path):
    """The windowed generic is taken over a `?` batch; a window along a `?` dim (`d2 + d5` on
    a `?` depth) would need the output's size from the image's, which no rule carries yet."""
    text = (PROGRAMS / "pool_window_generic_batch.mlir").read_text()
    text = text.replace("?x3x5x5x5", "?x3x?x5x5").replace("?x3x4x4x4", "?x3x?x4x4")
    text = text.replace("tensor.empty(%n)", "tensor.empty(%n, %n)")
    path = tmp_path / "pool.mlir"
    path.write_text(text)
    with pytest.raises(
        CompileError,
        match=r"pool\.mlir:\d+:\d+: .*\[input\] dynamic shape .*'linalg\.generic' is not supported yet",
    ):
        ireelab.compile(str(path))
