"""The micro-kernels a numba-python executable can call, and the import that brings them in.

IREE links its ukernels (`runtime/src/iree/builtins/ukernel/`, e.g. `iree_uk_mmt4d`) into each
executable as bitcode, or resolves them as imports from the runtime. ireelab's micro-kernels
are numba functions of the runtime (`runtime/hal/ukernels.py`: GEMM on strided 2-D tiles,
convolution taps, depthwise convolutions); a kernel module imports the ones its `dispatch_<i>` kernels call, so numba
compiles each once per process and keeps it in its on-disk cache, instead of once per kernel
module. The hot loop is BLAS, reached through symbols the runtime's executable loader
registers with LLVM before such a module compiles (so the cached code names the symbols, not
addresses):

- `ireelab_uk_sgemm`, `ireelab_uk_dgemm`: the Fortran `sgemm` / `dgemm` of the OpenBLAS numpy
  bundles (64-bit integers), else of the BLAS scipy ships (`scipy.linalg.cython_blas`, 32-bit
  integers).

A workgroup runs on one worker of the local-task device, so its GEMM must run single-threaded
(the runtime already uses every core; nested BLAS threads would fight it): the runtime keeps
that BLAS single-threaded while such kernels run (`runtime/hal/blas_threads.py`), not the
kernels, because OpenBLAS's "thread-local" count is one process-wide value.

`ireelab_uk_matmul` (the name `CPULowerToUKernelsPass` puts in `iree_codegen.ukernel.generic`)
computes `out = op(lhs) @ op(rhs) (+ out if accumulating)` on 2-D row-major tiles whose rows
may be strided, so a tile is never copied. `iree_uk_mmt4d` (IREE's name) runs `linalg.mmt4d`
tiles with K0 = 1 as one such GEMM per output tile (`_uk_mmt4d`).
"""

from __future__ import annotations

from ireelab.schemas.ukernel_names import BLAS_SYMBOLS, UKERNEL_MODULE, UKERNELS

__all__ = ["BLAS_SYMBOLS", "UKERNELS", "UKERNEL_MODULE"]

MATMUL_HELPERS = {"f32": "_uk_matmul_f32", "f64": "_uk_matmul_f64"}
"""Element type -> the helper running `ireelab_uk_matmul` on it."""


def ukernel_sources(kernels_text: str) -> list[str]:
    """The import of the micro-kernels `kernels_text` calls (nothing if none)."""
    used = [name for name in UKERNELS if f"{name}(" in kernels_text]
    if not used:
        return []
    return [f"from {UKERNEL_MODULE} import {', '.join(used)}"]
