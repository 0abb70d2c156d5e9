"""`ConvertToNumbaPass` (`ireelab-codegen-convert-to-numba`): each variant's loop IR -> one
Python module of numba kernels.

Stands where IREE's `ConvertToLLVMPass` turns the lowered dispatch functions into `llvm.func`s
reading their bindings from the dispatch state. Here every export becomes
`dispatch_<ordinal>(wg_begin, wg_end, wg_count_x, wg_count_y, wg_count_z, b0, ..., bN,
c0, ..., cM)` (the kernel ABI of docs/internals.md: bindings, then push constants) and the
variant's module text is stored on its inner
`builtin.module` as the string attribute `ireelab.numba.source`. The loop IR stays in place for
display; `SerializeAllExecutablesPass` packs the source into the executable binary.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.passes import ModulePass

from ireelab.compiler.codegen.executable_source import (
    FASTMATH_FLAGS,
    SEQUENTIAL_FASTMATH_FLAGS,
    KernelText,
    build_executable_source,
)
from ireelab.compiler.codegen.executables import variants
from ireelab.compiler.codegen.kernel_emitter import KernelEmitter
from ireelab.dialects import hal

SOURCE_ATTRIBUTE = "ireelab.numba.source"


def variant_source(
    variant: hal.ExecutableVariantOp, fastmath: tuple[str, ...] = FASTMATH_FLAGS
) -> str | None:
    """The Python module of one variant, or None when it has no inner module."""
    inner = variant.inner_module
    if inner is None:
        return None
    functions = {f.sym_name.data: f for f in inner.ops if getattr(f, "sym_name", None) is not None}
    kernels = []
    for export in variant.exports:
        function = functions.get(export.sym_name.data)
        if function is None:
            continue
        ordinal = export.ordinal.value.data
        layout = export.layout
        emitter = KernelEmitter(ordinal, len(layout.bindings.data), layout.constants.value.data)
        kernels.append(KernelText(ordinal, export.sym_name.data, emitter.emit(function)))
    executable = variant.parent_op()
    name = executable.sym_name.data if isinstance(executable, hal.ExecutableOp) else ""
    return build_executable_source(name, kernels, fastmath)


@dataclass(frozen=True)
class ConvertToNumbaPass(ModulePass):
    """Emit the numba kernel module of every `hal.executable.variant`."""

    name = "ireelab-codegen-convert-to-numba"

    reassociate_fp_reductions: bool = True
    """IREE's `ConvertToLLVMPass` option of the same name (`--iree-llvmcpu-reassociate-fp-reductions`,
    on at IREE's default -O2): whether floating-point sums and products may be reordered.
    Off, the kernels are jitted without LLVM's `reassoc` / `contract` flags."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        flags = FASTMATH_FLAGS if self.reassociate_fp_reductions else SEQUENTIAL_FASTMATH_FLAGS
        for variant in variants(op):
            source = variant_source(variant, flags)
            if source is not None:
                variant.inner_module.attributes[SOURCE_ATTRIBUTE] = StringAttr(source)
