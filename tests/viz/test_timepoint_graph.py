"""The timepoint graph, drawn from the real IREE's Stream output for the reference programs."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from viz_reference import check_golden, reference

from ireelab.viz.timepoint_graph import timepoint_graph

PROGRAMS = ["b_mlp_layer", "j_attention", "l_two_results", "c_two_matmuls_add", "d_mlp3"]


def critical_nodes(dot: str) -> list[str]:
    return re.findall(r"\t+(ex\d+_op\d+) \[[^\]]*color=\"#d62728\"", dot)


@pytest.mark.parametrize("program", PROGRAMS)
def test_golden_dot(program):
    graph = timepoint_graph(reference(f"{program}.stream.mlir"))
    check_golden(f"{program}.timepoint.dot", graph.source)


def test_two_results_runs_two_dispatches_concurrently():
    # IREE puts the two independent dispatches in one stream.cmd.concurrent block.
    graph = timepoint_graph(reference("l_two_results.stream.mlir"))
    dot = graph.source
    block = dot.split("subgraph cluster_ex0_c0 {", 1)[1].split("}", 1)[0]
    assert "label=concurrent" in block
    assert block.count("shape=box3d") == 2
    # Both hang off the region's await point and both reach its signal point.
    for op in ("ex0_op0", "ex0_op1"):
        assert f"ex0_await -> {op}" in dot and f"{op} -> ex0_signal" in dot
    # Only one of two parallel dispatches is on the critical path.
    assert critical_nodes(dot) == ["ex0_op0"]
    assert "1 concurrent block(s), 2 dispatch(es)" in graph.summary


def test_serial_dispatches_are_all_critical_and_ordered():
    dot = timepoint_graph(reference("j_attention.stream.mlir")).source
    assert critical_nodes(dot) == ["ex0_op0", "ex0_op1", "ex0_op2", "ex0_op3"]
    for a, b in [("ex0_op0", "ex0_op1"), ("ex0_op1", "ex0_op2"), ("ex0_op2", "ex0_op3")]:
        assert re.search(rf"{a} -> {b} \[color=\"#d62728\"", dot)


def test_timepoints_joins_and_host_await():
    dot = timepoint_graph(reference("c_two_matmuls_add.stream.mlir")).source
    # two allocas' timepoints are joined, the join's timepoint is awaited by the execute region
    assert re.search(r"(op\d+) \[label=join", dot)
    join = re.search(r"(op\d+) \[label=join", dot).group(1)
    assert re.search(rf"tp0 -> {join}", dot) and re.search(rf"tp1 -> {join}", dot)
    assert re.search(rf"{join} -> tp2", dot) and "tp2 -> ex0_await" in dot
    # the host awaits the timepoint of the dealloca that follows the execute region
    host_await = re.search(r"(op\d+) \[label=\"host await\"", dot).group(1)
    assert re.search(rf"tp4 -> {host_await}", dot)
    # imports feed the region, the export comes after the host await
    assert dot.count("shape=cds") == 4 + 1 + 1  # imports, export, legend sample
    export = re.search(r"(op\d+) \[label=\"export", dot).group(1)
    assert re.search(rf"{host_await} -> {export}", dot)


def test_costs_move_the_critical_path():
    path = reference("l_two_results.stream.mlir")
    costs = {
        "two_results_dispatch_0_matmul_512x512x512_f32": 1.0,
        "two_results_dispatch_1_elementwise_262144_f32": 5.0,
    }
    dot = timepoint_graph(path, costs=costs).source
    assert critical_nodes(dot) == ["ex0_op1"]


def test_trace_uses_the_last_stream_ir(mlp_trace):
    graph = timepoint_graph(mlp_trace)
    assert "mlp_layer_dispatch_0_matmul_256x512x512_f32" in graph.source
    assert graph.source == timepoint_graph(mlp_trace, at="ConvertToStreamPass").source


LOOP = Path(__file__).parents[1] / "dynamic" / "programs" / "host_loop_rows.mlir"


@pytest.fixture(scope="module")
def loop_graph():
    import ireelab

    return ireelab.compile(str(LOOP), compile_to="stream").timepoint_graph()


def test_a_host_loop_is_drawn_block_by_block(loop_graph):
    # SCFToControlFlowPass made the loop four blocks: entry, header (cond_br), body, exit
    dot = loop_graph.source
    clusters = re.findall(r"subgraph (cluster_bb\d+) \{", dot)
    assert clusters == ["cluster_bb0", "cluster_bb1", "cluster_bb2", "cluster_bb3"]
    body = dot.split("subgraph cluster_bb2 {", 1)[1].split("subgraph cluster_bb3 {", 1)[0]
    assert "rows_dispatch_0_elementwise_4_f32" in body  # the loop body's dispatch shows
    assert re.search(r"op\d+ -> bb2 \[label=true", dot) and re.search(
        r"op\d+ -> bb3 \[label=false", dot
    )
    assert re.search(r'op\d+ -> bb1 \[label=" \(loop\)"[^\]]*constraint=false', dot)  # back edge
    assert "1 dispatch(es)" in loop_graph.summary
    assert "critical path: rows_dispatch_0_elementwise_4_f32" in loop_graph.summary


@pytest.mark.parametrize("with_dot", [False, True])
def test_the_blocks_render_with_and_without_dot(loop_graph, with_dot, monkeypatch, tmp_path):
    from without_dot import path_without_dot

    from ireelab.viz import render

    if with_dot and shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed here")
    if not with_dot:
        monkeypatch.setenv("PATH", path_without_dot(tmp_path / "path"))
        if render.renderer() is None:
            pytest.skip("graphviz-pure is not installed")
    svg = loop_graph.pipe(format="svg", encoding="utf-8")
    assert "</svg>" in svg
    assert "rows_dispatch_0_elementwise_4_f32" in svg and "^bb2" in svg and "(loop)" in svg
