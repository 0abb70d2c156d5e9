"""Rendering a view: DOT to SVG with the `dot` binary, else the `graphviz-pure` wheel.

Every view is a `View`, a `graphviz.Digraph` that knows how to show itself in Jupyter
(`_repr_mimebundle_`: SVG plus a text fallback) on machines with or without Graphviz
installed. The DOT text is the stable artefact (tests compare it); SVG bytes differ between
renderers and are never compared.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import graphviz

from ireelab.diagnostics import CompileError

_PURE = "graphviz-pure"


def renderer() -> str | None:
    """The program that turns DOT on stdin into SVG on stdout: `dot`, else `graphviz-pure`."""
    return shutil.which("dot") or shutil.which(_PURE) or _beside_python(_PURE)


def _beside_python(name: str) -> str | None:
    candidate = Path(sys.executable).parent / name
    return str(candidate) if candidate.exists() else None


def dot_to_svg(source: str, engine: str = "dot") -> str:
    command = renderer()
    if command is None:
        raise CompileError(
            "no Graphviz renderer: install graphviz (the `dot` binary) or `pip install graphviz-pure`"
        )
    done = subprocess.run(
        [command, f"-K{engine}", "-Tsvg"], input=source.encode(), capture_output=True, timeout=120
    )
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip().splitlines()
        raise CompileError(f"graphviz failed: {message[-1] if message else done.returncode}")
    return done.stdout.decode()


class View(graphviz.Digraph):
    """A `graphviz.Digraph` that renders inline in Jupyter with or without the `dot` binary.

    `summary` is the text shown where SVG cannot be (a terminal, a text-only frontend).
    """

    summary: str = ""

    def svg(self) -> str:
        return dot_to_svg(self.source, self.engine)

    def _repr_mimebundle_(self, include=None, exclude=None, **_) -> dict[str, str]:
        bundle = {"text/plain": self.summary or f"<{type(self).__name__} {self.name or ''}>"}
        if renderer() is not None:
            bundle["image/svg+xml"] = self.svg()
        return bundle

    def save_as(self, path: str | Path) -> Path:
        """Write SVG when `path` ends in `.svg`, DOT otherwise (`--dump-dispatch-graph=FILE`)."""
        return write_graph(self, path)


def write_graph(graph: graphviz.Digraph, path: str | Path) -> Path:
    """What `--dump-dispatch-graph=FILE` / `--dump-timepoint-graph=FILE` do with a view."""
    path = Path(path)
    text = dot_to_svg(graph.source, graph.engine) if path.suffix == ".svg" else graph.source
    path.write_text(text)
    return path
