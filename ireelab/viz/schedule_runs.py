"""The timepoint graph's overview: long serial runs of dispatches and rows of imports, folded.

A model's Stream schedule is mostly one `stream.cmd.execute` whose dispatches run one after
another (each waits on the one before: IREE's `stream.cmd.execute` runs its commands in order
unless a `stream.cmd.concurrent` says otherwise), fed by one `stream.tensor.import` per
argument. Drawn as is that is a column of 48 dispatches under a row of 97 imports. The overview
folds, on the `ScheduleGraph` before the critical path is computed (so the path runs through
the folded nodes, each weighing what its members weigh):

- a run of `MIN_RUN` or more dispatches in one region, each the only successor of the one
  before and it the only predecessor of the next, into one node that says how many and names
  the first and the last (every name in the tooltip); dispatches the reader pins (`expand=`,
  `find=`, `highlight=`) split runs and stay drawn on their own;
- imports (and exports) that feed exactly the same nodes, into one node with their count.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from ireelab.viz.overview import short_name
from ireelab.viz.schedule_graph import Edge, ScheduleGraph

MIN_RUN = 3
"""The shortest run of serial dispatches folded into one node."""
_ORDER = frozenset({"order", "timepoint"})


def fold_runs(graph: ScheduleGraph, pinned: Callable[[str], bool]) -> list[list[str]]:
    """Fold every long serial run of dispatches; return the runs folded (member node ids)."""
    succ, pred = _neighbours(graph)
    runs: list[list[str]] = []
    for items in [graph.root, *(c.items for c in graph.clusters.values())]:
        run: list[str] = []
        for kind, id in [*items, ("end", "")]:
            if kind == "node" and _joins(graph, run, id, succ, pred, pinned):
                run.append(id)
                continue
            if len(run) >= MIN_RUN:
                runs.append(run)
            run = [id] if kind == "node" and _dispatch(graph, id, pinned) else []
    for run in runs:
        _fold(graph, run)
    return runs


def _neighbours(graph: ScheduleGraph):
    succ: dict[str, list[str]] = defaultdict(list)
    pred: dict[str, list[str]] = defaultdict(list)
    for e in graph.edges:
        if e.kind in _ORDER:
            succ[e.src].append(e.dst)
            pred[e.dst].append(e.src)
    return succ, pred


def _dispatch(graph: ScheduleGraph, id: str, pinned: Callable[[str], bool]) -> bool:
    node = graph.nodes[id]
    return node.kind == "dispatch" and not pinned(node.label)


def _joins(graph, run: list[str], id: str, succ, pred, pinned) -> bool:
    if not run or not _dispatch(graph, id, pinned):
        return False
    last = run[-1]
    return succ[last] == [id] and pred[id] == [last]


def _fold(graph: ScheduleGraph, run: list[str]) -> None:
    members = [graph.nodes[id] for id in run]
    first, last = short_name(members[0].label), short_name(members[-1].label)
    folded = graph.nodes[run[0]]
    folded.label = f"{len(run)} dispatches in series\n{first}\n…\n{last}"
    folded.weight = sum(m.weight for m in members)
    folded.attrs = dict(folded.attrs) | {
        "tooltip": "\n".join(m.label for m in members),
        "peripheries": "2",
        "margin": "0.15,0.08",
    }
    folded.kind = "run"
    _replace(graph, set(run[1:]), run[0])


def fold_imports(graph: ScheduleGraph) -> int:
    """Merge import (and export) nodes with the same targets; return how many were merged."""
    groups: dict[tuple, list[str]] = defaultdict(list)
    targets: dict[str, list[str]] = defaultdict(list)
    sources: dict[str, list[str]] = defaultdict(list)
    for e in graph.edges:
        targets[e.src].append(e.dst)
        sources[e.dst].append(e.src)
    for id, node in graph.nodes.items():
        if node.kind in ("import", "export"):
            key = (node.kind, tuple(sorted(sources[id])), tuple(sorted(targets[id])))
            groups[key].append(id)
    merged = 0
    for (kind, _, _), ids in groups.items():
        if len(ids) < MIN_RUN:
            continue
        members = [graph.nodes[i] for i in ids]
        head = graph.nodes[ids[0]]
        sizes = [m.label.split("\n", 1)[-1] for m in members]
        head.label = f"{len(ids)} {kind}s\n{sizes[0]} … {sizes[-1]}"
        head.attrs = dict(head.attrs) | {"tooltip": "\n".join(sizes)}
        _replace(graph, set(ids[1:]), ids[0])
        merged += len(ids) - 1
    return merged


def _replace(graph: ScheduleGraph, gone: set[str], keep: str) -> None:
    """Drop the nodes `gone`, their edges moved to `keep` (edges inside the group vanish)."""
    for id in gone:
        del graph.nodes[id]
    graph.root[:] = [item for item in graph.root if item[1] not in gone]
    for cluster in graph.clusters.values():
        cluster.items[:] = [item for item in cluster.items if item[1] not in gone]
    edges, seen = [], set()
    for e in graph.edges:
        src = keep if e.src in gone else e.src
        dst = keep if e.dst in gone else e.dst
        key = (src, dst, e.kind)
        if src == dst or key in seen:
            continue
        seen.add(key)
        edges.append(Edge(src, dst, e.kind, e.attrs))
    graph.edges[:] = edges
    graph._seen = seen
