"""Cell errors render as located MLIR diagnostics, never as Python tracebacks."""

from __future__ import annotations

from ireelab.diagnostics import CompileError, SourceLocation
from ireelab.notebook.errors import CellCompileError, CellUsageError, quote_cell

LINES = [f"line {i}" for i in range(1, 11)]


def test_quote_cell_shows_context_and_caret():
    out = quote_cell(LINES, 5, 3)
    assert len(out) == 2 + 1 + 1 + 2  # two before, the line, the caret, two after
    assert out[0].endswith("line 3") and out[-1].endswith("line 7")
    assert "\x1b[30;43mline 5" in out[2]
    caret = out[3].replace("\x1b[1;31m", "").replace("\x1b[0m", "")
    assert caret.index("^") == len("5 | ") + 2


def test_quote_cell_at_the_edges():
    assert len(quote_cell(LINES, 1, 1)) == 1 + 1 + 2
    assert len(quote_cell(LINES, 10, 1)) == 2 + 1 + 1


def test_rendered_compile_error():
    err = CompileError("bad op", SourceLocation("In[3]", 2, 1, "line 2"), stage="flow")
    lines = CellCompileError(err, LINES, "In[3]", "mod")._render_traceback_()
    assert "In[3]:2:1: error: [flow] bad op" in lines[0]
    assert any("\x1b[30;43mline 2" in line for line in lines)
    assert "nothing was bound to 'mod'" in lines[-1]


def test_error_located_elsewhere_quotes_its_own_line():
    err = CompileError("bad", SourceLocation("other.mlir", 1, 4, "abc def"))
    lines = CellCompileError(err, LINES, "In[3]", "mod")._render_traceback_()
    assert lines[1:3] == ["abc def", "   ^"]


def test_unlocated_error_is_one_line_and_a_note():
    lines = CellCompileError(CompileError("no location"), LINES, "In[1]", "m")._render_traceback_()
    assert len(lines) == 2


def test_usage_error_is_one_line():
    assert CellUsageError("m.f: wrong shape")._render_traceback_() == [
        "\x1b[1;31merror:\x1b[0m m.f: wrong shape"
    ]
