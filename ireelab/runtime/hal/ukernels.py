"""The micro-kernels generated kernels call: GEMM on strided 2-D tiles and convolution taps.

IREE's ukernels (`runtime/src/iree/builtins/ukernel/`, e.g. `iree_uk_mmt4d`) are a library
the executables link or import, not code each executable carries. Likewise ireelab's kernel
modules import these from here (`from ireelab.runtime.hal.ukernels import _uk_matmul_f32`),
so numba compiles each of them once per process and signature, and keeps them in its on-disk
cache, instead of once per kernel module (about a quarter of a GEMM kernel's first compile).
`compiler/codegen/ukernel_library.py` decides which ones a module imports; the executable
loader's source check allows exactly these names (`kernel_source_check.UKERNEL_NAMES`).

The hot loop is BLAS, reached through symbols the executable loader registers with LLVM
before a kernel module that imports this one is compiled (`register_ukernel_symbols`), so the
cached code names symbols, not addresses:

- `ireelab_uk_sgemm`, `ireelab_uk_dgemm`: the Fortran `sgemm` / `dgemm` of the OpenBLAS numpy
  bundles (64-bit integers), else of the BLAS scipy ships (32-bit integers). Integer arguments
  are passed as pointers to 64-bit slots holding small values, which a 32-bit-integer BLAS
  reads correctly on a little-endian host.

`_uk_matmul` (`_uk_matmul_f32`, `_uk_matmul_f64`) computes `out = op(lhs) @ op(rhs) (+ out if accumulating)` on 2-D
row-major tiles whose rows may be strided (tiles of a binding), so a tile is never copied.
Row-major `C = A @ B` is column-major `C^T = B^T @ A^T`, which is how the operands are handed
to the column-major BLAS. `_uk_gemm` takes any strided views; `_uk_conv_hwc` runs a
convolution as one GEMM per filter tap and output row.
"""

import numba
import numpy as np

_UK_GEMM_SIGNATURE = numba.types.void(*([numba.types.intp] * 13))
_uk_sgemm = numba.types.ExternalFunction("ireelab_uk_sgemm", _UK_GEMM_SIGNATURE)
_uk_dgemm = numba.types.ExternalFunction("ireelab_uk_dgemm", _UK_GEMM_SIGNATURE)


