"""Every picture displays, pipes and renders on a PATH without `dot` (graphviz-pure) and with it.

A fresh machine has only what pip installs; CI has Debian's graphviz. Both must show the same
pictures through the same calls a user makes: Jupyter display, `.pipe(format=...)`,
`.render(...)` and `ireelab-compile --dump-dispatch-graph=FILE`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from IPython.core.formatters import format_display_data
from test_timeline import EVENTS
from viz_reference import reference
from without_dot import path_without_dot

from ireelab.diagnostics import CompileError
from ireelab.viz import View, render
from ireelab.viz.dispatch_graph import dispatch_graph
from ireelab.viz.timeline import timeline
from ireelab.viz.timepoint_graph import timepoint_graph

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
DISPATCH = "mlp_layer_dispatch_0_matmul_256x512x512_f32"


def _own_diagram() -> View:
    """A tutorial's own picture: a View built like any Digraph."""
    view = View(graph_attr={"rankdir": "LR"}, node_attr={"shape": "box"})
    view.node("a", "hal.tensor.import")
    view.node("b", "original body")
    view.edge("a", "b", label="tensor<4xf32>")
    return view


PICTURES = {
    "dispatch graph": (lambda: dispatch_graph(reference("b_mlp_layer.flow.mlir")), DISPATCH),
    "timepoint graph": (lambda: timepoint_graph(reference("b_mlp_layer.stream.mlir")), "ex0"),
    "timeline (neato)": (lambda: timeline(EVENTS), "dispatch_0_matmul_4x4x4_f32"),
    "own diagram": (_own_diagram, "original body"),
}


@pytest.fixture(params=["without dot", "with dot"])
def renderer_path(request, monkeypatch, tmp_path):
    """PATH as a fresh pip-only machine has it, or as CI has it (skipped where dot is absent)."""
    if request.param == "with dot":
        if shutil.which("dot") is None:
            pytest.skip("Graphviz's dot is not installed here")
        return shutil.which("dot")
    monkeypatch.setenv("PATH", path_without_dot(tmp_path / "path"))
    if render.renderer() is None:
        pytest.skip("graphviz-pure is not installed")
    assert "graphviz-pure" in render.renderer()
    return render.renderer()


@pytest.fixture(params=sorted(PICTURES))
def picture(request):
    make, expected = PICTURES[request.param]
    return make(), expected


def _is_svg(text: str) -> bool:
    return text.lstrip().startswith(("<?xml", "<svg")) and "</svg>" in text


def test_display(renderer_path, picture):
    view, expected = picture
    data, _ = format_display_data(view)  # what Jupyter does with a cell's last value
    assert _is_svg(data["image/svg+xml"]) and expected in data["image/svg+xml"]
    assert data["text/plain"]
    assert view._repr_svg_() == data["image/svg+xml"]


def test_pipe_svg(renderer_path, picture):
    view, expected = picture
    raw = view.pipe(format="svg")
    assert isinstance(raw, bytes) and _is_svg(raw.decode())
    text = view.pipe(format="svg", encoding="utf-8")
    assert _is_svg(text) and expected in text


def test_render_svg(renderer_path, picture, tmp_path):
    view, expected = picture
    written = view.render(tmp_path / "picture", format="svg")
    assert written == os.fspath(tmp_path / "picture.svg")
    assert expected in (tmp_path / "picture.svg").read_text()
    assert (tmp_path / "picture").read_text() == view.source  # the DOT, as graphviz saves it
    out = view.render(outfile=tmp_path / "named.svg")
    assert _is_svg((tmp_path / "named.svg").read_text()) and out.endswith("named.svg")
    out = view.render("tidy", directory=tmp_path / "sub", format="svg", cleanup=True)
    assert out == os.fspath(tmp_path / "sub" / "tidy.svg") and _is_svg(Path(out).read_text())
    assert not (tmp_path / "sub" / "tidy").exists()


def test_png(renderer_path, tmp_path):
    """graphviz-pure writes PNG too, so png works with and without dot."""
    view = _own_diagram()
    assert view.pipe(format="png").startswith(PNG_MAGIC)
    view.render(tmp_path / "picture", format="png")
    assert (tmp_path / "picture.png").read_bytes().startswith(PNG_MAGIC)


