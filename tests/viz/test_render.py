"""Rendering: SVG through `dot` or the graphviz-pure wheel, inline in Jupyter, files by suffix."""

from __future__ import annotations

import shutil

import pytest
from viz_reference import reference

from ireelab.viz import render
from ireelab.viz.dispatch_graph import dispatch_graph
from ireelab.viz.render import write_graph


@pytest.fixture
def graph():
    return dispatch_graph(reference("b_mlp_layer.flow.mlir"))


def test_mimebundle_has_svg_and_text(graph):
    if render.renderer() is None:
        pytest.skip("no graphviz renderer here")
    bundle = graph._repr_mimebundle_()
    assert bundle["image/svg+xml"].lstrip().startswith(("<?xml", "<svg"))
    assert "mlp_layer_dispatch_0_matmul_256x512x512_f32" in bundle["image/svg+xml"]
    assert "1 dispatch(es)" in bundle["text/plain"]


def test_falls_back_to_graphviz_pure(graph, monkeypatch):
    pure = shutil.which("graphviz-pure")
    if pure is None:
        pytest.skip("graphviz-pure is not installed")
    real_which = shutil.which
    monkeypatch.setattr(
        render.shutil, "which", lambda name: None if name == "dot" else real_which(name)
    )
    assert render.renderer() == pure
    assert "<svg" in graph.svg()


def test_no_renderer_gives_text_only(graph, monkeypatch):
    monkeypatch.setattr(render, "renderer", lambda: None)
    bundle = graph._repr_mimebundle_()
    assert set(bundle) == {"text/plain"}


def test_write_graph_by_suffix(graph, tmp_path):
    dot = write_graph(graph, tmp_path / "g.dot")
    assert dot.read_text() == graph.source
    if render.renderer() is not None:
        svg = write_graph(graph, tmp_path / "g.svg")
        assert "<svg" in svg.read_text()
