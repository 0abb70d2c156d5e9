"""Pictures at model scale: the overview of a 48-dispatch MLP and a 42-dispatch CNN.

Above `OVERVIEW_THRESHOLD` dispatches the dispatch graph draws one node per dispatch (short
name, fused ops, the layer inputs folded in) in rows, and the timepoint graph folds serial runs
of dispatches and rows of imports; `expand=` opens dispatches, `find=` picks them out by name.
"""

from __future__ import annotations

import re

import pytest
from test_render_with_and_without_dot import renderer_path  # noqa: F401  (a fixture)
from viz_reference import reference

from ireelab.viz import overview
from ireelab.viz.dispatch_graph import dispatch_graph
from ireelab.viz.timepoint_graph import timepoint_graph

LAYER_7 = "mlp48_dispatch_7_matmul_2x16x15_f32"


def node_lines(dot: str) -> list[str]:
    """The node statements of a DOT text (legend samples excluded)."""
    return [
        line
        for line in dot.splitlines()
        if re.match(r"\s+\w+ \[label=", line) and not line.strip().startswith("legend_")
    ]


def node(dot: str, id: str) -> str:
    """The statement of node `id`, its label's continuation lines included."""
    found = re.search(rf"^\s+{id} \[label=.*?\]$", dot, re.M | re.S)
    assert found, f"no node {id}"
    return found[0]


@pytest.fixture(scope="module")
def mlp(mlp48_trace):
    return mlp48_trace


@pytest.fixture(scope="module")
def cnn(cnn21_trace):
    return cnn21_trace


def test_the_models_have_40_plus_dispatches_with_distinct_names(mlp, cnn):
    # The generators give every layer its own shapes, so every dispatch its own IREE name.
    for trace, count in ((mlp, 48), (cnn, 42)):
        summary = dispatch_graph(trace).summary
        assert summary.splitlines()[0].endswith(
            f"{count} dispatch(es) (overview: one node per dispatch; expand=[...] opens one)"
        )
        names = re.findall(r"^  (\w+_dispatch_\d+\w*):", summary, re.M)
        assert len(names) == len(set(names)) == count


def test_overview_draws_one_node_per_dispatch(mlp):
    dot = dispatch_graph(mlp).source
    assert "subgraph cluster_d" not in dot  # no dispatch drawn op by op
    nodes = node_lines(dot)
    # 48 dispatches, the three inputs of the first layer and the output: no one-node-per-
    # argument, no import/export pairs (700 nodes when every op is drawn).
    assert len(nodes) == 48 + 3 + 1
    seven = node(dot, "d7")
    assert '"#7 matmul_2x16x15_f32' in seven and "matmul · generic(addf, tanh)" in seven
    assert f'tooltip="@mlp48_dispatch_7::@{LAYER_7}: linalg.fill, linalg.matmul' in seven
    # sizes on the edges, without the tensor<> wrapper
    assert 'd6 -> d7 [label="2x15xf32"]' in dot and 'd7 -> d8 [label="2x16xf32"]' in dot
    assert 'label="input0\n2x8xf32"' in dot and 'label="output0\n2x56xf32"' in dot
    assert "subgraph cluster_function" in dot and 'label="@mlp48"' in dot


def test_a_layers_own_inputs_fold_into_its_node(mlp):
    # A weight and a bias used once, by a dispatch that also reads the previous layer, are
    # named in that dispatch's label; the first layer reads only inputs, so they stay nodes.
    dot = dispatch_graph(mlp).source
    assert "+ input15, input16" in node(dot, "d7")
    assert "+ input" not in node(dot, "d0")
    for k in range(3):
        assert f'label="input{k}\n' in dot and f"op{k} -> d0 " in dot
    assert 'label="input15\n' not in dot


