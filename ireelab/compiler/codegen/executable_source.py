"""One executable's kernels -> one importable Python module (the numba-python "object file").

IREE links every export of a `hal.executable.variant` into one ELF; ireelab writes one Python
module per variant: a header comment naming the executable and its exports (sanitised), the
imports, the scalar helpers and micro-kernels (`ukernel_library.py`) the kernels call, and `dispatch_<ordinal>` for each export. The
runtime's executable loader writes it to the kernel cache under a name derived from its hash
and imports it, so numba's on-disk cache serves later processes.
"""

from __future__ import annotations

from dataclasses import dataclass

from ireelab.compiler.codegen import f16_storage
from ireelab.compiler.codegen.python_source import sanitize_symbol
from ireelab.compiler.codegen.scalar_ops import HELPERS, INTRINSICS, helpers_used, intrinsics_used
from ireelab.compiler.codegen.ukernel_library import ukernel_sources

FASTMATH_FLAGS = ("reassoc", "nsz", "arcp")
"""LLVM fast-math flags the kernels use: reassociation (so reductions vectorise), but no
`nnan` / `ninf`, because softmax-like dispatches rely on -inf and NaN, and no `contract`:
IREE's llvm-cpu code rounds a multiply before the add or subtract that reads it (measured
with iree-compile 3.13, generic and host CPU alike), and a fused `x - s * r` differs where
the rounding matters (IREE's layernorm check: 5 - 1920 * fl(1/384) is 0 rounded, 1e-7 fused,
which the normalisation then scales up to 0.15). Micro-kernels keep their own flags."""

SEQUENTIAL_FASTMATH_FLAGS = ("nsz", "arcp")
"""The flags under `--iree-llvmcpu-reassociate-fp-reductions=false`: without `reassoc` and
`contract`, LLVM keeps every f32 sum in the loop's order and rounds every product, so a
reduction gives the bits of a sequential loop."""


@dataclass(frozen=True)
class KernelText:
    ordinal: int
    export_name: str
    """The export's symbol name as IREE prints it; only its sanitised form reaches the text."""
    source: str
    """`dispatch_<ordinal>` as written by `KernelEmitter`."""


def build_executable_source(
    executable_name: str, kernels: list[KernelText], fastmath: tuple[str, ...] = FASTMATH_FLAGS
) -> str:
    header = [f"# ireelab numba-python executable {sanitize_symbol(executable_name)}"]
    header += [f"#   export {k.ordinal}: {sanitize_symbol(k.export_name)}" for k in kernels]
    flags = ", ".join(repr(flag) for flag in fastmath)
    prologue = [
        "import math",
        "",
        "import numba",
        "import numba.extending",
        "import numpy as np",
        "",
        "_JIT_OPTIONS = dict(",
        f'    nogil=True, cache=True, error_model="numpy", fastmath={{{flags}}}',
        ")",
        "",
    ]
    kernels_text = "\n\n".join(k.source for k in sorted(kernels, key=lambda k: k.ordinal))
    helpers = [
        "@numba.njit(inline='always', cache=True, error_model='numpy')\n" + HELPERS[name]
        for name in helpers_used(kernels_text)
    ]
    intrinsics = [INTRINSICS[name] for name in intrinsics_used(kernels_text)]
    if half_conversions := f16_storage.intrinsics_source(kernels_text):
        intrinsics.append(half_conversions)
    if small_float_conversions := f16_storage.conversions_source(kernels_text):
        intrinsics.append(small_float_conversions)
    ukernels = ukernel_sources(kernels_text)
    parts = ["\n".join(header + [""] + prologue), *intrinsics, *helpers, *ukernels, kernels_text]
    return "\n\n".join(part.rstrip("\n") + "\n" for part in parts)
