"""The micro-kernel library's names: what generated kernel modules may import and call.

The compiler writes kernel modules that import micro-kernels from the runtime's library
(`runtime/hal/ukernels.py`, IREE's `runtime/src/iree/builtins/ukernel/`) and bind its BLAS
symbols; the runtime's source check admits exactly these names before it loads a module. Both
read them here, so neither side owns the list.
"""

from __future__ import annotations

UKERNEL_MODULE = "ireelab.runtime.hal.ukernels"
"""The runtime's micro-kernel library, which kernel modules import helpers from."""

UKERNELS = (
    "_uk_matmul_f32",
    "_uk_matmul_f64",
    "_uk_gemm",
    "_uk_conv_hwc",
    "_uk_depthwise_hwc",
    "_uk_mmt4d",
    "_uk_pack",
    "_uk_unpack",
)
"""Micro-kernel helpers by the name kernels call them with."""

BLAS_SYMBOLS = ("ireelab_uk_sgemm", "ireelab_uk_dgemm")
"""Symbols the executable loader registers before a module that binds them compiles."""
