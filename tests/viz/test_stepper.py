"""The pass stepper's widget state and callbacks (ipywidgets runs without a kernel)."""

from __future__ import annotations

import pytest
from viz_reference import reference

from ireelab.compiler.trace import PassRecord, Trace
from ireelab.diagnostics import CompileError
from ireelab.notebook.stepper import Stepper, ir_diff_html, op_count_delta


@pytest.fixture
def trace() -> Trace:
    ir = {
        phase: reference(f"a0_matmul_tiny.{phase}.mlir").read_text()
        for phase in ("input", "abi", "flow", "stream")
    }
    rows = [
        ("input", "CanonicalizerPass", "canonicalize", ir["input"]),
        ("input", "WrapEntryPointsPass", "iree-abi-wrap-entry-points", ir["abi"]),
        ("input", "CSEPass", "cse", ir["abi"]),
        ("flow", "OutlineDispatchRegionsPass", "iree-flow-outline-dispatch-regions", ir["flow"]),
        ("flow", "CanonicalizerPass", "canonicalize", ir["flow"]),
        ("stream", "ConvertToStreamPass", "iree-stream-conversion", ir["stream"]),
    ]
    records, before = [], ir["input"]
    for i, (stage, name, flag, text) in enumerate(rows):
        records.append(PassRecord(i, stage, name, flag, text, text != before, 0.001 * (i + 1)))
        before = text
    return Trace(input_ir=ir["input"], records=records)


def test_stage_buttons_show_pass_counts(trace):
    s = Stepper(trace)
    labels = {stage: b.description for stage, b in s.stage_buttons.items()}
    assert labels["input"] == "A input (3)" and labels["flow"] == "C flow (2)"
    assert labels["stream"] == "D stream (1)" and labels["vm"] == "G vm (0)"
    assert s.stage_buttons["vm"].disabled and not s.stage_buttons["flow"].disabled
    assert s.slider.max == 5 and s.index == 0


def test_slider_moves_the_view(trace):
    s = Stepper(trace)
    first_ir, first_info = s.ir.value, s.info.value
    s.slider.value = 1
    assert s.current.name == "WrapEntryPointsPass"
    assert s.ir.value != first_ir and s.info.value != first_info
    assert "WrapEntryPointsPass" in s.info.value and "iree-abi-wrap-entry-points" in s.info.value
    # the diff marks what the pass added: the buffer-view wrapper
    assert 'class="added"' in s.ir.value and "hal.tensor.import" in s.ir.value
    assert "+2 hal.tensor.import" in s.info.value
    assert "2.0 ms" in s.info.value
    s.step(1)
    assert s.index == 2 and "no change" in s.info.value and 'class="added"' not in s.ir.value


def test_after_mode_shows_plain_ir(trace):
    s = Stepper(trace)
    s.go(1)
    s.view_mode.value = "after"
    assert 'class="added"' not in s.ir.value and "util.func public @matmul" in s.ir.value


def test_hide_unchanged_passes(trace):
    s = Stepper(trace)
    s.go(3)
    s.hide_unchanged.value = True
    assert s.slider.max == 2  # only passes 1, 3 and 5 changed the IR
    assert s.index == 3
    s.step(1)
    assert s.index == 5
    s.hide_unchanged.value = False
    assert s.slider.max == 5 and s.index == 5


def test_jump_by_name_and_stage(trace):
    s = Stepper(trace)
    assert s.jump("stream-conversion") and s.index == 5
    assert s.jump("canonicalize") and s.index == 0  # wraps around
    assert s.jump("Canonicalizer") and s.index == 4
    assert not s.jump("NoSuchPass") and "no pass matches" in s.info.value
    s.search.value = "outline"
    assert s.index == 3
    s.select_stage("stream")
    assert s.index == 5
    s.stage_buttons["input"].click()
    assert s.index == 0


def test_graph_follows_the_stage(trace):
    s = Stepper(trace)
    assert s.graph_kind.value == "none" and s.graph.value == ""
    s.go(3)
    assert s.graph_kind.value == "dispatch graph"
    assert "matmul_dispatch_0_matmul_2x2x4_f32" in s.graph.value
    s.go(5)
    assert s.graph_kind.value == "timepoint graph"
    assert "timepoint graph of the IR after #5" in s.graph.value
    # a graph the reader picks stays while stepping
    s.graph_kind.value = "dispatch graph"
    s.go(4)
    s.go(5)
    assert s.graph_kind.value == "dispatch graph" and "after #4" in s.graph.value


def test_displays_as_a_widget(trace):
    bundle = Stepper(trace)._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_empty_trace_is_an_error():
    with pytest.raises(CompileError):
        Stepper(Trace())


def test_diff_and_delta_helpers():
    html = ir_diff_html("a\nb <x>\nc", "a\nc\nd")
    assert '<div class="removed"' in html and "b &lt;x&gt;" in html
    assert '<div class="added" style="background:#e3f6e3;color:#14591a">+ d</div>' in html
    assert op_count_delta({"a.x": 2, "b.y": 1}, {"a.x": 1, "c.z": 3}) == {
        "a.x": -1,
        "b.y": -1,
        "c.z": 3,
    }
