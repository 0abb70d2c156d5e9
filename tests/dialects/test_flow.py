"""The flow dialect parses IREE 3.13's `--compile-to=flow` output and prints it back.

Every reference `*.flow.mlir` parses with ireelab's context, verifies, and round-trips
(print -> parse -> print is a fixed point); what ireelab prints parses in `iree-opt`.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from reference_paths import REFERENCE
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ireelab.compiler.context import make_context
from ireelab.dialects import flow

IR_DIR = REFERENCE / "iree-3.13-ir"
FLOW_FILES = sorted(IR_DIR.glob("*.flow.mlir"))


def _print(op) -> str:
    out = io.StringIO()
    Printer(stream=out).print_op(op)
    return out.getvalue()


def _parse(text: str, name: str = "<test>"):
    module = Parser(make_context(), text, name).parse_module()
    module.verify()
    return module


@pytest.mark.parametrize("path", FLOW_FILES, ids=lambda p: p.name)
def test_reference_flow_round_trips(path: Path):
    module = _parse(path.read_text(), str(path))
    first = _print(module)
    assert _print(_parse(first)) == first
    # the structure IREE printed is there: one flow.dispatch per dispatch site
    dispatches = [op for op in module.walk() if isinstance(op, flow.DispatchOp)]
    assert len(dispatches) == path.read_text().count("flow.dispatch @")


REGIONS = """
builtin.module {
  func.func @f(%a: tensor<4x8xf32>, %n: index) -> tensor<32xf32> {
    %0 = flow.tensor.reshape %a : tensor<4x8xf32> -> tensor<32xf32>
    %1 = flow.dispatch.region -> (tensor<32xf32>) {
      flow.return %0 : tensor<32xf32>
    }
    %2:2 = flow.dispatch.region[%n] -> (tensor<32xf32>, tensor<?xf32>{%n}) {
      flow.return %1, %1 : tensor<32xf32>, tensor<32xf32>
    } count(%x: index) -> (index, index, index) {
      flow.return %x, %x, %x : index, index, index
    }
    %3 = flow.dispatch.workgroups(%1) : (tensor<32xf32>) -> tensor<32xf32> =
        (%arg1: tensor<32xf32>, %arg2: tensor<32xf32>) {
      flow.return
    }
    func.return %3 : tensor<32xf32>
  }
}
"""


def test_dispatch_region_forms_round_trip():
    # workloads, dynamic result dims and count regions survive a round trip
    module = _parse(REGIONS)
    text = _print(module)
    assert "flow.dispatch.region[%n] -> (tensor<32xf32>, tensor<?xf32>{%n})" in text
    assert "} count(%x: index) -> (index, index, index) {" in text
    assert "=\n        (%arg1: tensor<32xf32>, %arg2: tensor<32xf32>) {" in text
    assert _print(_parse(text)) == text


def test_reshape_must_keep_element_count():
    # a reshape that changes the number of elements is rejected by the verifier
    bad = """
builtin.module {
  func.func @f(%a: tensor<4x8xf32>) -> tensor<33xf32> {
    %0 = flow.tensor.reshape %a : tensor<4x8xf32> -> tensor<33xf32>
    func.return %0 : tensor<33xf32>
  }
}
"""
    with pytest.raises(VerifyException, match="element count"):
        _parse(bad)


@pytest.mark.iree
@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="iree-opt not installed")
@pytest.mark.parametrize("path", FLOW_FILES[:4] + FLOW_FILES[-2:], ids=lambda p: p.name)
def test_printed_flow_parses_in_iree(path: Path, tmp_path: Path):
    # what ireelab prints is valid input for the real IREE
    printed = _print(_parse(path.read_text(), str(path)))
    out = tmp_path / "printed.mlir"
    out.write_text(printed)
    result = subprocess.run(["iree-opt", str(out)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[:2000]
