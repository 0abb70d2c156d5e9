"""A small graph model shared by the schedule views: nodes in (nested) clusters, typed edges.

The timepoint graph is built as this model first, so the critical path can be computed over it
before anything is emitted, and DOT comes out in creation order (stable ids, stable text).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from ireelab.viz.render import View


@dataclass
class Node:
    id: str
    label: str
    attrs: dict[str, str]
    weight: float = 0.0
    """Cost on the critical path (dispatches cost their time, everything else nothing)."""
    kind: str = ""
    """`dispatch`, `import`, `export`, `timepoint`, `run` (folded dispatches) or empty: what the
    overview folds."""


@dataclass
class Cluster:
    id: str
    label: str
    attrs: dict[str, str]
    items: list[tuple[str, str]] = field(default_factory=list)
    """("node" | "cluster", id) in creation order."""


@dataclass
class Edge:
    src: str
    dst: str
    kind: str
    """`timepoint`, `order` (inside an execute region), `resource`, or between blocks
    `branch` and `back` (a loop's branch to its header)."""
    attrs: dict[str, str] = field(default_factory=dict)


@dataclass
class ScheduleGraph:
    nodes: dict[str, Node] = field(default_factory=dict)
    clusters: dict[str, Cluster] = field(default_factory=dict)
    root: list[tuple[str, str]] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    _seen: set[tuple[str, str, str]] = field(default_factory=set)

    def node(
        self,
        id: str,
        label: str,
        cluster: str | None = None,
        weight: float = 0.0,
        kind: str = "",
        **attrs: str,
    ) -> str:
        self.nodes[id] = Node(id, label, attrs, weight, kind)
        self._items(cluster).append(("node", id))
        return id

    def cluster(self, id: str, label: str, parent: str | None = None, **attrs: str) -> str:
        self.clusters[id] = Cluster(id, label, attrs)
        self._items(parent).append(("cluster", id))
        return id

    def edge(self, src: str, dst: str, kind: str, **attrs: str) -> None:
        key = (src, dst, kind)
        if key in self._seen or src == dst:
            return
        self._seen.add(key)
        self.edges.append(Edge(src, dst, kind, attrs))

    def _items(self, cluster: str | None) -> list[tuple[str, str]]:
        return self.root if cluster is None else self.clusters[cluster].items

    def longest_path(self) -> list[str]:
        """The heaviest path through the DAG (node weights).

        Ties prefer scheduling edges (timepoints, order) over resource edges, then creation order.
        """
        order = list(self.nodes)
        rank = {n: i for i, n in enumerate(order)}
        succ: dict[str, list[str]] = defaultdict(list)
        indegree = dict.fromkeys(order, 0)
        weak = {(e.src, e.dst) for e in self.edges if e.kind == "resource"}
        for e in self.edges:
            if e.kind == "back":  # a loop's branch back to its header: the path runs once
                continue
            succ[e.src].append(e.dst)
            indegree[e.dst] += 1
        ready = sorted((n for n in order if indegree[n] == 0), key=rank.__getitem__)
        best = {n: (self.nodes[n].weight, None) for n in order}
        while ready:
            n = ready.pop(0)
            for m in succ[n]:
                total = best[n][0] + self.nodes[m].weight
                pred = best[m][1]
                better_edge = pred is None or ((pred, m) in weak and (n, m) not in weak)
                if total > best[m][0] or (total == best[m][0] and better_edge):
                    best[m] = (total, n)
                indegree[m] -= 1
                if indegree[m] == 0:
                    ready.append(m)
                    ready.sort(key=rank.__getitem__)
        if not order or max(best[n][0] for n in order) <= 0:
            return []
        end = max(order, key=lambda n: (best[n][0], rank[n]))
        path = [end]
        while best[path[-1]][1] is not None:
            path.append(best[path[-1]][1])
        return path[::-1]

    def emit(self, view: View, highlight_path: list[str], highlight: dict[str, str]) -> None:
        on_path = set(highlight_path)
        path_edges = set(zip(highlight_path, highlight_path[1:], strict=False))
        self._emit_items(view, self.root, on_path, highlight)
        for e in self.edges:
            attrs = dict(e.attrs)
            if (e.src, e.dst) in path_edges:
                attrs.update(color=highlight["color"], penwidth="2.5", style="bold")
            view.edge(e.src, e.dst, **attrs)

    def _emit_items(self, graph, items, on_path: set[str], highlight: dict[str, str]) -> None:
        for kind, id in items:
            if kind == "node":
                node = self.nodes[id]
                attrs = dict(node.attrs)
                if id in on_path and node.weight > 0:
                    attrs.update(highlight)
                graph.node(id, node.label, **attrs)
                continue
            cluster = self.clusters[id]
            with graph.subgraph(name=id) as sub:
                sub.attr(label=cluster.label, **cluster.attrs)
                self._emit_items(sub, cluster.items, on_path, highlight)
