"""SerializeAllExecutablesPass: each `hal.executable.variant` becomes a `hal.executable.binary`.

Mirrors IREE's `iree-hal-serialize-all-executables` (HAL/Transforms/SerializeExecutables.cpp),
where each target backend turns its lowered variant into the bytes the runtime loads (an ELF
for llvm-cpu). ireelab's numba-cpu backend serialises to the "numba-python" executable binary
of docs/internals.md: UTF-8 JSON holding the export table (IREE's name, ordinal, binding
count, workgroup size) and the Python module source that `ConvertToNumbaPass` left on the
variant's inner module as `ireelab.numba.source`. Runs after `ConvertToHALPass`, which has
already read the exports' workgroup counts; as in IREE's output the binary replaces the variant
and its exports.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ireelab.diagnostics import CompileError
from ireelab.dialects import hal

STAGE = "hal"
FORMAT = "numba-python"
MIME_TYPE = "text/x-python"
SOURCE_ATTR = "ireelab.numba.source"


@dataclass(frozen=True)
class SerializeAllExecutablesPass(ModulePass):
    name = "iree-hal-serialize-all-executables"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        variants = [v for v in op.walk() if isinstance(v, hal.ExecutableVariantOp)]
        for variant in variants:
            data = executable_binary(variant)
            binary = hal.ExecutableBinaryOp(variant.sym_name.data, FORMAT, data, MIME_TYPE)
            Rewriter.replace_op(variant, binary)


def executable_binary(variant: hal.ExecutableVariantOp) -> bytes:
    """The JSON bytes of the "numba-python" executable binary for one variant."""
    inner = variant.inner_module
    source = inner.attributes.get(SOURCE_ATTR) if inner is not None else None
    if not isinstance(source, StringAttr):
        raise CompileError.at(
            variant,
            f"variant @{variant.sym_name.data} has no generated kernel source "
            f"('{SOURCE_ATTR}'; ConvertToNumbaPass must run before serialization)",
            STAGE,
        )
    exports = []
    for export in sorted(variant.exports, key=lambda e: e.ordinal.value.data):
        exports.append(
            {
                # IREE's name as it is, like the export table of IREE's ELF: the host code
                # looks it up by that text, and it is data here, never code.
                "name": export.sym_name.data,
                "ordinal": export.ordinal.value.data,
                "bindings": len(export.layout.bindings.data),
                "constants": export.layout.constants.value.data,
                "workgroup_size": export.workgroup_size_values or [1, 1, 1],
            }
        )
    document = {"format": FORMAT, "version": 1, "exports": exports, "source": source.data}
    return json.dumps(document).encode("utf-8")
