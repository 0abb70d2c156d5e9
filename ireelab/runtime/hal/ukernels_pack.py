"""The pack and unpack micro-kernels of data tiling (`iree_uk_pack`, `iree_uk_unpack`).

Mirrors IREE's `runtime/src/iree/builtins/ukernel/pack.c` and `unpack.c`: a 2-D tensor copied
into `M1 x N1 x M0 x N0` tiles (padding the partial last tiles with a value) and back (dropping
the padding). The two layouts data tiling makes are one kernel each, with `transposed` saying
the tensor is seen transposed: the lhs / result layout (`inner_dims_pos = [0, 1]`) is
`packed[a1, b1, a0, b0] = x[a1 * A0 + a0, b1 * B0 + b0]`, and the rhs layout
(`outer_dims_perm = [1, 0] inner_dims_pos = [1, 0]`) is the same on `x^T`.

The loops read whole tile rows where the source has them: the packed tile rows (`B0`
elements) are contiguous, so an unpack and the rhs pack copy runs of `B0` adjacent elements
(vectorised); the lhs pack with `B0 = 1` gathers `A0` rows of one column per step, which is a
transpose, reading the `A0` source rows in step so their cache lines stay in L1.
"""

import numba
import numpy as np

import ireelab.runtime.hal.ukernel_cache  # noqa: F401 (before the first cached kernel)


@numba.njit(nogil=True, cache=True, error_model="numpy")
def _uk_pack_tiles(x, packed, pad):
    # packed[a1, b1, a0, b0] = x[a1 * A0 + a0, b1 * B0 + b0], pad past x's end
    a1_count, b1_count, a0_count, b0_count = packed.shape
    rows, cols = x.shape
    for a1 in range(a1_count):
        full_rows = (a1 + 1) * a0_count <= rows
        if b0_count == 1 and full_rows:
            # one column per step: the A0 rows of the tile row are read together
            base = a1 * a0_count
            for b1 in range(min(b1_count, cols)):
                tile = packed[a1, b1]
                for a0 in range(a0_count):
                    tile[a0, 0] = x[base + a0, b1]
            for b1 in range(cols, b1_count):
                packed[a1, b1] = pad
            continue
        for b1 in range(b1_count):
            tile = packed[a1, b1]
            col0 = b1 * b0_count
            width = max(0, min(b0_count, cols - col0))
            for a0 in range(a0_count):
                row = a1 * a0_count + a0
                out = tile[a0]
                if row < rows:
                    source = x[row]
                    for b0 in range(width):
                        out[b0] = source[col0 + b0]
                    for b0 in range(width, b0_count):
                        out[b0] = pad
                else:
                    for b0 in range(b0_count):
                        out[b0] = pad


@numba.njit(nogil=True, cache=True, error_model="numpy")
def _uk_unpack_tiles(packed, x):
    # x[i, j] = packed[i // A0, j // B0, i % A0, j % B0] (the padding is never read): row by
    # row of x, a run of B0 elements from each tile, the partial last tile apart (a bound per
    # element in every run took 2.3x as long at 1024 x 1024)
    a1_count, b1_count, a0_count, b0_count = packed.shape
    rows, cols = x.shape
    full = cols // b0_count
    for a1 in range(a1_count):
        for a0 in range(min(a0_count, rows - a1 * a0_count)):
            out = x[a1 * a0_count + a0]
            for b1 in range(full):
                source = packed[a1, b1, a0]
                start = b1 * b0_count
                for b0 in range(b0_count):
                    out[start + b0] = source[b0]
            if full < b1_count:
                source = packed[a1, full, a0]
                start = full * b0_count
                for b0 in range(cols - start):
                    out[start + b0] = source[b0]


@numba.njit(nogil=True, cache=True)
def _uk_pack_any(source, packed, pad, transposed):
    if transposed:
        _uk_pack_tiles(source.T, packed, pad)
    else:
        _uk_pack_tiles(source, packed, pad)


@numba.njit(nogil=True, cache=True)
def _uk_unpack_any(packed, dest, transposed):
    if transposed:
        _uk_unpack_tiles(packed, dest.T)
    else:
        _uk_unpack_tiles(packed, dest)


@numba.njit(nogil=True, cache=True)
def _uk_pack_into(source, packed, pad, transposed):
    if packed.flags.c_contiguous:
        _uk_pack_any(source, np.ascontiguousarray(packed), pad, transposed)
    else:
        _uk_pack_any(source, packed, pad, transposed)


@numba.njit(nogil=True, cache=True)
def _uk_pack(source, packed, pad, transposed):
    """`iree_uk_pack`: `linalg.pack` of a 2-D tensor in one of data tiling's layouts."""
    # kernels pass views of their bindings, which numba types as of any layout: contiguous
    # ones are re-typed as C-contiguous (no copy), each operand on its own (a workgroup's
    # slice is often contiguous on one side only), so the loops index with constant strides
    if source.flags.c_contiguous:
        _uk_pack_into(np.ascontiguousarray(source), packed, pad, transposed)
    else:
        _uk_pack_into(source, packed, pad, transposed)


@numba.njit(nogil=True, cache=True)
def _uk_unpack_into(packed, dest, transposed):
    if dest.flags.c_contiguous:
        _uk_unpack_any(packed, np.ascontiguousarray(dest), transposed)
    else:
        _uk_unpack_any(packed, dest, transposed)


@numba.njit(nogil=True, cache=True)
def _uk_unpack(packed, dest, transposed):
    """`iree_uk_unpack`: `linalg.unpack` into a 2-D tensor, the inverse of `_uk_pack`."""
    if packed.flags.c_contiguous:
        _uk_unpack_into(np.ascontiguousarray(packed), dest, transposed)
    else:
        _uk_unpack_into(packed, dest, transposed)
