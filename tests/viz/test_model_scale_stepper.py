"""The stepper's graph controls on a model: find a dispatch, open one, choose the detail."""

from __future__ import annotations

import pytest

from ireelab.notebook.stepper import DETAIL, NO_DISPATCH, Stepper

LAYER_7 = "mlp48_dispatch_7_matmul_2x16x15_f32"


@pytest.fixture(scope="module")
def stepper(mlp48_trace) -> Stepper:
    trace = mlp48_trace
    s = Stepper(trace)
    s.go(max(r.index for r in trace.records if r.stage == "flow"))
    return s


def test_the_chooser_lists_the_dispatches_of_the_graph(stepper):
    assert stepper.graph_kind.value == "dispatch graph"
    options = list(stepper.dispatch.options)
    assert options[0] == NO_DISPATCH and len(options) == 1 + 48
    assert options[8] == LAYER_7 and stepper.dispatch.value == NO_DISPATCH
    assert list(stepper.detail.options) == list(DETAIL) and stepper.detail.value == "auto"
    # the overview by default: one box per dispatch, names legible (short names in the SVG)
    assert "#7 matmul_2x16x15_f32" in stepper.graph.value
    assert stepper.graph.value.count('class="cluster"') == 1  # the function; no legend here


def test_find_box_highlights_and_counts(stepper):
    stepper.find_dispatch.value = "matmul_2x3[0-2]x"
    try:
        assert stepper.graph_options()["find"] == "matmul_2x3[0-2]x"
        assert "find &#x27;matmul_2x3[0-2]x&#x27;: 3 dispatch(es)" in stepper.graph.value
        assert stepper.graph.value.count("#1f6fd1") >= 3
    finally:
        stepper.find_dispatch.value = ""


def test_choosing_a_dispatch_opens_it_in_both_graphs(stepper):
    stepper.dispatch.value = LAYER_7
    try:
        assert stepper.graph_options() == {
            "find": None,
            "expand": [LAYER_7],
            "highlight": [LAYER_7],
        }
        assert "cluster_d7" in stepper.graph.value and "linalg.matmul" in stepper.graph.value
        stepper.graph_kind.value = "timepoint graph"
        stepper.go(len(stepper.trace.records) - 1)
        # the chosen dispatch stands alone between two folded runs
        assert LAYER_7 in stepper.graph.value and "7 dispatches in series" in stepper.graph.value
        assert stepper.dispatch.value == LAYER_7  # kept: the stream IR has the same dispatches
    finally:
        stepper.dispatch.value = NO_DISPATCH
        stepper.graph_kind.value = "dispatch graph"


def test_detail_switch_draws_every_op(stepper):
    overview = stepper.graph.value
    stepper.detail.value = "every op"
    try:
        assert stepper.graph_options()["overview"] is False
        assert stepper.graph.value.count('class="cluster"') == 48
        assert len(stepper.graph.value) > 3 * len(overview)
    finally:
        stepper.detail.value = "auto"
    assert stepper.graph.value == overview  # cached per setting
