"""`linalg.conv_2d_nchw_fchw_q` (ONNX's ConvInteger through torch-mlir) end to end: exact
against a numpy convolution of the zero-point-shifted operands in int32, strided and
dilated, zero points as arguments and as constants; generalized as IREE generalizes it, and
its dispatches named and its results equal to iree-compile 3.13's."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAM = Path(__file__).parent / "programs" / "conv_2d_nchw_fchw_q.mlir"
RNG = np.random.default_rng(23)


@pytest.fixture(scope="module")
def module():
    return ireelab.compile(str(PROGRAM))


def _conv(x, k, xzp, kzp, strides, dilations) -> np.ndarray:
    x = x.astype(np.int32) - xzp
    k = k.astype(np.int32) - kzp
    n, c, h, w = x.shape
    f, _, kh, kw = k.shape
    (sh, sw), (dh, dw) = strides, dilations
    oh, ow = (h - dh * (kh - 1) - 1) // sh + 1, (w - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, f, oh, ow), np.int32)
    for i in range(kh):
        for j in range(kw):
            window = x[:, :, i * dh : i * dh + sh * oh : sh, j * dw : j * dw + sw * ow : sw]
            out += np.einsum("nchw,fc->nfhw", window, k[:, :, i, j])
    return out


def _i8(*shape: int) -> np.ndarray:
    return RNG.integers(-128, 128, size=shape, dtype=np.int8)


def _cases():
    x, k = _i8(2, 3, 7, 6), _i8(4, 3, 3, 2)
    xd, kd = _i8(1, 2, 6, 6), _i8(3, 2, 2, 2)
    return {
        "conv_q": ((x, k, np.int32(-128)), _conv(x, k, -128, -3, (2, 1), (1, 1))),
        "conv_q_dilated": (
            (xd, kd, np.int32(5), np.int32(-7)),
            _conv(xd, kd, 5, -7, (1, 1), (2, 2)),
        ),
    }


@pytest.mark.parametrize("name", sorted(_cases()))
def test_matches_numpy(module, name: str) -> None:
    args, want = _cases()[name]
    got = getattr(module, name)(*args)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, want)


def test_generalized_with_the_zero_points_in_the_body() -> None:
    flow = ireelab.compile(str(PROGRAM), compile_to="flow").ir()
    assert "conv_2d_nchw_fchw_q" not in flow
    # the constant filter zero point is folded into the body: three inputs, not four
    assert "conv_q_dispatch_0_reduction_2x4x3x5x3x3x2_i8xi8xi32xi32" in flow
    assert "arith.constant -3 : i32" in flow


needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)


@pytest.mark.iree
@needs_iree
def test_dispatch_names_and_results_match_iree(module) -> None:
    import ireelab.iree

    theirs = ireelab.iree.compile(str(PROGRAM), compile_to="flow", trace=False).ir()
    ours = ireelab.compile(str(PROGRAM), compile_to="flow").ir()
    exports = r"flow\.executable\.export public @(\w+)"
    assert re.findall(exports, ours) == re.findall(exports, theirs)
    real = ireelab.iree.compile(str(PROGRAM), trace=False)
    for name, (args, _) in _cases().items():
        np.testing.assert_array_equal(getattr(module, name)(*args), real.invoke_all(name, *args)[0])
