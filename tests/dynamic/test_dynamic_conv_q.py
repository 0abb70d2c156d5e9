"""ONNX's ConvInteger (`linalg.conv_2d_nchw_fchw_q`) over a `?` batch and `?` image sizes,
and over `?` input channel and filter counts too.

GeneralizeLinalgNamedOpsPass makes the convolution with zero points a generic (four inputs),
so iree-compile names its dispatch a `reduction` with a `D` for each `?` loop
(`conv_dispatch_0_reduction_Dx4xDxDx3x3x2_i8xi8xi32xi32xi32`) and takes the `?` sizes of
its operands and result as its workload; ireelab forms the same and runs it as loops over them.
One module serves every size, exact (int32) against numpy and the real IREE; past the first
call no size compiles anything. The ONNX node test itself runs with a dynamic batch in
test_onnx_dynamic_batch.py.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from flow_sites import exports, flow_of_both, needs_iree, workload_counts

import ireelab

PROGRAMS = Path(__file__).parent / "programs"
SIZES = {
    # (batch, channels, height, width) of the image, filters: from a 1x1 result to sizes no
    # tile divides (conv_q_batch's channels and filters are static: 3 and 4)
    "conv_q_batch": [(1, 3, 3, 2, 4), (2, 3, 7, 6, 4), (3, 3, 10, 33, 4), (1, 3, 4, 9, 4)],
    "conv_q_channels": [(1, 1, 3, 2, 1), (2, 5, 7, 6, 3), (1, 2, 5, 4, 260), (3, 17, 4, 9, 2)],
}
EXPORTS = {
    "conv_q_batch": ("conv_dispatch_0_reduction_Dx4xDxDx3x3x2_i8xi8xi32xi32xi32", 5),
    "conv_q_channels": ("conv_dispatch_0_reduction_DxDxDxDxDx3x2_i8xi8xi32xi32xi32", 8),
}
"""iree-compile's export name and workload size for each program."""
ZERO_POINTS = [(0, 0), (-128, 3), (5, -7), (127, -128)]


def _args(sizes, zero_points, rng):
    n, c, h, w, f = sizes
    x = rng.integers(-128, 128, size=(n, c, h, w), dtype=np.int8)
    k = rng.integers(-128, 128, size=(f, c, 3, 2), dtype=np.int8)
    return x, k, np.int32(zero_points[0]), np.int32(zero_points[1])


def _reference(x, k, xzp, kzp) -> np.ndarray:
    """Stride (2, 1), no dilation, in int32 as MLIR's op casts before subtracting."""
    x = x.astype(np.int32) - xzp
    k = k.astype(np.int32) - kzp
    oh, ow = (x.shape[2] - 3) // 2 + 1, x.shape[3] - 1
    out = np.zeros((x.shape[0], k.shape[0], oh, ow), np.int32)
    for i in range(3):
        for j in range(2):
            window = x[:, :, i : i + 2 * oh : 2, j : j + ow]
            out += np.einsum("nchw,fc->nfhw", window, k[:, :, i, j])
    return out


@pytest.fixture(scope="module")
def modules():
    # specialised kernels from the first call on (conftest's numba_compiles)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("IREELAB_GENERIC_KERNELS", "0")
        yield {name: ireelab.compile(str(PROGRAMS / f"{name}.mlir")) for name in SIZES}


@pytest.mark.parametrize("name", list(SIZES))
def test_one_kernel_runs_every_size(name, modules, numba_compiles):
    rng = np.random.default_rng(29)
    for i, (sizes, zero_points) in enumerate(zip(SIZES[name], ZERO_POINTS, strict=True)):
        if i == 1:
            numba_compiles.clear()
        args = _args(sizes, zero_points, rng)
        got = np.asarray(modules[name].conv(*args))
        assert got.dtype == np.int32
        np.testing.assert_array_equal(got, _reference(*args), err_msg=str(sizes))
    assert numba_compiles == []


@pytest.mark.iree
@needs_iree
@pytest.mark.parametrize("name", list(SIZES))
def test_dispatches_and_results_match_iree(name, modules):
    import ireelab.iree

    path = str(PROGRAMS / f"{name}.mlir")
    ours, iree_ir = flow_of_both(path)
    export, workload = EXPORTS[name]
    assert exports(ours) == exports(iree_ir) == [export]
    assert workload_counts(ours) == workload_counts(iree_ir) == [workload]
    theirs = ireelab.iree.compile(path, trace=False)
    rng = np.random.default_rng(31)
    for sizes, zero_points in zip(SIZES[name], ZERO_POINTS, strict=True):
        args = _args(sizes, zero_points, rng)
        got = modules[name].conv(*args)
        np.testing.assert_array_equal(got, theirs.invoke_all("conv", *args)[0])
