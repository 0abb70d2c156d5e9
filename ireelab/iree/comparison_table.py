"""The side-by-side table of `compare`: rows, as text and as HTML with differences marked.

A row holds what ireelab and IREE give for one item and whether they agree: True, False (a
difference, marked `≠` in text and shaded in HTML), or None where agreement is not the point
(pass counts, times: informative, never shaded). All text is escaped; nothing from the program
is pasted into the HTML unescaped.
"""

from __future__ import annotations

import html
from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    section: str
    item: str
    ireelab: str
    iree: str
    same: bool | None
    note: str = ""

    @property
    def mark(self) -> str:
        return {True: "=", False: "≠", None: " "}[self.same]


def text_table(rows: list[Row], title: str) -> str:
    head = ("", "section", "item", "ireelab", "IREE", "")
    body = [(r.mark, r.section, r.item, r.ireelab, r.iree, r.note) for r in rows]
    widths = [min(max(len(line[k]) for line in [head, *body]), 60) for k in range(len(head))]
    lines = [title, _line(head, widths), _line(tuple("-" * w for w in widths), widths)]
    lines += [_line(line, widths) for line in body]
    differences = sum(1 for r in rows if r.same is False)
    lines.append(f"{differences} difference(s) marked ≠")
    return "\n".join(lines)


def _line(cells: tuple[str, ...], widths: list[int]) -> str:
    return "  ".join(_clip(c, w).ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


_STYLE = """<style>
.ireelab-compare td, .ireelab-compare th {padding: 2px 8px; text-align: left;
  font-family: monospace; vertical-align: top}
.ireelab-compare tr.differ td {background: #ffd9d9}
.ireelab-compare tr.agree td.mark {color: #2a7a2a}
.ireelab-compare tr.differ td.mark {color: #b00000; font-weight: bold}
.ireelab-compare td.note {color: #777}
.ireelab-compare-pictures {display: flex; flex-wrap: wrap; gap: 12px}
.ireelab-compare-pictures figure {margin: 0; max-width: 48%; overflow: auto}
</style>"""


def html_table(rows: list[Row], title: str, pictures: list[tuple[str, str]] = ()) -> str:
    parts = [_STYLE, f"<div class='ireelab-compare'><b>{html.escape(title)}</b>"]
    parts.append(
        "<table><tr><th></th><th>section</th><th>item</th><th>ireelab</th><th>IREE</th><th></th></tr>"
    )
    for row in rows:
        css = {True: "agree", False: "differ", None: "info"}[row.same]
        cells = (row.section, row.item, row.ireelab, row.iree)
        parts.append(
            f"<tr class='{css}'><td class='mark'>{row.mark}</td>"
            + "".join(f"<td>{html.escape(c)}</td>" for c in cells)
            + f"<td class='note'>{html.escape(row.note)}</td></tr>"
        )
    differences = sum(1 for r in rows if r.same is False)
    parts.append(f"</table><p>{differences} difference(s), shaded.</p></div>")
    if pictures:
        parts.append("<div class='ireelab-compare-pictures'>")
        for caption, svg in pictures:
            body = svg if svg.lstrip().startswith(("<svg", "<?xml")) else html.escape(svg)
            parts.append(f"<figure><figcaption>{html.escape(caption)}</figcaption>{body}</figure>")
        parts.append("</div>")
    return "".join(parts)
