"""MaterializeInterfacesPass (iree-hal-materialize-interfaces) on IREE's own stream output.

The founding note's matmul at `--compile-to=stream` must come out shaped like IREE's
`a0_matmul_tiny.executable-sources.mlir`: same executable, variant named after the target
format, export with ordinal and the ReadOnly/ReadOnly/written layout, argument-less function
reading bindings through `hal.interface.binding.subspan`, dispatch site retargeted.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from reference_paths import REFERENCE

from ireelab.compiler.context import make_context
from ireelab.compiler.hal.materialize_interfaces import MaterializeInterfacesPass
from ireelab.compiler.source import parse_source
from ireelab.diagnostics import CompileError
from ireelab.dialects import hal

IR = REFERENCE / "iree-3.13-ir"
NUMBA_TARGET = '#hal.executable.target<"numba-cpu", "numba-python", {native_vector_size = 64 : i64, target_triple = "x86_64-unknown-linux"}>'


def _run(text: str):
    module = parse_source(text, "<test>")
    MaterializeInterfacesPass().apply(make_context(), module)
    module.verify()
    return module


def _numba(path: Path) -> str:
    # the reference with ireelab's device target in place of IREE's llvm-cpu one
    text = path.read_text()
    return re.sub(r"#hal\.executable\.target<\"llvm-cpu\".*?}>\]>", NUMBA_TARGET + "]>", text)


def test_matmul_matches_iree_executable_sources():
    module = _run(_numba(IR / "a0_matmul_tiny.stream.mlir"))
    text = str(module)
    expected = [
        "hal.executable private @matmul_dispatch_0 {",
        'hal.executable.variant public @numba_python target(<"numba-cpu", "numba-python", {',
        'hal.executable.export public @matmul_dispatch_0_matmul_2x2x4_f32 ordinal(0) layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device) -> (index, index, index) {',
        "%x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()",
        "hal.return %x, %y, %z : index, index, index",
        "func.func @matmul_dispatch_0_matmul_2x2x4_f32() {",
        "stream.cmd.dispatch @matmul_dispatch_0::@numba_python::@matmul_dispatch_0_matmul_2x2x4_f32 {",
    ]
    for line in expected:
        assert line in text, line
    assert "stream.executable" not in text and "stream.binding.subspan" not in text
    subspans = re.findall(
        r"hal\.interface\.binding\.subspan .* binding\((\d)\) alignment\(64\) offset\(%\w+\) flags\(([^)]*)\)",
        text,
    )
    assert subspans == [
        ("0", '"ReadOnly|Indirect"'),
        ("1", '"ReadOnly|Indirect"'),
        ("2", "Indirect"),
    ]


def test_same_as_iree_up_to_target():
    # everything inside the executable equals IREE's output once the target is named alike
    ours = str(_run((IR / "a0_matmul_tiny.stream.mlir").read_text()))
    theirs = str(parse_source((IR / "a0_matmul_tiny.executable-sources.mlir").read_text(), "<ref>"))
    start = theirs.index("hal.executable private")
    end = theirs.index("util.func public")
    assert theirs[start:end] in ours


def test_every_export_gets_its_ordinal_and_every_site_is_retargeted():
    module = _run(_numba(IR / "l_two_results.stream.mlir"))
    exports = [op for op in module.walk() if isinstance(op, hal.ExecutableExportOp)]
    assert [e.ordinal.value.data for e in exports] == [0, 0]  # one export per executable
    text = str(module)
    assert text.count("::@numba_python::@") == 2


def test_indirect_flag_can_be_left_out():
    module = parse_source(_numba(IR / "a0_matmul_tiny.stream.mlir"), "<test>")
    MaterializeInterfacesPass(indirect_bindings=False).apply(make_context(), module)
    text = str(module)
    assert "#hal.pipeline.binding<storage_buffer, ReadOnly>" in text
    assert "Indirect" not in text


def test_without_device_target_is_a_located_error():
    text = _numba(IR / "a0_matmul_tiny.stream.mlir")
    text = re.sub(r"util\.global private @__device_0 = .*\n", "", text)
    text = text.replace("stream.affinity.default", "other")
    with pytest.raises(CompileError, match="device"):
        _run(text)