@numba.njit(nogil=True, cache=True)
def _uk_matmul(lhs, rhs, out, flags):
    # out (m x n) = op(lhs) @ op(rhs); flags: 1 accumulate, 2 lhs is k x m, 4 rhs is n x k.
    m, n = out.shape
    k = lhs.shape[0] if flags & 2 else lhs.shape[1]
    if m == 0 or n == 0:
        return
    if k == 0:
        if not flags & 1:
            out[:, :] = 0
        return
    size = out.itemsize
    ints = np.empty(6, np.int64)
    ints[0] = n
    ints[1] = m
    ints[2] = k
    ints[3] = max(rhs.strides[0] // size, 1)
    ints[4] = max(lhs.strides[0] // size, 1)
    ints[5] = max(out.strides[0] // size, 1)
    scalars = np.empty(2, out.dtype)
    scalars[0] = 1.0
    scalars[1] = 1.0 if flags & 1 else 0.0
    ops = np.empty(2, np.uint8)
    ops[0] = 84 if flags & 4 else 78  # 'T' / 'N' for the column-major first operand (rhs)
    ops[1] = 84 if flags & 2 else 78
    p = ints.ctypes.data
    s = scalars.ctypes.data
    o = ops.ctypes.data
    r, q, c = rhs.ctypes.data, lhs.ctypes.data, out.ctypes.data
    if size == 4:
        _uk_sgemm(o, o + 1, p, p + 8, p + 16, s, r, p + 24, q, p + 32, s + 4, c, p + 40)
    else:
        _uk_dgemm(o, o + 1, p, p + 8, p + 16, s, r, p + 24, q, p + 32, s + 8, c, p + 40)


_uk_matmul_f32 = _uk_matmul
"""`ireelab_uk_matmul` on f32 tiles (the name kernels call; numba specialises per type)."""
_uk_matmul_f64 = _uk_matmul
"""`ireelab_uk_matmul` on f64 tiles."""


@numba.njit(nogil=True, cache=True)
def _uk_column_major(x):
    # x's rows are adjacent in memory (or there is one row): BLAS reads it untransposed
    return x.shape[0] == 1 or x.strides[0] == x.itemsize


@numba.njit(nogil=True, cache=True)
def _uk_blas_readable(x):
    return _uk_column_major(x) or _uk_column_major(x.T)


@numba.njit(nogil=True, cache=True)
def _uk_blas_operand(x):
    # (BLAS op character, leading dimension) of a 2-D operand BLAS can read in place
    rows, cols = x.shape
    if _uk_column_major(x):
        ld = x.strides[1] // x.itemsize if cols > 1 else rows
        return 78, max(ld, rows, 1)  # 'N'
    ld = x.strides[0] // x.itemsize if rows > 1 else cols
    return 84, max(ld, cols, 1)  # 'T'


@numba.njit(nogil=True, cache=True)
def _uk_gemm_column_major(p, q, c, beta):
    # c (m x n, column-major) = p (m x k) @ q (k x n) + beta * c, by BLAS
    m, n = c.shape
    k = p.shape[1]
    ints = np.empty(6, np.int64)
    ops = np.empty(2, np.uint8)
    ints[0] = m
    ints[1] = n
    ints[2] = k
    ops[0], ints[3] = _uk_blas_operand(p)
    ops[1], ints[4] = _uk_blas_operand(q)
    ints[5] = max(c.strides[1] // c.itemsize if n > 1 else m, m, 1)
    scalars = np.empty(2, c.dtype)
    scalars[0] = 1.0
    scalars[1] = beta
    i = ints.ctypes.data
    s = scalars.ctypes.data
    o = ops.ctypes.data
    pp, qp, cp, beta_p = p.ctypes.data, q.ctypes.data, c.ctypes.data, s + c.itemsize
    if c.itemsize == 4:
        _uk_sgemm(o, o + 1, i, i + 8, i + 16, s, pp, i + 24, qp, i + 32, beta_p, cp, i + 40)
    else:
        _uk_dgemm(o, o + 1, i, i + 8, i + 16, s, pp, i + 24, qp, i + 32, beta_p, cp, i + 40)


@numba.njit(nogil=True, cache=True)
def _uk_gemm_packed(p, q, c, beta):
    # operands BLAS cannot read in place (no unit stride) are packed first
    if _uk_blas_readable(p):
        if _uk_blas_readable(q):
            _uk_gemm_column_major(p, q, c, beta)
        else:
            _uk_gemm_column_major(p, np.ascontiguousarray(q), c, beta)
    elif _uk_blas_readable(q):
        _uk_gemm_column_major(np.ascontiguousarray(p), q, c, beta)
    else:
        _uk_gemm_column_major(np.ascontiguousarray(p), np.ascontiguousarray(q), c, beta)


@numba.njit(nogil=True, cache=True)
def _uk_gemm(a, b, c, beta):
    # c (m x n) = a (m x k) @ b (k x n) + beta * c on any strided 2-D views (beta 0 or 1)
    m, n = c.shape
    k = a.shape[1]
    if m == 0 or n == 0:
        return
    if k == 0:
        if beta == 0:
            c[:, :] = 0
        return
    if _uk_column_major(c):
        _uk_gemm_packed(a, b, c, beta)
    elif _uk_column_major(c.T):
        _uk_gemm_packed(b.T, a.T, c.T, beta)  # row-major c = a @ b is column-major c^T
    else:
        t = np.empty((m, n), c.dtype)
        if beta != 0:
            t[:, :] = c
        _uk_gemm_packed(b.T, a.T, t.T, beta)
        c[:, :] = t


@numba.njit(nogil=True, cache=True)
def _uk_mmt4d(lhs, rhs, out, flags):
    # out[M1, N1, m0, n0] (+)= sum over K1 of lhs[M1, K1, m0, 0] * rhs[N1, K1, n0, 0]
    # (K0 = 1): one GEMM per output tile, (m0 x K1) @ (K1 x n0) on strided views
    beta = 1.0 if flags & 1 else 0.0
    for m1 in range(out.shape[0]):
        a = lhs[m1, :, :, 0].T
        for n1 in range(out.shape[1]):
            _uk_gemm(a, rhs[n1, :, :, 0], out[m1, n1], beta)


@numba.njit(nogil=True, cache=True)
def _uk_conv_taps(image, filt, out, sh, sw, dh, dw, flags):
    # out (OH x OW x F) (+)= sum over taps (kh, kw) of the GEMM
    #   image[oh * sh + kh * dh, kw * dw + ow * sw, :] (OW x C) @ filt[kh, kw] (C x F)
    oh_count, ow_count = out.shape[0], out.shape[1]
    kh_count, kw_count = filt.shape[0], filt.shape[1]
    if kh_count * kw_count == 0:
        if not flags & 1:
            out[:, :, :] = 0
        return
    span = (ow_count - 1) * sw + 1
    for oh in range(oh_count):
        beta = 1.0 if flags & 1 else 0.0
        for kh in range(kh_count):
            row = image[oh * sh + kh * dh]
            for kw in range(kw_count):
                start = kw * dw
                _uk_gemm(row[start : start + span : sw], filt[kh, kw], out[oh], beta)
                beta = 1.0


@numba.njit(nogil=True, cache=True)
def _uk_conv_hwc(image, filt, out, sh, sw, dh, dw, flags):
    # one image (IH x IW x C), filter (KH x KW x C x F), out (OH x OW x F), any strides;
    # flags: 1 accumulate into out. A filter whose taps BLAS cannot read is packed once.
    if filt.shape[0] * filt.shape[1] == 0 or _uk_blas_readable(filt[0, 0]):
        _uk_conv_taps(image, filt, out, sh, sw, dh, dw, flags)
    else:
        _uk_conv_taps(image, np.ascontiguousarray(filt), out, sh, sw, dh, dw, flags)
