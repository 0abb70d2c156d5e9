"""The execution timeline from a Chrome trace: lanes, bars to scale, fence arrows."""

from __future__ import annotations

import json
import re

import pytest
from viz_reference import check_golden

from ireelab.diagnostics import CompileError
from ireelab.viz.timeline import timeline

EVENTS = {
    "traceEvents": [
        {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "worker 0"}},
        {"ph": "M", "name": "thread_name", "pid": 1, "tid": 2, "args": {"name": "worker 1"}},
        {
            "ph": "X",
            "name": "dispatch_0_matmul_4x4x4_f32",
            "ts": 100,
            "dur": 600,
            "pid": 1,
            "tid": 1,
        },
        {
            "ph": "X",
            "name": "dispatch_1_elementwise_16_f32",
            "ts": 150,
            "dur": 200,
            "pid": 1,
            "tid": 2,
        },
        {
            "ph": "i",
            "name": "fence.signal",
            "ts": 700,
            "pid": 1,
            "tid": 1,
            "args": {"fence": 7, "value": 1},
        },
        {
            "ph": "i",
            "name": "fence.wait",
            "ts": 720,
            "pid": 1,
            "tid": 2,
            "args": {"fence": 7, "value": 1},
        },
        {
            "ph": "X",
            "name": "dispatch_2_reduction_16_f32",
            "ts": 730,
            "dur": 270,
            "pid": 1,
            "tid": 2,
        },
        {"ph": "s", "cat": "fence", "id": 3, "ts": 350, "pid": 1, "tid": 2},
        {"ph": "f", "cat": "fence", "id": 3, "ts": 700, "pid": 1, "tid": 1},
    ]
}


def test_golden_dot():
    check_golden("timeline.dot", timeline(EVENTS).source)


def test_lanes_bars_and_scale():
    view = timeline(EVENTS)
    dot = view.source
    assert view.engine == "neato"
    assert re.search(r'lane0 \[label="worker 0"', dot) and re.search(
        r'lane1 \[label="worker 1"', dot
    )
    widths = {
        m[0]: float(m[1])
        for m in re.findall(r'tooltip="(dispatch_\w+): [^"]*" width="?([\d.]+)', dot)
    }
    # bars are to scale: 600 us is three times 200 us
    assert widths["dispatch_0_matmul_4x4x4_f32"] == pytest.approx(
        3 * widths["dispatch_1_elementwise_16_f32"], rel=0.01
    )
    assert "3 dispatch(es) on 2 worker(s) over 900 us" in view.summary


def test_fence_arrows_from_signal_to_wait():
    dot = timeline(EVENTS).source
    arrows = re.findall(r"(fence\d+s) -> (fence\d+w)", dot)
    assert len(arrows) == 2  # one instant-event pair, one flow-event pair


def test_reads_files_and_json_text(tmp_path):
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(EVENTS))
    assert (
        timeline(path).source == timeline(str(path)).source == timeline(json.dumps(EVENTS)).source
    )
    assert timeline(EVENTS["traceEvents"]).source == timeline(EVENTS).source


def test_bad_traces_are_errors(tmp_path):
    with pytest.raises(CompileError, match="not found"):
        timeline(str(tmp_path / "missing.json"))
    with pytest.raises(CompileError, match="not JSON"):
        timeline("{not json")
    with pytest.raises(CompileError, match="no complete"):
        timeline({"traceEvents": [{"ph": "i", "name": "x", "ts": 1}]})
    with pytest.raises(CompileError, match="traceEvents"):
        timeline({"events": []})
