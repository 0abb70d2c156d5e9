"""The micro-kernels a numba-python executable can call, as Python source for its module.

IREE links its ukernels (`runtime/src/iree/builtins/ukernel/`, e.g. `iree_uk_mmt4d`) into each
executable as bitcode, or resolves them as imports from the runtime. ireelab's micro-kernels are
numba functions written into the kernel module beside the `dispatch_<i>` kernels that call
them; the hot loop is BLAS, reached through symbols the runtime's executable loader registers
with LLVM before it imports the module (so numba's on-disk cache of the kernels stays valid
from process to process: the compiled code names the symbols, not addresses):

- `ireelab_uk_sgemm`, `ireelab_uk_dgemm`: the Fortran `sgemm` / `dgemm` scipy ships
  (`scipy.linalg.cython_blas`, the same BLAS numba's `np.dot` calls);
- `ireelab_uk_blas_threads_local`: OpenBLAS's per-thread thread count. A workgroup runs on one
  worker of the local-task device, so its GEMM runs single-threaded (the runtime already uses
  every core; nested BLAS threads would fight it); the caller's setting is restored after.

`ireelab_uk_matmul` (the name `CPULowerToUKernelsPass` puts in `iree_codegen.ukernel.generic`)
computes `out = op(lhs) @ op(rhs) (+ out if accumulating)` on 2-D row-major tiles whose rows
may be strided (tiles of a binding: the leading dimension is the binding's row length), so a
tile is never copied. Row-major `C = A @ B` is column-major `C^T = B^T @ A^T`, which is how the
operands are handed to the column-major BLAS.
"""

from __future__ import annotations

BLAS_SYMBOLS = ("ireelab_uk_sgemm", "ireelab_uk_dgemm", "ireelab_uk_blas_threads_local")
"""Symbols the executable loader must register before importing a module that uses them."""

_DECLARATIONS = """\
_UK_GEMM_SIGNATURE = numba.types.void(*([numba.types.intp] * 13))
_uk_sgemm = numba.types.ExternalFunction("ireelab_uk_sgemm", _UK_GEMM_SIGNATURE)
_uk_dgemm = numba.types.ExternalFunction("ireelab_uk_dgemm", _UK_GEMM_SIGNATURE)
_uk_blas_threads_local = numba.types.ExternalFunction(
    "ireelab_uk_blas_threads_local", numba.types.intc(numba.types.intc)
)
"""

_MATMUL_TEMPLATE = """\
@numba.njit(nogil=True, cache=True)
def _uk_matmul_{suffix}(lhs, rhs, out, flags):
    # out (m x n) = op(lhs) @ op(rhs); flags: 1 accumulate, 2 lhs is k x m, 4 rhs is n x k.
    m, n = out.shape
    k = lhs.shape[0] if flags & 2 else lhs.shape[1]
    if m == 0 or n == 0:
        return
    if k == 0:
        if not flags & 1:
            out[:, :] = 0
        return
    ints = np.empty(6, np.int32)
    ints[0] = n
    ints[1] = m
    ints[2] = k
    ints[3] = max(rhs.strides[0] // {itemsize}, 1)
    ints[4] = max(lhs.strides[0] // {itemsize}, 1)
    ints[5] = max(out.strides[0] // {itemsize}, 1)
    scalars = np.empty(2, np.{dtype})
    scalars[0] = 1.0
    scalars[1] = 1.0 if flags & 1 else 0.0
    ops = np.empty(2, np.uint8)
    ops[0] = 84 if flags & 4 else 78  # 'T' / 'N' for the column-major first operand (rhs)
    ops[1] = 84 if flags & 2 else 78
    p = ints.ctypes.data
    s = scalars.ctypes.data
    o = ops.ctypes.data
    previous = _uk_blas_threads_local(1)
    _uk_{blas}(
        o, o + 1, p, p + 4, p + 8, s, rhs.ctypes.data, p + 12, lhs.ctypes.data, p + 16,
        s + {itemsize}, out.ctypes.data, p + 20,
    )
    _uk_blas_threads_local(previous)
"""

UKERNELS: dict[str, str] = {
    "_uk_matmul_f32": _MATMUL_TEMPLATE.format(
        suffix="f32", itemsize=4, dtype="float32", blas="sgemm"
    ),
    "_uk_matmul_f64": _MATMUL_TEMPLATE.format(
        suffix="f64", itemsize=8, dtype="float64", blas="dgemm"
    ),
}
"""Micro-kernel helpers by the name kernels call them with."""

MATMUL_HELPERS = {"f32": "_uk_matmul_f32", "f64": "_uk_matmul_f64"}
"""Element type -> the helper running `ireelab_uk_matmul` on it."""


def ukernel_sources(kernels_text: str) -> list[str]:
    """The declarations and helpers `kernels_text` calls, in definition order (none if none)."""
    used = [name for name in UKERNELS if f"{name}(" in kernels_text]
    if not used:
        return []
    return [_DECLARATIONS, *(UKERNELS[name] for name in used)]
