"""Errors a notebook cell shows without a Python traceback.

MLIR tools report `file:line:col: error: message` with the source line and a caret; a cell does
the same, quoting the cell itself with the offending line highlighted. The exceptions here
carry IPython's `_render_traceback_` hook, so IPython prints exactly those lines (with ANSI
colour, which JupyterLab and nbconvert render) instead of a traceback, and the cell still
counts as failed: "Run All" stops there, and nbclient/nbmake see the error.
"""

from __future__ import annotations

from ireelab.diagnostics import CompileError

_RED = "\x1b[1;31m"
_MARK = "\x1b[30;43m"  # black on yellow: the offending line
_DIM = "\x1b[2m"
_RESET = "\x1b[0m"

CONTEXT_LINES = 2
"""Cell lines shown before and after the offending one."""


class CellCompileError(CompileError):
    """A `CompileError` raised by `%%ireecompile`, rendered against the cell's own lines."""

    def __init__(self, error: CompileError, cell_lines: list[str], cell_file: str, bound: str):
        super().__init__(error.message, error.location, error.stage, error.note)
        self.internal = error.internal
        self.cell_lines = cell_lines
        self.cell_file = cell_file
        self.bound = bound

    def _render_traceback_(self) -> list[str]:
        lines = [f"{_RED}{self.headline()}{_RESET}"]
        loc = self.location
        if loc is not None and loc.file == self.cell_file and 0 < loc.line <= len(self.cell_lines):
            lines += quote_cell(self.cell_lines, loc.line, loc.col)
        elif loc is not None and loc.source_line:
            lines += [loc.source_line, " " * max(loc.col - 1, 0) + "^"]
        if self.note:
            lines.append(f"note: {self.note}")
        lines.append(f"{_DIM}nothing was bound to '{self.bound}'{_RESET}")
        return lines


def quote_cell(cell_lines: list[str], line: int, col: int) -> list[str]:
    """The cell around `line` (1-based, as JupyterLab numbers cell lines), `line` highlighted."""
    first = max(1, line - CONTEXT_LINES)
    last = min(len(cell_lines), line + CONTEXT_LINES)
    width = len(str(last))
    out = []
    for number in range(first, last + 1):
        text = cell_lines[number - 1]
        gutter = f"{number:>{width}} | "
        if number != line:
            out.append(f"{_DIM}{gutter}{_RESET}{text}")
            continue
        out.append(f"{_RED}{gutter}{_RESET}{_MARK}{text}{_RESET}")
        out.append(" " * len(gutter) + " " * max(col - 1, 0) + f"{_RED}^{_RESET}")
    return out


class CellUsageError(Exception):
    """A one-line error at call time (`%ireerun`): wrong arguments, shapes or dtypes."""

    def _render_traceback_(self) -> list[str]:
        return [f"{_RED}error:{_RESET} {self}"]
