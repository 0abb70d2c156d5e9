"""`iree_uk_mmt4d` (`runtime/hal/ukernels.py` and `ukernels_mmt4d.py`): the register-blocked f32
tile kernel against numpy's mmt4d (`einsum`) for every tile shape data tiling picks, K below,
at and past a K block, overwriting and accumulating, on strided workgroup views of a larger
output, and the BLAS fallback (f64) with the same results."""

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
