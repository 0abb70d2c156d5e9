"""The hal dialect parses IREE 3.13's output at every phase that holds hal ops and prints it back.

Reference files round-trip (print -> parse -> print is a fixed point); key ops print exactly as
IREE prints them; what ireelab prints is accepted by the real `iree-opt` where it is installed.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from reference_paths import REFERENCE
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ireelab.compiler.context import make_context
from ireelab.dialects import hal

IR_DIR = REFERENCE / "iree-3.13-ir"
HAL_FILES = [
    IR_DIR / "a0_matmul_tiny.abi.mlir",
    IR_DIR / "a0_matmul_tiny.executable-sources.mlir",
    IR_DIR / "a0_matmul_tiny.hal.mlir",
    *sorted(IR_DIR.glob("*.stream.mlir")),
]


def _print(op) -> str:
    out = io.StringIO()
    Printer(stream=out).print_op(op)
    return out.getvalue()


def _parse(text: str) -> ModuleOp:
    module = Parser(make_context(), text).parse_module()
    module.verify()
    return module


@pytest.mark.parametrize("path", HAL_FILES, ids=lambda p: p.name)
def test_reference_round_trips(path: Path):
    module = _parse(path.read_text())
    first = _print(module)
    assert _print(_parse(first)) == first


def test_hal_mlir_structure():
    # the host program of the founding note's matmul: one executable, one dispatch
    module = _parse((IR_DIR / "a0_matmul_tiny.hal.mlir").read_text())
    ops = list(module.walk())
    assert sum(isinstance(op, hal.ExecutableBinaryOp) for op in ops) == 1
    dispatch = next(op for op in ops if isinstance(op, hal.CommandBufferDispatchOp))
    assert len(dispatch.binding_offsets) == 3
    binary = next(op for op in ops if isinstance(op, hal.ExecutableBinaryOp))
    assert binary.bytes[:4] == b"\x7fELF"


def test_executable_sources_layout_and_subspans():
    module = _parse((IR_DIR / "a0_matmul_tiny.executable-sources.mlir").read_text())
    export = next(op for op in module.walk() if isinstance(op, hal.ExecutableExportOp))
    assert export.ordinal.value.data == 0
    assert [b.read_only for b in export.layout.bindings.data] == [True, True, False]
    assert export.layout.flags.data == "Indirect"
    subspans = [op for op in module.walk() if isinstance(op, hal.InterfaceBindingSubspanOp)]
    assert [s.binding.value.data for s in subspans] == [0, 1, 2]


GOLDEN = [
    # the ABI boundary
    '%0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<2x4xf32>',
    "%1 = hal.tensor.import on(#hal.device.affinity<@__device_0>) %arg0 : !hal.buffer_view -> tensor<2x4xf32>",
    # device targets and layouts
    'util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"numba-cpu", "numba-python", {native_vector_size = 64 : i64}>]> : !hal.device',
    # host constants and flags: several flags quoted, a single one bare, None quoted
    '%memory_type = hal.memory_type<"DeviceVisible|DeviceLocal"> : i32',
    "%buffer_usage = hal.buffer_usage<DispatchStorage> : i32",
    '%fence = hal.fence.create device(%d : !hal.device) flags("None") : !hal.fence',
    '%status = hal.fence.await until([%fence]) timeout_millis(%t) flags("None") : i32',
    '%ok, %value = hal.device.query<%d : !hal.device> key("hal.executable.format" :: "numba-python") : i1, i1 = false',
    '%cmd = hal.command_buffer.create device(%d : !hal.device) mode("OneShot|AllowInlineExecution") categories("Transfer|Dispatch") affinity(%a) bindings(%c0) : !hal.command_buffer',
    'hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("Dispatch|Transfer|CommandRetire") target("CommandIssue|Dispatch|Transfer") flags("None")',
    '%transient_buffer = hal.device.queue.alloca<%d : !hal.device> affinity(%a) wait(%fence) signal(%fence) pool(%p) type(%t) usage(%t) flags("None") : !hal.buffer{%c0}',
    "%view = hal.buffer_view.create buffer(%transient_buffer : !hal.buffer)[%c0, %c0] shape([%c0, %c0]) type(%t) encoding(%t) : !hal.buffer_view",
]

_GOLDEN_ENV = """builtin.module {{
  util.func private @f(%arg0: !hal.buffer_view, %d: !hal.device, %a: i64, %p: i64, %t: i32, %c0: index) {{
    {ops}
    util.return
  }}
}}"""


def test_golden_ops_print_as_iree_does():
    text = _GOLDEN_ENV.format(
        ops="\n    ".join(line for line in GOLDEN if "util.global" not in line)
    )
    printed = _print(_parse(text))
    for line in GOLDEN:
        if "util.global" in line:
            continue
        assert line in printed, line
    glob = next(line for line in GOLDEN if "util.global" in line)
    assert glob in _print(_parse(f"builtin.module {{\n  {glob}\n}}"))


def test_export_with_workgroup_size_prints_like_iree():
    text = """builtin.module {
  hal.executable private @ex {
    hal.executable.variant public @numba_python target(<"numba-cpu", "numba-python">) {
      hal.executable.export public @e ordinal(0) layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>) count(%arg0: !hal.device) -> (index, index, index) {
        %c1 = arith.constant 1 : index
        hal.return %c1, %c1, %c1 : index, index, index
      } <workgroup_size = [1 : index, 1 : index, 1 : index]>
      builtin.module {
      }
    }
  }
}"""
    module = _parse(text)
    assert "} <workgroup_size = [1 : index, 1 : index, 1 : index]>" in _print(module)
    export = next(op for op in module.walk() if isinstance(op, hal.ExecutableExportOp))
    assert export.workgroup_size_values == [1, 1, 1]


def test_binary_round_trips_bytes():
    payload = b'{"format": "numba-python"}\xff\x00'
    op = hal.ExecutableBinaryOp("numba_python", "numba-python", payload, "text/x-python")
    assert op.bytes == payload
    exe = hal.ExecutableOp("ex")
    exe.body.block.add_op(op)
    printed = _print(ModuleOp([exe]))
    assert 'format = "numba-python"' in printed and 'mime_type = "text/x-python"' in printed
    reparsed = next(o for o in _parse(printed).walk() if isinstance(o, hal.ExecutableBinaryOp))
    assert reparsed.bytes == payload


def test_bad_flag_is_rejected():
    text = """builtin.module {
  util.func private @f(%d: !hal.device) {
    %fence = hal.fence.create device(%d : !hal.device) flags("Bogus") : !hal.fence
    util.return
  }
}"""
    with pytest.raises(VerifyException, match="Bogus"):
        _parse(text)


def test_subspan_outside_layout_is_rejected():
    text = """builtin.module {
  func.func @f() {
    %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer>]>) binding(3) alignment(64) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>
    func.return
  }
}"""
    with pytest.raises(VerifyException, match="binding"):
        _parse(text)


@pytest.mark.iree
@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs the real IREE")
@pytest.mark.parametrize("path", HAL_FILES[:3], ids=lambda p: p.name)
def test_real_iree_parses_what_we_print(path: Path, tmp_path: Path):
    out = tmp_path / "printed.mlir"
    out.write_text(_print(_parse(path.read_text())))
    proc = subprocess.run(["iree-opt", str(out)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[:2000]
