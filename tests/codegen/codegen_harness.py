"""Test harness for codegen: executable-sources IR from a dispatch body written as IREE prints
it in `flow.executable`, the codegen passes, serialisation as the HAL does it, and kernel runs."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from ireelab.compiler.codegen.convert_to_numba import SOURCE_ATTRIBUTE
from ireelab.compiler.codegen.executables import export_sites, variants
from ireelab.compiler.context import make_context
from ireelab.compiler.pipeline import steps_until
from ireelab.runtime.hal.executable_loader import LoadedExecutable, load_executable

CODEGEN_PASSES = tuple(
    step.make().__class__
    for step in steps_until("executable-targets")
    if step.stage == "codegen" and not step.ref.startswith("hal.")
)
"""The codegen stage after MaterializeInterfacesPass, as the pipeline lists it."""


def run_codegen(module: ModuleOp, until: type | None = None) -> ModuleOp:
    """Run the codegen passes in order, verifying after each, up to and including `until`."""
    for pass_class in CODEGEN_PASSES:
        pass_class().apply(None, module)
        module.verify()
        if pass_class is until:
            break
    return module


def function_text(module: ModuleOp) -> str:
    """The printed export function(s) and count regions, one string, for golden checks."""
    return str(module)


@dataclass
class CompiledExecutable:
    module: ModuleOp
    source: str
    loaded: LoadedExecutable
    grids: list[tuple[int, int, int]]

    def run(self, inputs: list[np.ndarray], outputs: list[np.ndarray], ordinal: int = 0) -> None:
        """Run every workgroup of export `ordinal` over `inputs` then `outputs` (in place)."""
        bindings = [np.ascontiguousarray(a).reshape(-1).view(np.uint8) for a in inputs]
        output_bytes = [a.reshape(-1).view(np.uint8) for a in outputs]
        x, y, z = self.grids[ordinal]
        self.loaded.functions[ordinal](0, x * y * z, x, y, z, *bindings, *output_bytes)


def _grid(export) -> tuple[int, int, int]:
    ret = export.workgroup_count.block.last_op
    return tuple(operand.owner.value.value.data for operand in ret.operands)


def compile_executable(text: str) -> CompiledExecutable:
    """Parse executable-sources IR, run codegen, serialise as the HAL does, load the kernels."""
    module = run_codegen(parse_module(text))
    (variant,) = list(variants(module))
    source = variant.inner_module.attributes[SOURCE_ATTRIBUTE].data
    exports = [
        {
            "name": e.sym_name.data,
            "ordinal": e.ordinal.value.data,
            "bindings": len(e.layout.bindings.data),
            "workgroup_size": [1, 1, 1],
        }
        for e in variant.exports
    ]
    binary = json.dumps(
        {"format": "numba-python", "version": 1, "exports": exports, "source": source}
    )
    grids = [_grid(site.export) for site in export_sites(module)]
    return CompiledExecutable(module, source, load_executable(binary.encode()), grids)


TARGET = (
    '<"numba-cpu", "numba-python", {native_vector_size = 64 : i64, '
    'target_triple = "x86_64-unknown-linux"}>'
)


@dataclass(frozen=True)
class Binding:
    access: str
    """`readonly`, `writeonly` or `readwrite`."""
    tensor: str
    """e.g. `tensor<2x4xf32>`."""

    @property
    def type(self) -> str:
        return f"!iree_tensor_ext.dispatch.tensor<{self.access}:{self.tensor}>"


def target_text(ukernels: str | None = None) -> str:
    """The numba-cpu target, with IREE's `ukernels = "..."` configuration entry if given."""
    if ukernels is None:
        return TARGET
    return TARGET.replace("{native_vector_size", f'{{ukernels = "{ukernels}", native_vector_size')


def executable_text(
    name: str, bindings: list[Binding], body: str, ukernels: str | None = None
) -> str:
    layout_entries = ", ".join(
        '#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">'
        if b.access == "readonly"
        else "#hal.pipeline.binding<storage_buffer, Indirect>"
        for b in bindings
    )
    layout = f"<bindings = [{layout_entries}], flags = Indirect>"
    subspans = []
    for i, b in enumerate(bindings):
        flags = '"ReadOnly|Indirect"' if b.access == "readonly" else "Indirect"
        subspans.append(
            f"%arg{i} = hal.interface.binding.subspan layout({layout}) binding({i}) alignment(64) "
            f"offset(%c0_offset) flags({flags}) : {b.type}"
        )
    prologue = "\n".join(["%c0_offset = arith.constant 0 : index", *subspans])
    return f"""
hal.executable private @{name} {{
  hal.executable.variant public @numba_python target({target_text(ukernels)}) {{
    hal.executable.export public @{name} ordinal(0) layout(#hal.pipeline.layout{layout}) count(%arg0: !hal.device) -> (index, index, index) {{
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      hal.return %x, %y, %z : index, index, index
    }}
    builtin.module {{
      func.func @{name}() {{
{prologue}
{body}
        return
      }}
    }}
  }}
}}
"""


def parse_module(text: str) -> ModuleOp:
    module = Parser(make_context(), text).parse_module()
    module.verify()
    return module


def bindings_of(signature: str) -> list[Binding]:
    """Bindings from a flow-style signature: `!iree_tensor_ext.dispatch.tensor<readonly:tensor<..>>, ...`."""
    found = re.findall(
        r"dispatch\.tensor<(readonly|writeonly|readwrite):(tensor<[^>]*>)>", signature
    )
    return [Binding(access, tensor) for access, tensor in found]
