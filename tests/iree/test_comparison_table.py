"""The side-by-side table: differences are marked in text and shaded in HTML, text escaped."""

from __future__ import annotations

from ireelab.iree.comparison_table import Row, html_table, text_table

ROWS = [
    Row("dispatch", "dispatch sites", "2", "1", False),
    Row(
        "dispatch", "site 0", "f_dispatch_0_matmul_4x4x4_f32", "f_dispatch_0_matmul_4x4x4_f32", True
    ),
    Row("time", "run", "1.0 ms", "0.1 ms", None, "numpy eager 0.5 ms"),
    Row("compile", "status", "<b>error</b>", "ok", False),
]


def test_text_marks_differences() -> None:
    text = text_table(ROWS, "title")
    lines = text.splitlines()
    assert lines[0] == "title"
    assert any(line.startswith("≠") and "dispatch sites" in line for line in lines)
    assert any(line.startswith("=") and "site 0" in line for line in lines)
    assert text.endswith("2 difference(s) marked ≠")


def test_html_shades_differences_and_escapes_text() -> None:
    page = html_table(
        ROWS, "a <title>", [("graph", "<svg>x</svg>"), ("broken", "cannot draw: <x>")]
    )
    assert page.count("class='differ'") == 2 and page.count("class='agree'") == 1
    assert "&lt;b&gt;error&lt;/b&gt;" in page and "<b>error</b>" not in page
    assert "a &lt;title&gt;" in page
    assert "<svg>x</svg>" in page and "cannot draw: &lt;x&gt;" in page
