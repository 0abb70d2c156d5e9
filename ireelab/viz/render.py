"""Rendering a picture: DOT to SVG or PNG with the `dot` binary, else the `graphviz-pure` wheel.

Every picture ireelab returns is a `View`, a `graphviz.Digraph` whose every way out goes
through `run_renderer` below: Jupyter display (`_repr_mimebundle_`, `_repr_svg_`: SVG plus a
text fallback), `.pipe(format=...)`, `.render(filename, format=...)`, `.svg()` and
`write_graph` (the CLI's `--dump-dispatch-graph=FILE`). The renderer is the system `dot` when
it is on `PATH`, else `graphviz-pure` (a Rust port of Graphviz shipped as a wheel; it writes
svg, png, jpg, json, plain and xdot, not pdf or ps; a format it lacks is a one-line error that
names `dot`). `View` is public: a tutorial's own diagram is a `View` built like any Digraph.

The DOT text is the stable artefact (tests compare it); SVG bytes differ between renderers
and are never compared. IREE itself only writes DOT (`--iree-flow-dump-dispatch-graph`).
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import graphviz
from graphviz.backend import rendering

from ireelab.diagnostics import CompileError

_PURE = "graphviz-pure"
INSTALL_DOT = "apt install graphviz"


def renderer() -> str | None:
    """The program that turns DOT on stdin into a picture on stdout: `dot`, else `graphviz-pure`."""
    return shutil.which("dot") or shutil.which(_PURE) or _beside_python(_PURE)


def _beside_python(name: str) -> str | None:
    candidate = Path(sys.executable).parent / name
    return str(candidate) if candidate.exists() else None


@functools.cache
def output_formats(program: str) -> frozenset[str]:
    """The `-T` formats `program` writes (Graphviz lists them when asked for an unknown one)."""
    done = subprocess.run([program, "-T?"], input=b"digraph {}", capture_output=True, timeout=60)
    _, _, listed = (done.stderr + done.stdout).decode(errors="replace").partition("Use one of:")
    return frozenset(listed.split())


def _program_for(format: str) -> str:
    program = renderer()
    if program is None:
        raise CompileError(
            f"no Graphviz renderer: install graphviz (the `dot` binary, {INSTALL_DOT}) "
            "or `pip install graphviz-pure`"
        )
    if Path(program).name != "dot":
        known = output_formats(program)
        if known and format.split(":")[0] not in known:
            raise CompileError(
                f"{format} needs Graphviz's `dot` ({INSTALL_DOT}); without it graphviz-pure "
                f"writes {', '.join(f for f in ('svg', 'png', 'jpg', 'json', 'plain') if f in known)}"
            )
    return program


def run_renderer(
    data: bytes,
    engine: str = "dot",
    format: str = "svg",
    *,
    renderer: str | None = None,
    formatter: str | None = None,
    neato_no_op: bool | int | None = None,
    quiet: bool = False,
    cwd: str | Path | None = None,
) -> bytes:
    """DOT bytes in, the picture's bytes out, through `dot` or graphviz-pure (`renderer`,
    `formatter`: Graphviz's `-Tformat:renderer:formatter`, as `graphviz.pipe` takes them)."""
    program = _program_for(format)
    pure = Path(program).name != "dot"
    if pure:
        data = _MONOSPACE.sub(b"fontname=Courier", data)
    flag = ":".join(f for f in (format, renderer, formatter) if f)
    command = [program, f"-K{engine}", f"-T{flag}"]
    if neato_no_op:
        command.append(f"-n{int(neato_no_op)}")
    done = subprocess.run(command, input=data, capture_output=True, timeout=120, cwd=cwd)
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip().splitlines()
        raise CompileError(f"graphviz failed: {message[-1] if message else done.returncode}")
    warnings = done.stderr.decode(errors="replace").splitlines(keepends=True)
    if pure:  # its own estimates, not something wrong with the picture
        warnings = [w for w in warnings if not any(m in w for m in _PURE_METRIC_NOTES)]
    if warnings and not quiet:
        sys.stderr.write("".join(warnings))
    return done.stdout


