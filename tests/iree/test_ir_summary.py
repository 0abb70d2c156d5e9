"""The Flow/Stream reading `compare` uses, checked on the real IREE's output for all 13
reference programs against what `iree-3.13.json` records."""

from __future__ import annotations

import pytest
from iree_support import REFERENCE

from ireelab.iree.ir_summary import (
    summarize_dispatches,
    summarize_schedule,
    summarize_workgroups,
)

IR = REFERENCE / "iree-3.13-ir"
PROGRAMS = sorted(p.name.split(".")[0] for p in IR.glob("*.flow.mlir"))


@pytest.mark.parametrize("program", PROGRAMS)
def test_flow_dispatches_match_the_reference(program: str, reference_json) -> None:
    facts = reference_json[program]
    summary = summarize_dispatches((IR / f"{program}.flow.mlir").read_text())
    assert summary.dispatch_sites == facts["dispatch_sites"]
    assert len(summary.executables) == facts["executables"]
    assert list(summary.exports) == facts["exports"]
    assert summary.contents() == facts["dispatch_contents"]


@pytest.mark.parametrize("program", PROGRAMS)
def test_stream_schedule_and_dispatches_match_the_reference(program: str, reference_json) -> None:
    facts = reference_json[program]
    text = (IR / f"{program}.stream.mlir").read_text()
    assert summarize_schedule(text).__dict__ == facts["stream"]
    # The same sites read at the Stream level (stream.cmd.dispatch into stream.executable).
    assert summarize_dispatches(text).contents() == facts["dispatch_contents"]


def test_workgroup_counts_from_executable_targets(reference_json) -> None:
    text = (IR / "a0_matmul_tiny.executable-targets.mlir").read_text()
    counts = summarize_workgroups(text)
    assert counts == {"matmul_dispatch_0_matmul_2x2x4_f32": "1, 1, 1"}
    assert reference_json["a0_matmul_tiny"]["hal_workgroups"] == ["%c1, %c1, %c1"]


def test_sites_are_in_program_order_and_dedup_shares_an_executable() -> None:
    text = """module {
  flow.executable private @e0 {
    flow.executable.export public @e0_x workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      flow.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @e0_x(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>) {
        %0 = tensor.empty() : tensor<4xf32>
        %1 = linalg.generic {indexing_maps = [], iterator_types = ["parallel"]} outs(%0 : tensor<4xf32>) {
        ^bb0(%out: f32):
          linalg.yield %out : f32
        } -> tensor<4xf32>
        return
      }
    }
  }
  util.func public @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = flow.dispatch @e0::@e0_x(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    %1 = flow.dispatch @e0::@e0_x(%0) : (tensor<4xf32>) -> tensor<4xf32>
    util.return %1 : tensor<4xf32>
  }
}"""
    summary = summarize_dispatches(text)
    assert summary.dispatch_sites == 2 and summary.executables == ("e0",)
    assert [s.ops for s in summary.sites] == [("linalg.generic",)] * 2
