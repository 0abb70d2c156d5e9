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
- imports, exports, timepoints and other host nodes of one kind that feed exactly the same
  nodes, into one node with their count (repeatedly, so a row of imports, the row of
  timepoints they signal and the row of `stream.timepoint.immediate`s before those all fold).

Dispatches still on the host (before ScheduleExecutionPass) chain through their resources; a
run of those folds the same way.
"""

from __future__ import annotations

import re
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
    dispatches = {id for id, node in graph.nodes.items() if node.kind == "dispatch"}
    for e in graph.edges:
        if e.kind in _ORDER or (e.src in dispatches and e.dst in dispatches):
            succ[e.src].append(e.dst)
            pred[e.dst].append(e.src)
    return succ, pred


def _dispatch(graph: ScheduleGraph, id: str, pinned: Callable[[str], bool]) -> bool:
    node = graph.nodes[id]
    return node.kind == "dispatch" and not pinned(node.label)


def _joins(graph, run: list[str], id: str, succ, pred, pinned) -> bool:
    if not run or not _dispatch(graph, id, pinned):
        return False
    # inside `stream.async.execute` each dispatch also waits on the region's entry, which the
    # first of the run waits on already: those edges add no order within the run
    last = run[-1]
    return succ[last] == [id] and set(pred[id]) - {last} <= set(pred[run[0]])


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


def fold_parallel(graph: ScheduleGraph) -> int:
    """Merge host nodes of one kind that feed exactly the same nodes (a row of imports, the
    timepoints they signal, the `stream.timepoint.immediate`s before those), repeatedly, so
    rows of rows fold too; dispatches are never merged. Return how many nodes went."""
    merged = 0
    for _ in range(4):
        targets: dict[str, list[str]] = defaultdict(list)
        for e in graph.edges:
            targets[e.src].append(e.dst)
        groups: dict[tuple, list[str]] = defaultdict(list)
        for kind, id in graph.root:
            node = graph.nodes.get(id)
            if kind == "node" and node is not None and node.kind not in ("dispatch", "run"):
                groups[(_sort(node), tuple(sorted(set(targets[id]))))].append(id)
        folds = [ids for ids in groups.values() if len(ids) >= MIN_RUN]
        for ids in folds:
            _merge(graph, ids)
            merged += len(ids) - 1
        if not folds:
            break
    return merged


def _sort(node) -> str:
    """What makes nodes alike: their kind, else their label with the numbers taken out."""
    return node.kind or re.sub(r"\d+", "N", node.label.split("\n", 1)[0])


def _merge(graph: ScheduleGraph, ids: list[str]) -> None:
    members = [graph.nodes[i] for i in ids]
    head = graph.nodes[ids[0]]
    if head.kind in ("import", "export"):
        sizes = [m.label.split("\n", 1)[-1] for m in members]
        head.label = f"{len(ids)} {head.kind}s\n{sizes[0]} … {sizes[-1]}"
    elif head.kind == "timepoint":
        sizes = [m.label for m in members]
        head.label = f"{len(ids)} timepoints"
    else:
        sizes = [m.label for m in members]
        head.label = f"{len(ids)} × {head.label.split(chr(10), 1)[0]}"
    head.attrs = dict(head.attrs) | {"tooltip": "\n".join(sizes)}
    _replace(graph, set(ids[1:]), ids[0])


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
