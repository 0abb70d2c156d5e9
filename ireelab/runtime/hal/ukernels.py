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
convolution as im2col + GEMM (few input channels), one GEMM over the tile (1x1 filters) or one
GEMM per filter tap and output row; `_uk_depthwise_hwc` runs a depthwise convolution as
vectorised loops (no BLAS).
"""

import numba
import numpy as np

import ireelab.runtime.hal.ukernel_cache  # noqa: F401 (before the first cached kernel)
from ireelab.runtime.hal.native_intrinsics import unit_stride_row
from ireelab.runtime.hal.ukernels_mmt4d import _uk_mmt4d_f32_supported, _uk_mmt4d_f32_tiles
from ireelab.runtime.hal.ukernels_pack import _uk_pack, _uk_unpack  # noqa: F401 (kernels import them here)

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
    # (K0 = 1). f32 tiles of data tiling's shapes: the register-blocked tile kernel
    # (`ukernels_mmt4d.py`); otherwise one GEMM per output tile, (m0 x K1) @ (K1 x n0) on
    # strided views
    if _uk_mmt4d_f32_supported(lhs, rhs, out):
        _uk_mmt4d_f32_tiles(lhs, rhs, out, flags & 1)
        return
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
def _uk_gemm_rows(m, n, k, a, lda, b, ldb, c, ldc, beta, like):
    # c (m x n) = a (m x k) @ b (k x n) + beta * c on row-major matrices given by address and
    # leading dimension (elements, unit inner stride); `like` gives the element type
    ints = np.empty(6, np.int64)
    ints[0] = n
    ints[1] = m
    ints[2] = k
    ints[3] = ldb
    ints[4] = lda
    ints[5] = ldc
    scalars = np.empty(2, like.dtype)
    scalars[0] = 1.0
    scalars[1] = beta
    ops = np.empty(2, np.uint8)
    ops[0] = 78
    ops[1] = 78
    p = ints.ctypes.data
    s = scalars.ctypes.data
    o = ops.ctypes.data
    if like.itemsize == 4:
        _uk_sgemm(o, o + 1, p, p + 8, p + 16, s, b, p + 24, a, p + 32, s + 4, c, p + 40)
    else:
        _uk_dgemm(o, o + 1, p, p + 8, p + 16, s, b, p + 24, a, p + 32, s + 8, c, p + 40)


IM2COL_MAX_CHANNELS = 31
"""Convolutions with at most this many input channels run as im2col + one GEMM per block of
output rows; wider ones as one GEMM per filter tap. With few channels a tap's GEMM has a tiny
K (3 for an RGB image), which BLAS runs far from its peak; the im2col copy makes K = KH * KW * C.
Single-thread time per workgroup tile (2 output rows) against the taps: C = 3 0.81, C = 16
0.17-0.34, C = 32 0.99-1.23, C = 48 1.06-1.09, C = 64 1.07-1.21."""
IM2COL_BLOCK = 65536
"""Elements of the im2col buffer per block of output rows (256 KiB of f32: stays in L2)."""


@numba.njit(nogil=True, cache=True)
def _uk_filter_matrix(filt):
    # the HWCF filter as a (KH * KW * C) x F row-major matrix: (address, leading dim, keep)
    size = filt.itemsize
    kw_count, c_count = filt.shape[1], filt.shape[2]
    f_stride = filt.strides[3] == size or filt.shape[3] == 1
    chained = filt.strides[1] == c_count * filt.strides[2] or filt.shape[1] == 1
    chained = chained and (filt.strides[0] == kw_count * filt.strides[1] or filt.shape[0] == 1)
    if f_stride and chained and filt.strides[2] >= filt.shape[3] * size:
        return filt.ctypes.data, filt.strides[2] // size, np.empty(0, filt.dtype)
    packed = np.ascontiguousarray(filt).reshape(-1)
    return packed.ctypes.data, filt.shape[3], packed


@numba.njit(nogil=True, cache=True)
def _uk_pixel_ld(x):
    # elements between consecutive pixels of an (H x W x C) view read row-major over (h, w)
    if x.shape[1] > 1:
        return x.strides[1] // x.itemsize
    if x.shape[0] > 1:
        return x.strides[0] // x.itemsize
    return max(x.shape[2], 1)


@numba.njit(nogil=True, cache=True)
def _uk_conv_im2col(image, filt, out, sh, sw, dh, dw, flags):
    # out (OH x OW x F, unit F stride) (+)= im2col(image) (OH * OW x KH * KW * C) @ filter
    # (KH * KW * C x F), one GEMM per block of output rows (merged when out's rows are)
    oh_count, ow_count, f_count = out.shape
    kh_count, kw_count, c_count = filt.shape[0], filt.shape[1], filt.shape[2]
    k = kh_count * kw_count * c_count
    size = out.itemsize
    w, ldw, keep = _uk_filter_matrix(filt)
    rows = max(1, min(oh_count, IM2COL_BLOCK // max(ow_count * k, 1)))
    cols = np.empty((rows * ow_count, k), out.dtype)
    merged = oh_count == 1 or ow_count == 1 or out.strides[0] == ow_count * out.strides[1]
    ldo = _uk_pixel_ld(out)
    beta = 1.0 if flags & 1 else 0.0
    for oh0 in range(0, oh_count, rows):
        block = min(rows, oh_count - oh0)
        for r in range(block):
            for ow in range(ow_count):
                row = r * ow_count + ow
                for kh in range(kh_count):
                    ih = (oh0 + r) * sh + kh * dh
                    for kw in range(kw_count):
                        iw = ow * sw + kw * dw
                        base = (kh * kw_count + kw) * c_count
                        for c in range(c_count):
                            cols[row, base + c] = image[ih, iw, c]
        a = cols.ctypes.data
        if merged:
            c_ptr = out[oh0].ctypes.data
            _uk_gemm_rows(block * ow_count, f_count, k, a, k, w, ldw, c_ptr, ldo, beta, out)
        else:
            for r in range(block):
                a_ptr = a + r * ow_count * k * size
                c_ptr = out[oh0 + r].ctypes.data
                _uk_gemm_rows(ow_count, f_count, k, a_ptr, k, w, ldw, c_ptr, ldo, beta, out)
    return keep.size


@numba.njit(nogil=True, cache=True)
def _uk_conv_1x1_merged(image, filt, out, sh, sw, flags):
    # a 1x1 filter on an image whose sampled pixels are evenly spaced (rows flatten into one
    # M dimension with out's): out (OH * OW x F) (+)= image (OH * OW x C) @ filt (C x F)
    oh_count, ow_count, f_count = out.shape
    c_count = filt.shape[2]
    w, ldw, keep = _uk_filter_matrix(filt)
    lda = _uk_pixel_ld(image[: (oh_count - 1) * sh + 1 : sh, : (ow_count - 1) * sw + 1 : sw])
    ldo = _uk_pixel_ld(out)
    beta = 1.0 if flags & 1 else 0.0
    m = oh_count * ow_count
    _uk_gemm_rows(
        m, f_count, c_count, image.ctypes.data, lda, w, ldw, out.ctypes.data, ldo, beta, out
    )
    return keep.size


@numba.njit(nogil=True, cache=True)
def _uk_rows_merge(image, out, sh, sw):
    # the output pixels (row-major over oh, ow) sit at one stride in image and in out
    oh_count, ow_count = out.shape[0], out.shape[1]
    if oh_count > 1 and ow_count > 1:
        if sh * image.strides[0] != ow_count * sw * image.strides[1]:
            return False
        if out.strides[0] != ow_count * out.strides[1]:
            return False
    lda = _uk_pixel_ld(image[: (oh_count - 1) * sh + 1 : sh, : (ow_count - 1) * sw + 1 : sw])
    return lda >= image.shape[2] and _uk_pixel_ld(out) >= out.shape[2]


@numba.njit(inline="always")
def _uk_window_args(image, filt, out, sh, sw, dh, dw, flags):
    # A kernel passes its strides and dilations as constants, which numba types as literals
    # (`Literal[int](2)`), and its tiles as C- or any-layout views: each distinct combination
    # would compile the whole convolution again (~4-20 s). As IREE's ukernels take their
    # parameters at run time, the convolutions get them as int64 values and any-layout views
    # (a `::1` slice of a C-contiguous view is typed as any-layout; no copy).
    return (
        image[::1],
        filt[::1],
        out[::1],
        np.int64(sh),
        np.int64(sw),
        np.int64(dh),
        np.int64(dw),
        np.int32(flags),
    )


@numba.njit(inline="always")
def _uk_conv_hwc(image, filt, out, sh, sw, dh, dw, flags):
    # the name kernels call, inlined into them: one compiled convolution per element type
    # (`_uk_window_args`), not one per stride, dilation or output-tile layout
    _uk_conv_hwc_views(*_uk_window_args(image, filt, out, sh, sw, dh, dw, flags))


@numba.njit(nogil=True, cache=True)
def _uk_conv_hwc_views(image, filt, out, sh, sw, dh, dw, flags):
    # one image (IH x IW x C), filter (KH x KW x C x F), out (OH x OW x F), any strides;
    # flags: 1 accumulate into out. A filter whose taps BLAS cannot read is packed once.
    # Row-major out tiles (unit F stride) take a single GEMM when the filter is 1x1 and the
    # pixels merge, im2col when channels are few; otherwise one GEMM per tap and row.
    size = out.itemsize
    if out.size > 0 and filt.size > 0 and (out.strides[2] == size or out.shape[2] == 1):
        inner = image.strides[2] == size or image.shape[2] == 1
        one_tap = filt.shape[0] == 1 and filt.shape[1] == 1
        if one_tap and inner and _uk_rows_merge(image, out, sh, sw):
            _uk_conv_1x1_merged(image, filt, out, sh, sw, flags)
            return
        if filt.shape[2] <= IM2COL_MAX_CHANNELS:
            _uk_conv_im2col(image, filt, out, sh, sw, dh, dw, flags)
            return
    if filt.shape[0] * filt.shape[1] == 0 or _uk_blas_readable(filt[0, 0]):
        _uk_conv_taps(image, filt, out, sh, sw, dh, dw, flags)
    else:
        _uk_conv_taps(image, np.ascontiguousarray(filt), out, sh, sw, dh, dw, flags)


DEPTHWISE_SPAN = 256
"""Elements of an NHWC depthwise row summed per inner loop (whole pixels, channels fastest)."""


@numba.njit(nogil=True, cache=True)
def _uk_row_start(out, oh, acc, accumulate):
    # acc (OW * C, contiguous) = out[oh] (HWC tile row, channels at unit stride or one
    # channel), or zeros
    if not accumulate:
        acc[:] = 0
        return
    c_count = out.shape[2]
    for ow in range(out.shape[1]):
        pixel = unit_stride_row(out, oh, ow)
        for c in range(c_count):
            acc[ow * c_count + c] = pixel[c]


@numba.njit(nogil=True, cache=True)
def _uk_row_store(out, oh, acc):
    c_count = out.shape[2]
    for ow in range(out.shape[1]):
        pixel = unit_stride_row(out, oh, ow)
        for c in range(c_count):
            pixel[c] = acc[ow * c_count + c]


@numba.njit(nogil=True, cache=True, error_model="numpy", fastmath={"contract"})
def _uk_depthwise_runs_hwc(image, taps, out, sh, dh, dw, accumulate):
    # stride-1 columns, image (IH x IW x C) and taps C-contiguous, channels at unit stride in
    # out: a tap is one multiply-add over runs of whole pixels of the image row against the
    # tap's weights repeated per pixel, into a contiguous OW * C row buffer
    oh_count, ow_count, c_count = out.shape
    kh_count, kw_count = taps.shape[0], taps.shape[1]
    pixels = max(1, DEPTHWISE_SPAN // c_count)
    span = pixels * c_count
    repeated = np.empty((kh_count, kw_count, span), out.dtype)
    for kh in range(kh_count):
        for kw in range(kw_count):
            for p in range(pixels):
                repeated[kh, kw, p * c_count : (p + 1) * c_count] = taps[kh, kw]
    total = ow_count * c_count
    acc = np.zeros(total, out.dtype)
    for oh in range(oh_count):
        _uk_row_start(out, oh, acc, accumulate)
        for kh in range(kh_count):
            row = image[oh * sh + kh * dh].reshape(-1)
            for kw in range(kw_count):
                weights = repeated[kh, kw]
                for start in range(0, total, span):
                    count = min(span, total - start)
                    a = acc[start : start + count]
                    src = row[kw * dw * c_count + start : kw * dw * c_count + start + count]
                    for j in range(count):
                        a[j] += src[j] * weights[j]
        _uk_row_store(out, oh, acc)


@numba.njit(nogil=True, cache=True, error_model="numpy", fastmath={"contract"})
def _uk_depthwise_pixels_hwc(image, taps, out, sh, sw, dh, dw, accumulate):
    # any image view with channels at unit stride: a tap is a multiply-add over each pixel's
    # channels (long enough to vectorise when there are many), no copy of the image; each
    # pixel is taken as a contiguous row (a view of a channel tile is 'A' layout, whose
    # loops numba leaves scalar)
    oh_count, ow_count, c_count = out.shape
    kh_count, kw_count = taps.shape[0], taps.shape[1]
    acc = np.zeros(ow_count * c_count, out.dtype)
    for oh in range(oh_count):
        _uk_row_start(out, oh, acc, accumulate)
        for ow in range(ow_count):
            a = acc[ow * c_count : (ow + 1) * c_count]  # summed over every tap in L1
            for kh in range(kh_count):
                ih = oh * sh + kh * dh
                for kw in range(kw_count):
                    tap = taps[kh, kw]
                    pixel = unit_stride_row(image, ih, ow * sw + kw * dw)
                    for c in range(c_count):
                        a[c] += pixel[c] * tap[c]
        _uk_row_store(out, oh, acc)


@numba.njit(nogil=True, cache=True, error_model="numpy", fastmath={"contract"})
def _uk_depthwise_rows_chw(planes, taps, out, sh, sw, dh, dw, accumulate):
    # planes (C x IH x IW) and taps (KH x KW x C) C-contiguous; out seen as HWC with columns at
    # unit stride. Each channel's output row is summed in a contiguous buffer of OW
    oh_count, ow_count, c_count = out.shape
    kh_count, kw_count = taps.shape[0], taps.shape[1]
    line = np.zeros(ow_count, out.dtype)
    for c in range(c_count):
        plane = planes[c]
        for oh in range(oh_count):
            target = out[oh, :, c]
            for ow in range(ow_count):
                line[ow] = target[ow] if accumulate else 0
            for kh in range(kh_count):
                row = plane[oh * sh + kh * dh]
                for kw in range(kw_count):
                    weight = taps[kh, kw, c]
                    if sw == 1:
                        src = row[kw * dw : kw * dw + ow_count]
                        for ow in range(ow_count):
                            line[ow] += src[ow] * weight
                    else:
                        for ow in range(ow_count):
                            line[ow] += row[ow * sw + kw * dw] * weight
            for ow in range(ow_count):
                target[ow] = line[ow]


@numba.njit(inline="always")
def _uk_depthwise_hwc(image, filt, out, sh, sw, dh, dw, flags):
    # the name kernels call, inlined into them (as `_uk_conv_hwc`)
    _uk_depthwise_hwc_views(*_uk_window_args(image, filt, out, sh, sw, dh, dw, flags))


@numba.njit(nogil=True, cache=True)
def _uk_depthwise_hwc_views(image, filt, out, sh, sw, dh, dw, flags):
    # one image (IH x IW x C), filter (KH x KW x C), out (OH x OW x C), any strides:
    # out[oh, ow, c] (+)= sum over (kh, kw) of image[oh*sh + kh*dh, ow*sw + kw*dw, c] * filt[kh, kw, c]
    # flags: 1 accumulate into out. The loops run along whichever of channels / columns the
    # output tile (and the image) has at unit stride. NHWC: with few channels (< 128) at stride 1, runs of
    # whole pixels of a contiguous copy of the image tile; otherwise pixel by pixel on the
    # view (a copy of a channel-tiled view goes element by element). NCHW: rows of a
    # contiguous copy of the tile in CHW order (LLVM does not vectorise along rows of the
    # strided 3-D view; the copy costs about 1 / (KH * KW) of the multiply-adds at stride 1)
    if out.size == 0:
        return
    taps = np.ascontiguousarray(filt)
    unit = out.strides[2] == out.itemsize or out.shape[2] == 1
    if unit and (image.strides[2] == image.itemsize or image.shape[2] == 1):
        if sw == 1 and image.shape[2] < DEPTHWISE_SPAN // 2:
            tile = np.ascontiguousarray(image)
            _uk_depthwise_runs_hwc(tile, taps, out, sh, dh, dw, flags & 1)
        else:
            _uk_depthwise_pixels_hwc(image, taps, out, sh, sw, dh, dw, flags & 1)
    else:
        planes = np.ascontiguousarray(image.transpose((2, 0, 1)))
        _uk_depthwise_rows_chw(planes, taps, out, sh, sw, dh, dw, flags & 1)
