"""The dispatch-region graph, drawn from the real IREE's Flow output for the reference programs."""

from __future__ import annotations

import re

import pytest
from viz_reference import check_golden, reference, reference_trace

from ireelab.diagnostics import CompileError
from ireelab.viz.dispatch_graph import dispatch_graph

PROGRAMS = [
    "b_mlp_layer",
    "d_mlp3",
    "j_attention",
    "l_two_results",
    "c_two_matmuls_add",
    "e_softmax",
]


def clusters(dot: str) -> dict[str, str]:
    """cluster id -> its label."""
    return dict(re.findall(r"subgraph (cluster_d\d+) \{\n\s+.*?label=\"?([\w.]+)", dot))


@pytest.mark.parametrize("program", PROGRAMS)
def test_golden_dot(program):
    # The DOT text is stable: same ids and statements for the same IR.
    graph = dispatch_graph(reference(f"{program}.flow.mlir"))
    check_golden(f"{program}.dispatch.dot", graph.source)


def test_mlp_fuses_bias_and_relu_into_the_matmul_dispatch():
    # IREE forms one dispatch for matmul + bias + relu; the cluster holds all three ops.
    dot = dispatch_graph(reference("b_mlp_layer.flow.mlir")).source
    assert clusters(dot) == {"cluster_d0": "mlp_layer_dispatch_0_matmul_256x512x512_f32"}
    body = dot.split("subgraph cluster_d0", 1)[1].split("}", 1)[0]
    assert [n for n in re.findall(r"label=\"(linalg\.\w+)", body)] == [
        "linalg.fill",
        "linalg.matmul",
        "linalg.generic",
    ]
    assert "arith.addf, arith.maximumf" in body
    # The imports feed the matmul and the bias feeds the generic, across the cluster boundary.
    assert 'op0 -> d0_op1 [label="tensor<256x512xf32>"]' in dot
    assert 'op2 -> d0_op2 [label="tensor<512xf32>"]' in dot
    assert 'd0_op2 -> op3 [label="tensor<256x512xf32>"]' in dot


def test_attention_has_four_dispatches_in_a_chain():
    dot = dispatch_graph(reference("j_attention.flow.mlir")).source
    labels = list(clusters(dot).values())
    assert len(labels) == 4
    assert labels[0].startswith("attention_dispatch_0_matmul") and "reduction" in labels[1]
    # dispatch 1's last op feeds both generics of dispatch 2 (the softmax's two reductions).
    assert re.search(r"d1_op2 -> d2_op1", dot) and re.search(r"d1_op2 -> d2_op2", dot)


def test_collapse_all_and_one():
    path = reference("d_mlp3.flow.mlir")
    collapsed = dispatch_graph(path, collapse=True).source
    assert "subgraph cluster_d" not in collapsed
    assert collapsed.count("shape=box3d") == 3 + 1  # three dispatches and the legend sample
    assert "op0 -> d0 " in collapsed and "d0 -> d1 " in collapsed and "d1 -> d2 " in collapsed
    one = dispatch_graph(path, collapse=["mlp3_dispatch_1_matmul_256x1024x1024_f32"]).source
    assert set(clusters(one)) == {"cluster_d0", "cluster_d2"}
    assert "d0_op2 -> d1 " in one and "d1 -> d2_op1 " in one
    assert dispatch_graph(path, collapse=[0, 2]).source.count("subgraph cluster_d") == 1


def test_highlight_marks_one_dispatch():
    path = reference("l_two_results.flow.mlir")
    dot = dispatch_graph(path, highlight=["two_results_dispatch_1_elementwise_262144_f32"]).source
    cluster = dot.split("subgraph cluster_d1", 1)[1].split("\n", 2)[1]
    assert "penwidth=3" in cluster and "#1f6fd1" in cluster
    assert "penwidth=3" not in dot.split("subgraph cluster_d0", 1)[1].split("\n", 2)[1]


def test_host_ops_stand_outside_the_dispatches():
    dot = dispatch_graph(reference("l_two_results.flow.mlir")).source
    outside = dot.split("subgraph", 1)[0] + dot.rsplit("}", 2)[0].split("\t}\n", 1)[-1]
    assert outside.count("flow.tensor.reshape") == 3


def test_trace_uses_the_last_flow_ir_and_at_picks_a_pass(mlp_trace):
    graph = dispatch_graph(mlp_trace)
    assert "mlp_layer_dispatch_0" in graph.source
    assert dispatch_graph(mlp_trace, at="OutlineDispatchRegionsPass").source == graph.source
    assert dispatch_graph(mlp_trace, at=0).source == graph.source


def test_region_form_before_outlining():
    # After FormDispatchRegionsPass the fused ops are still inline in flow.dispatch.region.
    text = """
    func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
      %0 = flow.dispatch.region -> (tensor<4xf32>) {
        %e = tensor.empty() : tensor<4xf32>
        %1 = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
        %2 = linalg.mul ins(%1, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
        flow.return %2 : tensor<4xf32>
      }
      func.return %0 : tensor<4xf32>
    }
    """
    dot = dispatch_graph(text, legend=False).source
    assert 'label="dispatch region 0"' in dot
    assert "arg0 -> d0_op0" in dot and "arg1 -> d0_op0" in dot and "arg1 -> d0_op1" in dot
    assert "d0_op0 -> d0_op1" in dot and "d0_op1 -> res0" in dot


def test_bad_inputs_are_compile_errors(mlp_trace):
    with pytest.raises(CompileError, match="cannot parse"):
        dispatch_graph("func.func @f( {")
    with pytest.raises(CompileError, match="no pass named"):
        dispatch_graph(mlp_trace, at="NoSuchPass")
    with pytest.raises(CompileError, match="no pass #"):
        dispatch_graph(mlp_trace, at=99)
    early = reference_trace("b_mlp_layer")
    early.records = [r for r in early.records if r.stage == "stream"]
    with pytest.raises(CompileError, match="stopped before"):
        dispatch_graph(early)
    with pytest.raises(CompileError, match="cannot draw"):
        dispatch_graph(42)
