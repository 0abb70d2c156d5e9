"""The look shared by the views: colours (`#rrggbb`, which Graphviz 2.42 understands), fonts, legends."""

from __future__ import annotations

from ireelab.viz.render import View

FONT = "Helvetica"
ARGUMENT = "#dbe8fb"
HOST_OP = "#ffffff"
FUSED_OP = "#fff1c9"
DISPATCH = "#f6c667"
CLUSTER_FILL = "#fdf8ec"
CLUSTER_LINE = "#b7791f"
CONCURRENT_FILL = "#eef7ee"
CONCURRENT_LINE = "#3c8d40"
EXECUTE_FILL = "#f3f0fa"
EXECUTE_LINE = "#6a51a3"
TIMEPOINT = "#c6dbef"
HOST_AWAIT = "#fcbba1"
EDGE = "#555555"
RESOURCE_EDGE = "#9e9e9e"
CRITICAL = "#d62728"
HIGHLIGHT = "#1f6fd1"
"""Followed op / chosen dispatch (blue, apart from the critical path's red)."""
HIGHLIGHT_FILL = "#cfe0fb"


def new_view(name: str, summary: str, rankdir: str = "TB") -> View:
    view = View(name=name)
    view.summary = summary
    view.attr(rankdir=rankdir, fontname=FONT, fontsize="11", compound="true", newrank="true")
    view.attr("node", fontname=FONT, fontsize="10", shape="box", style="rounded,filled")
    view.attr("edge", fontname=FONT, fontsize="9", color=EDGE)
    return view


def add_legend(
    view: View, entries: list[tuple[str, dict[str, str]]], stacked: bool = False
) -> None:
    """A `cluster_legend` with one sample node per entry (label, node attributes): in a row,
    or `stacked` in a column (beside a wide picture, where a row would widen it further)."""
    with view.subgraph(name="cluster_legend") as legend:
        rank = {} if stacked else {"rank": "same"}
        legend.attr(label="legend", style="dashed", color="#bbbbbb", fontsize="10", **rank)
        for i, (label, attrs) in enumerate(entries):
            legend.node(f"legend_{i}", label, **attrs)
            if stacked and i:
                legend.edge(f"legend_{i - 1}", f"legend_{i}", style="invis")
