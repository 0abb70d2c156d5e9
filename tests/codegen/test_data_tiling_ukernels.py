"""Data tiling's micro-kernels. `iree_uk_mmt4d` (`runtime/hal/ukernels_mmt4d.py`): the
register-blocked f32 tile kernel against numpy's mmt4d (`einsum`) for every tile shape data tiling picks, K below,
at and past a K block, overwriting and accumulating, on strided workgroup views of a larger
output, and the BLAS fallback (f64) with the same results. `iree_uk_pack` / `iree_uk_unpack`
(`ukernels_pack.py`) against numpy's pack for both of data tiling's layouts."""

from __future__ import annotations

import numpy as np
import pytest

from ireelab.runtime.hal.executable_loader import register_ukernel_symbols
from ireelab.runtime.hal.ukernels_mmt4d import KC, TILES


def _mmt4d():
    register_ukernel_symbols()
    from ireelab.runtime.hal.ukernels import _uk_mmt4d

    return _uk_mmt4d


def _reference(lhs, rhs):
    return np.einsum("mkai,nkbi->mnab", lhs, rhs)


@pytest.mark.parametrize("tile", TILES)
@pytest.mark.parametrize("sizes", [(3, 5, 7), (2, 3, KC), (2, 2, KC + 45), (1, 1, 0)])
def test_tile_kernel_matches_numpy(tile, sizes):
    m0, n0 = tile
    m1, n1, k = sizes
    rng = np.random.default_rng(0)
    lhs = rng.standard_normal((m1, k, m0, 1), dtype=np.float32)
    rhs = rng.standard_normal((n1, k, n0, 1), dtype=np.float32)
    expected = _reference(lhs, rhs)
    kernel = _mmt4d()
    out = rng.standard_normal((m1, n1, m0, n0), dtype=np.float32)
    before = out.copy()
    kernel(lhs, rhs, out, np.int32(1))
    np.testing.assert_allclose(out, before + expected, rtol=1e-4, atol=1e-4)
    kernel(lhs, rhs, out, np.int32(0))
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4)
    # a workgroup's view of a larger result (tiles at a stride of whole tiles)
    whole = np.full((m1 + 1, n1 + 2, m0, n0), 7.0, np.float32)
    kernel(lhs, rhs, whole[1:, 1 : 1 + n1], np.int32(0))
    np.testing.assert_allclose(whole[1:, 1 : 1 + n1], expected, rtol=1e-4, atol=1e-4)
    assert (whole[0] == 7.0).all() and (whole[:, 0] == 7.0).all()


def test_other_shapes_take_the_blas_path():
    rng = np.random.default_rng(1)
    kernel = _mmt4d()
    lhs, rhs = rng.standard_normal((2, 9, 16, 1)), rng.standard_normal((3, 9, 16, 1))
    out = np.zeros((2, 3, 16, 16))
    kernel(lhs, rhs, out, np.int32(0))
    np.testing.assert_allclose(out, _reference(lhs, rhs), rtol=1e-12)
    lhs32 = rng.standard_normal((2, 9, 4, 1), dtype=np.float32)  # 4 x 4 tiles: no intrinsic
    rhs32 = rng.standard_normal((3, 9, 4, 1), dtype=np.float32)
    out32 = np.zeros((2, 3, 4, 4), np.float32)
    kernel(lhs32, rhs32, out32, np.int32(0))
    np.testing.assert_allclose(out32, _reference(lhs32, rhs32), rtol=1e-5, atol=1e-5)


def _packed(x: np.ndarray, a0: int, b0: int, pad: float) -> np.ndarray:
    """`linalg.pack` with `inner_dims_pos = [0, 1]`, tiles `a0 x b0`, in numpy."""
    rows, cols = x.shape
    a1, b1 = -(-rows // a0), -(-cols // b0)
    padded = np.full((a1 * a0, b1 * b0), pad, x.dtype)
    padded[:rows, :cols] = x
    return padded.reshape(a1, a0, b1, b0).transpose(0, 2, 1, 3).copy()


@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize(
    "case", [(5, 3, 16, 1), (37, 20, 16, 1), (32, 64, 16, 1), (33, 70, 16, 16), (64, 64, 8, 4)]
)
def test_pack_and_unpack_kernels(case, transposed):
    # iree_uk_pack / iree_uk_unpack: the lhs layout, and the rhs layout (the tensor seen
    # transposed), with partial tiles padded and the padding dropped again
    from ireelab.runtime.hal.ukernels import _uk_pack, _uk_unpack

    rows, cols, a0, b0 = case
    x = np.random.default_rng(2).standard_normal((rows, cols), dtype=np.float32)
    expected = _packed(x.T if transposed else x, a0, b0, -1.0)
    packed = np.zeros_like(expected)
    _uk_pack(x, packed, np.float32(-1.0), transposed)
    np.testing.assert_array_equal(packed, expected)
    back = np.zeros_like(x)
    _uk_unpack(expected, back, transposed)
    np.testing.assert_array_equal(back, x)