def test_format_graphviz_pure_lacks_names_dot(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", path_without_dot(tmp_path / "path"))
    if render.renderer() is None:
        pytest.skip("graphviz-pure is not installed")
    with pytest.raises(CompileError) as caught:
        _own_diagram().pipe(format="pdf")
    message = str(caught.value)
    assert message == (
        "error: pdf needs Graphviz's `dot` (apt install graphviz); "
        "without it graphviz-pure writes svg, png, jpg, json, plain"
    )


def test_monospace_text_fits_its_box(renderer_path, capfd):
    """graphviz-pure measures the generic `monospace` as Times unless told Courier: the
    tutorials' monospace boxes must be as wide as their text (0.6 em a character)."""
    view = View(node_attr={"fontname": "monospace", "fontsize": "10", "shape": "box"})
    view.node("a", "workgroups 2 x 1 x 1", margin="0")
    view.node("b", "x \u2192 y")  # non-ASCII: graphviz-pure estimates it, quietly
    svg = view.svg()
    box = re.search(r'<polygon fill="none" stroke="black" points="([^"]+)"', svg).group(1)
    xs = [float(point.split(",")[0]) for point in box.split()]
    assert max(xs) - min(xs) >= 20 * 6.0
    assert "monospace" in svg
    assert capfd.readouterr().err == ""


def test_dot_is_preferred_when_on_path(monkeypatch, tmp_path):
    """With a `dot` on PATH, every way out runs it (here a logging stand-in for dot)."""
    pure = render.renderer()
    if pure is None or "graphviz-pure" not in pure:
        pytest.skip("needs graphviz-pure to stand in for dot")
    log = tmp_path / "calls"
    fake = tmp_path / "bin" / "dot"
    fake.parent.mkdir()
    fake.write_text(f'#!/bin/sh\necho "$@" >> {log}\nexec {pure} "$@"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{path_without_dot(tmp_path / 'p')}")
    view = _own_diagram()
    view._repr_mimebundle_()
    view.pipe(format="png")
    view.render(tmp_path / "picture", format="svg")
    assert log.read_text().split("\n")[:3] == ["-Kdot -Tsvg", "-Kdot -Tpng", "-Kdot -Tsvg"]


def test_no_renderer_at_all(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(render, "_beside_python", lambda name: None)
    view = _own_diagram()
    assert set(view._repr_mimebundle_()) == {"text/plain"}
    assert view._repr_svg_() is None
    with pytest.raises(CompileError, match="no Graphviz renderer: install graphviz"):
        view.pipe(format="svg")


PROGRAM = Path(__file__).parents[1] / "flow" / "programs" / "batch1_matmul.mlir"


def _compile_dumping(tmp_path, *flags: str) -> subprocess.CompletedProcess:
    """`ireelab-compile` on a PATH without dot, as a fresh machine runs it."""
    return subprocess.run(
        [sys.executable, "-m", "ireelab.tools.compile", str(PROGRAM), "--compile-to=stream", *flags]
        + ["-o", str(tmp_path / "out.mlir")],
        env={**os.environ, "PATH": path_without_dot(tmp_path / "path")},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_cli_dumps_pictures_without_dot(tmp_path):
    done = _compile_dumping(
        tmp_path,
        f"--dump-dispatch-graph={tmp_path / 'd.svg'}",
        f"--dump-timepoint-graph={tmp_path / 't.png'}",
    )
    assert done.returncode == 0, done.stderr
    assert "bmm1_dispatch_0" in (tmp_path / "d.svg").read_text()
    assert (tmp_path / "t.png").read_bytes().startswith(PNG_MAGIC)


def test_cli_format_without_dot_is_a_one_line_error(tmp_path):
    done = _compile_dumping(tmp_path, f"--dump-dispatch-graph={tmp_path / 'd.pdf'}")
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "error: pdf needs Graphviz's `dot` (apt install graphviz); "
        "without it graphviz-pure writes svg, png, jpg, json, plain"
    ]
    assert not (tmp_path / "d.pdf").exists() and not (tmp_path / "out.mlir").exists()
