"""SerializeAllExecutablesPass (iree-hal-serialize-all-executables): variant -> binary.

The binary is docs/internals.md's "numba-python" executable binary: JSON with the export table
and the kernel module source codegen left on the variant's inner module.
"""

from __future__ import annotations

import json

import pytest
from reference_paths import REFERENCE
from xdsl.dialects.builtin import StringAttr

from ireelab.compiler.context import make_context
from ireelab.compiler.hal.materialize_interfaces import MaterializeInterfacesPass
from ireelab.compiler.hal.serialize_executables import SerializeAllExecutablesPass
from ireelab.compiler.source import parse_source
from ireelab.diagnostics import CompileError
from ireelab.dialects import hal

IR = REFERENCE / "iree-3.13-ir"
SOURCE = "# executable matmul_dispatch_0\nimport numba\n"


def _materialized(source: str | None = SOURCE):
    module = parse_source((IR / "a0_matmul_tiny.stream.mlir").read_text(), "<test>")
    MaterializeInterfacesPass().apply(make_context(), module)
    for variant in [op for op in module.walk() if isinstance(op, hal.ExecutableVariantOp)]:
        export = variant.exports[0]
        export.workgroup_size = hal.ExecutableExportOp(
            "x", 0, export.layout, None, [4, 1, 1]
        ).workgroup_size
        if source is not None:
            variant.inner_module.attributes["ireelab.numba.source"] = StringAttr(source)
    return module


def test_variant_becomes_binary_with_the_json_executable():
    module = _materialized()
    SerializeAllExecutablesPass().apply(make_context(), module)
    module.verify()
    text = str(module)
    assert "hal.executable.variant" not in text
    assert (
        'hal.executable.binary public @embedded_elf_x86_64 <format = "numba-python", data = dense<"0x'
        in text
    )
    assert 'mime_type = "text/x-python">' in text
    binary = next(op for op in module.walk() if isinstance(op, hal.ExecutableBinaryOp))
    document = json.loads(binary.bytes.decode("utf-8"))
    assert document == {
        "format": "numba-python",
        "version": 1,
        "exports": [
            {
                "name": "matmul_dispatch_0_matmul_2x2x4_f32",
                "ordinal": 0,
                "bindings": 3,
                "constants": 0,
                "workgroup_size": [4, 1, 1],
            }
        ],
        "source": SOURCE,
    }


def test_printed_binary_parses_back_to_the_same_bytes():
    module = _materialized()
    SerializeAllExecutablesPass().apply(make_context(), module)
    reparsed = parse_source(str(module), "<printed>")
    before = next(op for op in module.walk() if isinstance(op, hal.ExecutableBinaryOp)).bytes
    after = next(op for op in reparsed.walk() if isinstance(op, hal.ExecutableBinaryOp)).bytes
    assert before == after


def test_variant_without_kernel_source_is_an_error():
    module = _materialized(source=None)
    with pytest.raises(CompileError, match="ConvertToNumbaPass"):
        SerializeAllExecutablesPass().apply(make_context(), module)