def test_long_chains_wrap_into_rows(mlp, cnn):
    dot = dispatch_graph(mlp).source
    rows = re.findall(r"\{\n\s+rank=same\n((?:\s+d\d+\n)+)", dot)
    row = overview.ROW
    assert [len(r.split()) for r in rows] == [row] * (48 // row)
    assert rows[1].split() == [f"d{k}" for k in range(row, 2 * row)]
    cnn_rows = re.findall(r"\{\n\s+rank=same\n((?:\s+d\d+\n)+)", dispatch_graph(cnn).source)
    assert sum(len(r.split()) for r in cnn_rows) == 42


def test_overview_mid_flow_folds_scratch_and_looks_through_barriers(mlp):
    # Right after FormDispatchRegionsPass the host still holds each layer's tensor.empty and
    # linalg.fill (cloned into the regions later) and compute barriers between the regions:
    # folded into the region they feed, and looked through, so the picture is the same chain.
    dot = dispatch_graph(mlp, at="FormDispatchRegionsPass").source
    assert len(node_lines(dot)) == 48 + 3 + 1
    assert '"dispatch region 7' in node(dot, "d7")
    assert "+ input15, input16, 2 host ops" in node(dot, "d7")
    assert "d6 -> d7 " in dot and "tensor.empty" not in dot.split("cluster_legend")[0]


def test_expand_opens_chosen_dispatches(mlp):
    # By name pattern and by number; an opened dispatch draws its fused ops and takes its
    # inputs from nodes again (no longer folded into its label).
    dot = dispatch_graph(mlp, expand=["matmul_2x16x15", 30]).source
    assert set(re.findall(r"subgraph (cluster_d\d+)", dot)) == {"cluster_d7", "cluster_d30"}
    cluster = dot.split("subgraph cluster_d7", 1)[1].split("}", 1)[0]
    assert re.findall(r'label="(linalg\.\w+)', cluster) == [
        "linalg.fill",
        "linalg.matmul",
        "linalg.generic",
    ]
    assert 'label="input15\n15x16xf32"' in dot
    assert re.search(r"op\d+ -> d7_op1 \[label=\"15x16xf32\"\]", dot)
    assert 'd6 -> d7_op1 [label="2x15xf32"]' in dot and "d7_op2 -> d8 " in dot
    assert len(node_lines(dot)) == 48 - 2 + 6 + 3 + 4 + 1


def test_find_highlights_matching_dispatches(mlp):
    view = dispatch_graph(mlp, find="matmul_2x3[0-2]x")
    dot = view.source
    found = ["d21", "d22", "d23"]
    for id in found:
        assert "penwidth=3" in node(dot, id) and "#1f6fd1" in node(dot, id)
    assert "penwidth=3" not in node(dot, "d20") and 'fontcolor="#888888"' in node(dot, "d20")
    assert "find 'matmul_2x3[0-2]x': 3 dispatch(es)" in view.summary
    assert "mlp48_dispatch_22_matmul_2x31x30_f32" in view.summary
    # what is not a regular expression is searched as text
    assert "find 'matmul_2x3(': 0 dispatch(es)" in dispatch_graph(mlp, find="matmul_2x3(").summary


def test_overview_threshold_and_override(mlp, monkeypatch):
    # Small programs keep their op-by-op picture (their golden DOT is unchanged); the
    # threshold decides, and overview= overrides it either way.
    small = reference("d_mlp3.flow.mlir")
    assert "subgraph cluster_d0" in dispatch_graph(small).source
    assert "subgraph cluster_d0" not in dispatch_graph(small, overview=True).source
    monkeypatch.setattr(overview, "OVERVIEW_THRESHOLD", 2)
    assert "subgraph cluster_d0" not in dispatch_graph(small).source
    monkeypatch.undo()
    full = dispatch_graph(mlp, overview=False).source
    # every argument and its import, three fused ops per dispatch, the export and the result
    assert full.count("subgraph cluster_d") == 48 and len(node_lines(full)) == 97 * 2 + 48 * 3 + 2


def test_cnn_overview_keeps_host_reshapes(cnn):
    dot = dispatch_graph(cnn).source
    # dispatches, the two reshapes, input and output, and the first conv's weight and bias (it
    # reads the reshaped input, not what a dispatch computed, so they stay nodes)
    assert len(node_lines(dot)) == 42 + 2 + 2 + 2
    assert "+ input" not in node(dot, "d0") and "+ input3, input4" in node(dot, "d2")
    assert dot.count('label="flow.tensor.reshape"') == 2
    assert '"#0 conv_64x64x4x3x3x3_f32' in node(dot, "d0")


def test_timepoint_overview_folds_the_serial_run(mlp):
    view = timepoint_graph(mlp)
    dot = view.source
    assert len(node_lines(dot)) < 25  # 48 dispatches and 97 imports drawn one by one: 170
    run = node(dot, "ex0_op0")
    assert "48 dispatches in series\n#0 matmul_2x9x8_f32\n…\n#47 matmul_2x56x55_f32" in run
    assert "peripheries=2" in run and 'color="#d62728"' in run  # on the critical path
    assert LAYER_7 in run  # every name in the tooltip
    assert 'label="97 imports\ntensor<2x8xf32> … tensor<56xf32>"' in dot
    assert "overview: 1 serial run(s) folded (48 dispatches)" in view.summary
    assert "critical path: " in view.summary and "48 dispatches in series" in view.summary
    full = timepoint_graph(mlp, overview=False).source
    assert full.count("shape=box3d") == 48 + 2 and "in series" not in full


def test_timepoint_find_and_expand_split_the_run(mlp):
    view = timepoint_graph(mlp, find="matmul_2x3[0-2]x", expand=[40])
    labels = re.findall(r'ex0_op\d+ \[label=("[^"]*"|\S+)', view.source)
    heads = [label.strip('"').split("\n")[0] for label in labels]
    assert heads == [
        "21 dispatches in series",
        "mlp48_dispatch_21_matmul_2x30x29_f32",
        "mlp48_dispatch_22_matmul_2x31x30_f32",
        "mlp48_dispatch_23_matmul_2x32x31_f32",
        "16 dispatches in series",
        "mlp48_dispatch_40_matmul_2x49x48_f32",
        "7 dispatches in series",
    ]
    assert view.source.count('fillcolor="#cfe0fb"') == 3  # the found ones, in blue
    assert "find 'matmul_2x3[0-2]x': 3 dispatch(es)" in view.summary


def test_small_schedules_are_not_folded():
    dot = timepoint_graph(reference("d_mlp3.stream.mlir")).source
    assert "in series" not in dot and dot.count("shape=box3d") == 3 + 2
    assert (
        "3 dispatches in series"
        in timepoint_graph(reference("d_mlp3.stream.mlir"), overview=True).source
    )


def _size_pt(svg: str) -> tuple[float, float]:
    found = re.search(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', svg)
    assert found, svg[:300]
    return float(found[1]), float(found[2])


def test_overviews_render_at_a_readable_size(mlp, cnn, renderer_path):  # noqa: F811
    # With dot and with graphviz-pure: the pictures come out a page or two in size, with
    # the labels in the font size the views set (drawn op by op, the MLP is 16000 pt wide).
    for view in (dispatch_graph(mlp), timepoint_graph(mlp), dispatch_graph(cnn, expand=[4])):
        svg = view.svg()
        width, height = _size_pt(svg)
        assert width < 1800 and height < 1800, (view.name, width, height)
        assert 'font-size="10.00"' in svg
    svg = dispatch_graph(mlp).svg()
    assert "#7 matmul_2x16x15_f32" in svg and "+ input15, input16" in svg
    assert "48 dispatches in series" in timepoint_graph(mlp).svg()


def test_timepoint_overview_at_every_stream_pass(mlp):
    # Stepping through Stream on a model: before scheduling the dispatches sit on the host,
    # chained by their resources; after PropagateTimepointsPass each import has its own
    # immediate timepoint. Every pass's picture stays a few dozen nodes, the run folded.
    records = [r for r in mlp.records if r.stage == "stream"]
    drawn: dict[str, int] = {}  # a pass that changed nothing has its predecessor's picture
    for r in records:
        if r.ir not in drawn:
            drawn[r.ir] = len(node_lines(timepoint_graph(r).source))
    sizes = {r.name: drawn[r.ir] for r in records}
    assert max(sizes.values()) <= 25, sizes
    host = timepoint_graph(mlp, at="ConvertToStreamPass").source
    assert "48 dispatches in series" in host and "97 imports" in host
    propagated = timepoint_graph(mlp, at="PropagateTimepointsPass").source
    assert "97 × stream.timepoint.immediate" in propagated and "97 timepoints" in propagated
    assert "48 dispatches in series" in propagated
