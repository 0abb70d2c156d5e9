"""The whole Stream stage on IREE's own flow output of the 13 reference programs.

Starting from each reference `*.flow.mlir`, ireelab's Stream passes must reach what IREE 3.13
printed at `--compile-to=stream`: the counts `iree-3.13.json` records (execute regions,
concurrent blocks, awaits, dispatches) and the same allocations, binding ranges and subspan
offsets as the reference `*.stream.mlir`.
"""

from __future__ import annotations

import json

import pytest
from _stream_ir import flow_reference, layout_facts, run_stream_stage, stream_reference
from reference_paths import REFERENCE

from ireelab.dialects import stream

RECORDED = json.loads((REFERENCE / "iree-3.13.json").read_text())["programs"]


def summary(module) -> dict[str, int]:
    ops = list(module.walk())
    return {
        "execute_regions": sum(isinstance(op, stream.CmdExecuteOp) for op in ops),
        "concurrent_blocks": sum(isinstance(op, stream.CmdConcurrentOp) for op in ops),
        "timepoint_awaits": sum(isinstance(op, stream.TimepointAwaitOp) for op in ops),
        "dispatches": sum(isinstance(op, stream.CmdDispatchOp) for op in ops),
    }


@pytest.mark.parametrize("program", sorted(RECORDED))
def test_stream_stage_matches_iree(program: str):
    # structure and memory layout equal IREE's for every reference program
    ours = run_stream_stage(flow_reference(program))
    assert summary(ours) == RECORDED[program]["stream"]
    assert layout_facts(ours) == layout_facts(stream_reference(program))
