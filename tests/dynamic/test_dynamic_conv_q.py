"""ONNX's ConvInteger (`linalg.conv_2d_nchw_fchw_q`) over a `?` batch and `?` image sizes.

GeneralizeLinalgNamedOpsPass makes the convolution with zero points a generic (four inputs),
so iree-compile names its dispatch a `reduction` with a `D` for each `?` loop
(`conv_dispatch_0_reduction_Dx4xDxDx3x3x2_i8xi8xi32xi32xi32`) and takes the image's and
result's `?` sizes as its workload; ireelab forms the same and runs it as loops over them.
One module serves every size, exact (int32) against numpy and the real IREE; past the first
call no size compiles anything. The ONNX node test itself runs with a dynamic batch in
test_onnx_dynamic_batch.py.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAM = Path(__file__).parent / "programs" / "conv_q_batch.mlir"
SIZES = [(1, 3, 2), (2, 7, 6), (3, 10, 33), (1, 4, 9)]
"""(batch, height, width) of the image: from a 1x1 result to sizes no tile divides."""
ZERO_POINTS = [(0, 0), (-128, 3), (5, -7), (127, -128)]


def _args(sizes, zero_points, rng):
    n, h, w = sizes
    x = rng.integers(-128, 128, size=(n, 3, h, w), dtype=np.int8)
    k = rng.integers(-128, 128, size=(4, 3, 3, 2), dtype=np.int8)
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
def module():
    # specialised kernels from the first call on (conftest's numba_compiles)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("IREELAB_GENERIC_KERNELS", "0")
        yield ireelab.compile(str(PROGRAM))


def test_one_kernel_runs_every_size(module, numba_compiles):
    rng = np.random.default_rng(29)
    for i, (sizes, zero_points) in enumerate(zip(SIZES, ZERO_POINTS, strict=True)):
        if i == 1:
            numba_compiles.clear()
        args = _args(sizes, zero_points, rng)
        got = np.asarray(module.conv(*args))
        assert got.dtype == np.int32
        np.testing.assert_array_equal(got, _reference(*args), err_msg=str(sizes))
    assert numba_compiles == []


needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)


@pytest.mark.iree
@needs_iree
def test_dispatches_and_results_match_iree(module):
    import ireelab.iree

    iree_ir = ireelab.iree.compile(str(PROGRAM), compile_to="flow", trace=False).ir()
    ours = ireelab.compile(str(PROGRAM), compile_to="flow").ir()
    exports = r"flow\.executable\.export public @(\w+)"
    assert re.findall(exports, ours) == re.findall(exports, iree_ir)
    assert re.findall(exports, ours) == [
        "conv_dispatch_0_reduction_Dx4xDxDx3x3x2_i8xi8xi32xi32xi32"
    ]
    workloads = r"flow\.dispatch @[\w:@]+\[([^\]]*)\]"
    counts = [len(w.split(",")) for w in re.findall(workloads, ours)]
    assert counts == [len(w.split(",")) for w in re.findall(workloads, iree_ir)] == [5]
    theirs = ireelab.iree.compile(str(PROGRAM), trace=False)
    rng = np.random.default_rng(31)
    for sizes, zero_points in zip(SIZES, ZERO_POINTS, strict=True):
        args = _args(sizes, zero_points, rng)
        np.testing.assert_array_equal(module.conv(*args), theirs.invoke_all("conv", *args)[0])
