"""The stream dialect parses IREE 3.13's `--compile-to=stream` output and prints it back.

Every reference `*.stream.mlir` parses, verifies and round-trips; its structure (execute
regions, concurrent blocks, awaits, dispatches) is what `iree-3.13.json` records.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from reference_paths import REFERENCE
from xdsl.parser import Parser
from xdsl.printer import Printer

from ireelab.compiler.context import make_context
from ireelab.dialects import stream

STREAM_FILES = sorted((REFERENCE / "iree-3.13-ir").glob("*.stream.mlir"))
RECORDED = json.loads((REFERENCE / "iree-3.13.json").read_text())["programs"]


def _print(op) -> str:
    out = io.StringIO()
    Printer(stream=out).print_op(op)
    return out.getvalue()


def _parse(text: str, name: str = "<test>"):
    module = Parser(make_context(), text, name).parse_module()
    module.verify()
    return module


def stream_summary(module) -> dict[str, int]:
    """The counts `iree-3.13.json` keeps for a program's final stream IR."""
    ops = list(module.walk())
    return {
        "execute_regions": sum(isinstance(op, stream.CmdExecuteOp) for op in ops),
        "concurrent_blocks": sum(isinstance(op, stream.CmdConcurrentOp) for op in ops),
        "timepoint_awaits": sum(isinstance(op, stream.TimepointAwaitOp) for op in ops),
        "dispatches": sum(isinstance(op, stream.CmdDispatchOp) for op in ops),
    }


@pytest.mark.parametrize("path", STREAM_FILES, ids=lambda p: p.name)
def test_reference_stream_round_trips(path: Path):
    module = _parse(path.read_text(), str(path))
    first = _print(module)
    assert _print(_parse(first)) == first
    program = path.name.removesuffix(".stream.mlir")
    assert stream_summary(module) == RECORDED[program]["stream"]


def test_host_code_prints_as_iree_does():
    # the host function of the two-result program prints line for line as IREE printed it
    path = REFERENCE / "iree-3.13-ir" / "l_two_results.stream.mlir"
    text = path.read_text()
    printed = _print(_parse(text, str(path)))
    host = text[text.index("util.func public") :]
    assert host.strip() in printed


ASYNC = """
builtin.module {
  func.func @f(%r: !stream.resource<external>, %n: index, %f: f32) {
    %c0 = arith.constant 0 : index
    %t0 = stream.timepoint.immediate => !stream.timepoint
    %t1 = stream.timepoint.join max(%t0, %t0) => !stream.timepoint
    %res:2, %tp = stream.async.execute on(#hal.device.affinity<@__device_0>) await(%t1) => with(%r as %arg0: !stream.resource<external>{%n}) -> (!stream.resource<external>{%n}, !stream.resource<transient>{%n}) {
      %a = stream.async.splat %f : f32 -> !stream.resource<transient>{%n}
      %b:2 = stream.async.concurrent with(%arg0 as %arg1: !stream.resource<external>{%n}, %a as %arg2: !stream.resource<transient>{%n}) -> (!stream.resource<external>{%n}, !stream.resource<transient>{%n}) {
        %c = stream.async.dispatch @ex::@fn(%arg1[%c0 to %n for %n], %n) : (!stream.resource<external>{%n}, index) -> !stream.resource<external>{%n}
        %d = stream.async.copy %arg1[%c0 to %n], %arg2[%c0 to %n], %n : !stream.resource<external>{%n} -> %arg2 as !stream.resource<transient>{%n}
        stream.yield %c, %d : !stream.resource<external>{%n}, !stream.resource<transient>{%n}
      }
      stream.yield %b#0, %b#1 : !stream.resource<external>{%n}, !stream.resource<transient>{%n}
    } => !stream.timepoint
    %out:2 = stream.timepoint.await %tp => %res#0, %res#1 : !stream.resource<external>{%n}, !stream.resource<transient>{%n}
    %x, %xt = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) await(%tp) => !stream.resource<transient>{%n} => !stream.timepoint
    %e = stream.cmd.execute once await(%xt) => with(%x as %arg3: !stream.resource<transient>{%n}) {
      stream.cmd.serial {
        stream.cmd.fill %f, %arg3[%c0 for %n] : f32 -> !stream.resource<transient>{%n}
        stream.cmd.copy %arg3[%c0], %arg3[%n], %n : !stream.resource<transient>{%n} -> !stream.resource<transient>{%n}
      }
    } => !stream.timepoint
    %z = stream.resource.dealloca await(%e) => %x : !stream.resource<transient>{%n} => !stream.timepoint
    func.return
  }
}
"""


def test_async_and_cmd_forms_round_trip():
    # the forms between ConvertToStreamPass and ScheduleAllocationPass print back unchanged
    module = _parse(ASYNC)
    text = _print(module)
    assert "-> %arg2 as !stream.resource<transient>{%n}" in text
    assert "stream.cmd.execute once await(%xt) => with(" in text
    assert _print(_parse(text)) == text


def test_resource_lifetime_is_checked():
    # an unknown lifetime is a parse error that names it
    with pytest.raises(Exception, match="unknown resource lifetime 'forever'"):
        _parse(
            "builtin.module {\n  func.func @f(%r: !stream.resource<forever>) {\n    func.return\n  }\n}"
        )
