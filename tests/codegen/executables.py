"""Build executable-sources IR for codegen tests from a dispatch body written as IREE prints it
in `flow.executable` (arguments `%arg0..` are `!iree_tensor_ext.dispatch.tensor` bindings)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from ireelab.compiler.context import make_context

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


def executable_text(name: str, bindings: list[Binding], body: str) -> str:
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
  hal.executable.variant public @numba_python target({TARGET}) {{
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
    found = re.findall(r"dispatch\.tensor<(readonly|writeonly|readwrite):(tensor<[^>]*>)>", signature)
    return [Binding(access, tensor) for access, tensor in found]