_MONOSPACE = re.compile(rb'\bfontname=("?)monospace\1(?![\w-])')
"""graphviz-pure has no metrics for the generic family `monospace` and measures it as Times,
so text overflows its boxes; `run_renderer` hands it Courier instead (every monospace font
advances 0.6 em), which its SVG names as `font-family="Courier,monospace"`."""

_PURE_METRIC_NOTES = ("width of non-ASCII character",)


# The three hooks `graphviz.Digraph` pipes and renders through (graphviz.backend.mixins);
# `View` points them here so `pipe()` and `render()` never look for `dot` themselves.


def _pipe_lines(engine, format, input_lines, *, input_encoding, **options) -> bytes:
    return run_renderer("".join(input_lines).encode(input_encoding), engine, format, **options)


def _pipe_lines_string(engine, format, input_lines, *, encoding, **options) -> str:
    return _pipe_lines(engine, format, input_lines, input_encoding=encoding, **options).decode(
        encoding
    )


def _render(
    engine,
    format=None,
    filepath=None,
    renderer=None,
    formatter=None,
    neato_no_op=None,
    quiet=False,
    *,
    outfile=None,
    raise_if_result_exists=False,
    overwrite_filepath=False,
) -> str:
    """What `graphviz.render` does (same file names and checks), with our renderer."""
    if outfile is not None:
        outfile = Path(outfile)
        format = rendering.get_format(outfile, format=format)
        filepath = Path(filepath) if filepath is not None else rendering.get_filepath(outfile)
        if not overwrite_filepath and outfile.resolve() == filepath.resolve():
            raise ValueError(f"outfile {outfile.name!r} must be different from input file")
    else:
        filepath = Path(filepath)
        outfile = rendering.get_outfile(
            filepath, format=format, renderer=renderer, formatter=formatter
        )
    if raise_if_result_exists and outfile.exists():
        raise graphviz.FileExistsError(f"output file exists: {os.fspath(outfile)!r}")
    picture = run_renderer(
        filepath.read_bytes(),
        engine,
        format,
        renderer=renderer,
        formatter=formatter,
        neato_no_op=neato_no_op,
        quiet=quiet,
        cwd=filepath.parent,
    )
    outfile.write_bytes(picture)
    return os.fspath(outfile)


class View(graphviz.Digraph):
    """A `graphviz.Digraph` that displays, pipes and renders with or without the `dot` binary.

    `summary` is the text shown where SVG cannot be (a terminal, a text-only frontend, a
    machine with no renderer at all).
    """

    summary: str = ""

    _pipe_lines = staticmethod(_pipe_lines)
    _pipe_lines_string = staticmethod(_pipe_lines_string)
    _render = staticmethod(_render)

    def svg(self) -> str:
        return self.pipe(format="svg", encoding="utf-8")

    def _repr_mimebundle_(self, include=None, exclude=None, **_) -> dict[str, str]:
        bundle = {"text/plain": self.summary or f"<{type(self).__name__} {self.name or ''}>"}
        if renderer() is not None:
            bundle["image/svg+xml"] = self.svg()
        return bundle

    def _repr_svg_(self) -> str | None:
        return self.svg() if renderer() is not None else None

    def save_as(self, path: str | Path) -> Path:
        """Write the picture in the format `path`'s suffix names, DOT text for `.dot`/`.gv`."""
        return write_graph(self, path)


def graph_bytes(graph: graphviz.Digraph, suffix: str) -> bytes:
    """The file `--dump-dispatch-graph=FILE` writes: the picture when the suffix names a
    Graphviz output format (`.svg`, `.png`, ...), else the DOT text (`.dot`, `.gv`, none)."""
    format = suffix.lower().lstrip(".")
    if format in ("dot", "gv") or format not in graphviz.FORMATS:
        return graph.source.encode()
    return run_renderer(graph.source.encode(), graph.engine, format)


def write_graph(graph: graphviz.Digraph, path: str | Path) -> Path:
    """What `--dump-dispatch-graph=FILE` / `--dump-timepoint-graph=FILE` do with a view."""
    path = Path(path)
    path.write_bytes(graph_bytes(graph, path.suffix))
    return path
