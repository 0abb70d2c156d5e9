"""Pictures at model scale: when a view switches to its overview, short names, search, rows.

A model of 40+ dispatches drawn op by op is hundreds of nodes, too small to read once it fits a
notebook cell. Above `OVERVIEW_THRESHOLD` dispatches the dispatch graph and the timepoint graph
draw an overview instead (IREE's `--iree-flow-dump-dispatch-graph` has no such mode; its DOT
is read in a viewer that zooms): one node per dispatch, labelled with a shortened export name
(the full one in the tooltip), long chains wrapped into rows, and `expand=` / `find=` to open
or pick out dispatches by name. This module holds what both views share.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

OVERVIEW_THRESHOLD = 16
"""More dispatches than this and a view draws its overview unless told `overview=False`."""
ROW = 4
"""Dispatches per row when a long chain is wrapped."""
MAX_NAME = 30

_EXPORT = re.compile(r"^(?P<func>\w+?)_dispatch_(?P<n>\d+)(?:_(?P<rest>\w+))?$")


def use_overview(overview: bool | None, dispatches: int) -> bool:
    """`overview` as asked, or (None) whether the program is big enough to need it."""
    return dispatches > OVERVIEW_THRESHOLD if overview is None else overview


def short_name(export: str) -> str:
    """`mlp48_dispatch_7_matmul_2x16x15_f32` -> `#7 matmul_2x16x15_f32`: IREE's export name
    without the function prefix every dispatch shares, clipped in the middle past `MAX_NAME`."""
    found = _EXPORT.match(export)
    if found is None:
        return _clip(export)
    rest = found["rest"]
    return f"#{found['n']} {_clip(rest)}" if rest else f"#{found['n']}"


def _clip(text: str) -> str:
    if len(text) <= MAX_NAME:
        return text
    keep = MAX_NAME - 1
    return text[: keep - keep // 2] + "…" + text[len(text) - keep // 2 :]


def pattern(text: str | None) -> re.Pattern | None:
    """A search as the reader types it: a regular expression, or (if it is not one) plain
    text; case-insensitive. Empty means no search."""
    if not text or not text.strip():
        return None
    try:
        return re.compile(text.strip(), re.IGNORECASE)
    except re.error:
        return re.compile(re.escape(text.strip()), re.IGNORECASE)


def found_text(find: str, names: list[str]) -> str:
    """The summary's lines for a search: what was asked, how many dispatches matched, which."""
    return f"find '{find.strip()}': {len(names)} dispatch(es)" + "".join(
        f"\n  {name}" for name in names
    )


class Chooser:
    """Which dispatches a request (`expand=`, `highlight=`) names: export names, numbers, or
    patterns (searched in the export name)."""

    def __init__(self, requested: Iterable[str | int] = ()):
        items = list(requested) if not isinstance(requested, str) else [requested]
        self.numbers = {i for i in items if isinstance(i, int)}
        self.names = {i for i in items if isinstance(i, str)}
        self.patterns = [p for i in self.names if (p := pattern(i)) is not None]

    def __bool__(self) -> bool:
        return bool(self.numbers or self.names)

    def __call__(self, name: str, number: int | None = None, *keys: str) -> bool:
        if number is not None and number in self.numbers:
            return True
        if name in self.names or self.names.intersection(keys):
            return True
        return any(p.search(name) for p in self.patterns)


def shape_text(type_text: str) -> str:
    """`tensor<2x16xf32>` -> `2x16xf32`: the sizes, for overview edge labels."""
    found = re.fullmatch(r"tensor<(.*)>", type_text)
    return found[1] if found else type_text


def rows(chain: list[str], width: int = ROW) -> list[list[str]]:
    """A chain of node ids cut into rows of `width` (a lone node is no row)."""
    if len(chain) < 2:
        return []
    return [chain[i : i + width] for i in range(0, len(chain), width)]


def emit_rows(view, chain: list[str], width: int = ROW) -> None:
    """Lay a long chain out in rows: each row's nodes share a rank, so a chain of 48 reads as
    8 lines of 6 instead of one line of 48."""
    for row in rows(chain, width):
        with view.subgraph() as same:
            same.attr(rank="same")
            for node in row:
                same.node(node)
