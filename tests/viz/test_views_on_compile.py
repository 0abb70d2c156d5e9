"""The views on ireelab's own compile trace (not the reference dumps): every form the IR takes
between FormDispatchRegionsPass and the end of the Stream stage draws."""

from __future__ import annotations

import pytest

import ireelab
from ireelab.notebook.stepper import Stepper
from ireelab.viz.dispatch_graph import dispatch_graph
from ireelab.viz.follow import match_inputs
from ireelab.viz.timepoint_graph import timepoint_graph

SOURCE = """
func.func @layer(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>, %b: tensor<4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %t = arith.maximumf %s, %zero : f32
    linalg.yield %t : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
"""


@pytest.fixture(scope="module")
def trace():
    return ireelab.compile(SOURCE, compile_to="stream").trace


def test_every_flow_and_stream_pass_draws(trace):
    for record in trace:
        if record.stage == "flow" and "flow.dispatch" in record.ir:
            assert "dispatch(es)" in dispatch_graph(trace, at=record.index).summary
        if record.stage == "stream":
            assert "timepoint graph of @layer" in timepoint_graph(trace, at=record.index).summary


def test_final_views(trace):
    dispatches = dispatch_graph(trace)
    assert "1 dispatch(es)" in dispatches.summary and "linalg.matmul" in dispatches.summary
    schedule = timepoint_graph(trace)
    assert (
        "1 execute region(s)" in schedule.summary
        and "critical path: layer_dispatch_0" in schedule.summary
    )
    assert [m.site for _, m in match_inputs(trace)] == [0, 0, 0]


def test_stepper_on_a_compile(trace):
    s = Stepper(trace)
    s.jump("FormDispatchRegionsPass")
    assert s.current.name == "FormDispatchRegionsPass"
    assert s.graph_kind.value == "dispatch graph" and "dispatch region 0" in s.graph.value
    s.select_stage("stream")
    s.go(len(trace) - 1)
    assert s.graph_kind.value == "timepoint graph"
