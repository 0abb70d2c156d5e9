"""The timepoint dependency graph: the Stream stage's schedule as a picture.

After ScheduleExecutionPass / ScheduleConcurrencyPass / PropagateTimepointsPass, IREE's host
code is a graph of `stream.cmd.execute` (or `stream.async.execute`) regions, each awaiting
`!stream.timepoint`s and producing one, with `stream.timepoint.join` merging them and
`stream.timepoint.await` blocking the host. This view draws exactly that from any Stream-level
IR (ours or the real IREE's): each execute region is a cluster holding its dispatches (inside a
nested cluster per `*.concurrent` block), timepoints are small nodes between producers and
awaiters, imports and exports sit at the edges with dashed resource edges, and the critical
path (the heaviest chain of dispatches, each costing 1 or its measured time) is drawn in red.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from xdsl.ir import BlockArgument, Operation, SSAValue

from ireelab.compiler.trace import PassRecord
from ireelab.viz import style
from ireelab.viz.generic_ir import (
    RETURNS,
    body_ops,
    export_name,
    host_functions,
    is_timepoint,
    sym_name,
    symbol_refs,
    type_name,
    type_text,
    value_name,
)
from ireelab.viz.ir_source import IRSource, module_of
from ireelab.viz.last_run import LastRun, Shapes
from ireelab.viz.overview import Chooser, found_text, pattern, use_overview
from ireelab.viz.render import View
from ireelab.viz.schedule_graph import ScheduleGraph
from ireelab.viz.schedule_runs import fold_parallel, fold_runs

EXECUTES = frozenset({"stream.cmd.execute", "stream.async.execute"})
CONCURRENT = frozenset({"stream.cmd.concurrent", "stream.async.concurrent"})
SERIAL = frozenset({"stream.cmd.serial"})
DISPATCHES = frozenset(
    {"stream.cmd.dispatch", "stream.async.dispatch", "stream.tensor.dispatch", "flow.dispatch"}
)
IMPORTS = frozenset({"stream.tensor.import", "stream.async.import", "stream.resource.import"})
EXPORTS = frozenset({"stream.tensor.export", "stream.async.export", "stream.resource.export"})
_TERMINATORS = frozenset({"stream.yield", "stream.return"})

_LEGEND = [
    (
        "execute region / concurrent block",
        {"shape": "box", "style": "dashed", "fillcolor": "#ffffff"},
    ),
    ("dispatch", {"shape": "box3d", "fillcolor": style.DISPATCH}),
    (
        "timepoint",
        {"shape": "ellipse", "fillcolor": style.TIMEPOINT},
    ),
    ("join", {"shape": "diamond", "fillcolor": style.TIMEPOINT}),
    ("host await", {"shape": "octagon", "fillcolor": style.HOST_AWAIT}),
    ("import / export", {"shape": "cds", "fillcolor": style.ARGUMENT}),
    (
        "critical path",
        {"shape": "box3d", "fillcolor": style.DISPATCH, "color": style.CRITICAL, "penwidth": "3"},
    ),
]
_CRITICAL = {"color": style.CRITICAL, "penwidth": "3"}


def has_schedule(record: PassRecord) -> bool:
    return record.stage == "stream" and "stream." in record.ir


def timepoint_graph(
    source: IRSource,
    *,
    at: int | str | None = None,
    costs: Mapping[str, float] | None = None,
    legend: bool = True,
    highlight: Iterable[str] = (),
    overview: bool | None = None,
    expand: Iterable[str | int] = (),
    find: str | None = None,
    last_run: dict[str, tuple[Shapes, Shapes]] | None = None,
) -> View:
    """Draw the stream schedule of `source` (a Trace: its last Stream IR, or the pass `at`).

    `costs`: export name -> time (e.g. from a runtime profile) for the critical path; every
    dispatch costs 1 by default. `highlight`: export names whose dispatches are marked in blue.
    `overview`: fold long serial runs of dispatches and rows of imports (None: when there are
    more than `OVERVIEW_THRESHOLD` dispatches). `expand`: dispatches (export names, numbers or
    name patterns) kept out of the folded runs. `find`: a name pattern; matching dispatches are
    kept out of the runs, marked in blue and listed in the summary. `last_run`: per function,
    the argument and result shapes of a call: imports and exports with `?` sizes, and
    allocations sized at run time, then say their sizes in that call (`last_run.LastRun`).
    """
    module = module_of(source, at, has_schedule, "timepoint graph")
    functions = host_functions(module)
    names = ", ".join(f"@{sym_name(f)}" for f in functions)
    view = style.new_view("timepoint_graph", f"timepoint graph of {names or 'an empty module'}")
    graph = ScheduleGraph()
    search = pattern(find)
    builder = _Builder(graph, costs or {}, set(highlight), search)
    builder.last_run = last_run or {}
    for index, function in enumerate(functions):
        builder.draw_function(function, f"f{index}_" if index else "")
    folded = []
    if use_overview(overview, builder.counts["dispatch"]):
        folded = _fold(graph, Chooser(expand), builder.pinned)
    path = graph.longest_path()
    graph.emit(view, path, _CRITICAL)
    if legend:
        style.add_legend(view, _LEGEND, stacked=bool(folded))
    on_path = [graph.nodes[n].label for n in path if graph.nodes[n].weight > 0]
    view.summary = builder.summary(view.summary, [_one_line(label) for label in on_path])
    if folded:
        view.summary += f"\noverview: {len(folded)} serial run(s) folded " + ", ".join(
            f"({len(run)} dispatches)" for run in folded
        )
    if search is not None:
        view.summary += "\n" + found_text(find, builder.found)
    return view


def _fold(graph: ScheduleGraph, expand: Chooser, pinned) -> list[list[str]]:
    def keep(label: str) -> bool:
        found = _NUMBER.search(label)
        return pinned(label) or expand(label, int(found[1]) if found else None)

    runs = fold_runs(graph, keep)
    fold_parallel(graph)
    return runs


_NUMBER = re.compile(r"_dispatch_(\d+)")


def _one_line(label: str) -> str:
    return label.replace("\n…\n", " … ").replace("\n", " ")


class _Builder:
    def __init__(
        self,
        graph: ScheduleGraph,
        costs: Mapping[str, float],
        highlight: set[str],
        find: re.Pattern | None = None,
    ):
        self.g = graph
        self.costs = costs
        self.highlight = highlight
        self.find = find
        self.found: list[str] = []
        self.source_of: dict[SSAValue, str] = {}
        """Host value -> the node that makes it (timepoints: their own node)."""
        self.counts = {
            "execute": 0,
            "concurrent": 0,
            "dispatch": 0,
            "timepoint": 0,
            "await": 0,
            "host": 0,
        }
        self.prefix = ""
        self.block_cluster: str | None = None
        """The cluster of the block being drawn, in a function of several blocks."""
        self.branch_nodes: dict[Operation, str] = {}
        self.last_run: dict[str, tuple[Shapes, Shapes]] = {}
        self.sizes: LastRun | None = None

    # ---- host level --------------------------------------------------------------------------
    def draw_function(self, function: Operation, prefix: str) -> None:
        self.prefix = prefix
        shapes = self.last_run.get(sym_name(function))
        self.sizes = None if shapes is None else LastRun(function, *shapes)
        blocks = list(function.regions[0].blocks) if function.regions else []
        if len(blocks) <= 1:
            self._draw_ops(body_ops(function))
            return
        # a host loop or branch lowered to blocks (SCFToControlFlowPass): a cluster per
        # block, entered at a point its arguments come from, and an edge per branch
        entries = {}
        for index, block in enumerate(blocks):
            label = f"^bb{index}" + (
                "(" + ", ".join(type_name(a.type) for a in block.args) + ")" if block.args else ""
            )
            self.block_cluster = self.g.cluster(
                f"cluster_{prefix}bb{index}",
                label,
                style="rounded",
                color=style.EXECUTE_LINE,
            )
            if index:  # the entry block is entered from the function's arguments
                entry = f"{prefix}bb{index}"
                entries[block] = self.g.node(entry, label, self.block_cluster, shape="point")
                for arg in block.args:
                    if is_timepoint(arg) or type_name(arg.type) == "stream.resource":
                        self.source_of[arg] = entry
            self._draw_ops(block.ops)
            if index and block.last_op in self.branch_nodes:  # the entry above the branch
                self.g.edge(entry, self.branch_nodes[block.last_op], "order", style="invis")
        for index, block in enumerate(blocks):
            branch = block.last_op
            if branch is None or not branch.successors:
                continue
            node = self.branch_nodes[branch]
            labels = ["true", "false"] if len(branch.successors) == 2 else [""]
            for successor, label in zip(branch.successors, labels, strict=False):
                back = blocks.index(successor) <= index
                self.g.edge(
                    node,
                    entries[successor],
                    "back" if back else "branch",
                    label=label + (" (loop)" if back else ""),
                    color=style.EDGE,
                    style="bold",
                    constraint="false" if back else "true",
                )
        self.block_cluster = None

    def _draw_ops(self, ops: Iterable[Operation]) -> None:
        prefix = self.prefix
        for op in ops:
            node = f"{prefix}op{self.counts['host']}"
            if op.name in EXECUTES:
                self._execute(op, f"{prefix}ex{self.counts['execute']}")
            elif op.name in IMPORTS | EXPORTS:
                self._host_node(
                    op,
                    node,
                    op.name.rsplit(".", 1)[-1] + _encoding(op) + self._last_run(op),
                    kind="import" if op.name in IMPORTS else "export",
                    shape="cds",
                    fillcolor=style.ARGUMENT,
                )
            elif op.name in DISPATCHES:
                self.counts["host"] += 1
                self._dispatch(op, node, None)
            elif op.name == "stream.timepoint.join":
                self._host_node(op, node, "join", shape="diamond", fillcolor=style.TIMEPOINT)
            elif op.name == "stream.timepoint.await":
                self.counts["await"] += 1
                self._host_node(op, node, "host await", shape="octagon", fillcolor=style.HOST_AWAIT)
            elif op.name in RETURNS:
                self._host_node(op, node, "return", shape="ellipse", fillcolor=style.ARGUMENT)
            elif op.successors:
                self.branch_nodes[op] = node
                self._host_node(op, node, op.name, shape="diamond", fillcolor=style.HOST_OP)
            elif any(is_timepoint(v) for v in (*op.operands, *op.results)):
                label = op.name + self._last_run(op)
                self._host_node(op, node, label, fillcolor=style.HOST_OP)
            else:
                self._pass_through(op)

    def _last_run(self, op: Operation) -> str:
        """` (last run 64x1000)` on an import / export, `\n(last run 4096 B)` on an
        allocation sized at run time; empty without a call or for static sizes."""
        if self.sizes is None:
            return ""
        if op.name == "stream.resource.alloca":
            size = self.sizes.bytes(op.operands[0])
            return f"\n(last run {size})" if size else ""
        sizes = self.sizes.tensor(op)
        return f" (last run {sizes})" if sizes else ""

    def _host_node(
        self, op: Operation, node: str, label: str, kind: str = "", **attrs: str
    ) -> None:
        self.counts["host"] += 1
        self.g.node(node, label, self.block_cluster, kind=kind, tooltip=op.name, **attrs)
        self._inputs(op, node)
        self._outputs(op.results, node)

    def _inputs(self, op: Operation, node: str, operands=None) -> None:
        for value in op.operands if operands is None else operands:
            source = self.source_of.get(value)
            if source is None:
                continue
            if is_timepoint(value):
                self.g.edge(source, node, "timepoint", color=style.EDGE)
            else:
                self.g.edge(
                    source,
                    node,
                    "resource",
                    style="dashed",
                    color=style.RESOURCE_EDGE,
                    tooltip=type_text(value.type),
                )

    def _outputs(self, results, node: str) -> None:
        for result in results:
            if not is_timepoint(result):
                self.source_of[result] = node
                continue
            tp = f"{self.prefix}tp{self.counts['timepoint']}"
            self.counts["timepoint"] += 1
            self.g.node(
                tp,
                value_name(result) if result.name_hint else tp,
                self.block_cluster,
                kind="timepoint",
                shape="ellipse",
                fillcolor=style.TIMEPOINT,
                fontsize="8",
                height="0.25",
                margin="0.03,0.01",
            )
            self.g.edge(node, tp, "timepoint", color=style.EDGE)
            self.source_of[result] = tp

    def _pass_through(self, op: Operation) -> None:
        """Host ops that only reshape or view data (subviews, asserts): edges go through them."""
        sources = [
            self.source_of[v] for v in op.operands if v in self.source_of and not is_timepoint(v)
        ]
        for result in op.results:
            if sources and type_name(result.type) == "stream.resource":
                self.source_of[result] = sources[0]

    # ---- execute regions ---------------------------------------------------------------------
    def _execute(self, op: Operation, node: str) -> None:
        self.counts["execute"] += 1
        cluster = self.g.cluster(
            f"cluster_{node}",
            op.name,
            self.block_cluster,
            style="filled,rounded",
            fillcolor=style.EXECUTE_FILL,
            color=style.EXECUTE_LINE,
        )
        entry = self.g.node(f"{node}_await", "await", cluster, shape="point", width="0.12")
        self._inputs(op, entry)
        block = op.regions[0].blocks[0]
        inner_source = {arg: [entry] for arg in block.args}
        leaves_before = [entry]
        last: list[str] = [entry]
        produced: set[str] = set()
        consumed: set[str] = set()
        for item in block.ops:
            if item.name in _TERMINATORS:
                continue
            leaves = self._item(item, node, cluster, inner_source)
            for leaf, leaf_op in leaves:
                preds = self._preds(leaf_op, inner_source, op.name) or last
                for p in preds:
                    self.g.edge(p, leaf, "order", color=style.EDGE)
                    consumed.add(p)
                produced.add(leaf)
            if op.name == "stream.cmd.execute":
                last = [leaf for leaf, _ in leaves] or last
            leaves_before.extend(leaf for leaf, _ in leaves)
        exit_node = self.g.node(f"{node}_signal", "signal", cluster, shape="point", width="0.12")
        ends = (
            last if op.name == "stream.cmd.execute" else [n for n in produced if n not in consumed]
        )
        for leaf in sorted(ends or [entry], key=leaves_before.index):
            self.g.edge(leaf, exit_node, "order", color=style.EDGE)
        self._outputs(op.results, exit_node)

    def _item(
        self, item: Operation, node: str, cluster: str, inner_source
    ) -> list[tuple[str, Operation]]:
        """Draw one command of an execute region; return its leaves (node id, op)."""
        if item.name in CONCURRENT | SERIAL:
            k = self.counts["concurrent"]
            self.counts["concurrent"] += int(item.name in CONCURRENT)
            sub = self.g.cluster(
                f"cluster_{node}_c{k}" if item.name in CONCURRENT else f"cluster_{node}_s{k}",
                "concurrent" if item.name in CONCURRENT else "serial",
                cluster,
                style="filled,rounded",
                fillcolor=style.CONCURRENT_FILL,
                color=style.CONCURRENT_LINE,
            )
            leaves = []
            for child in item.regions[0].blocks[0].ops if item.regions else []:
                if child.name not in _TERMINATORS:
                    leaves.extend(self._item(child, node, sub, inner_source))
            return leaves
        leaf = f"{node}_op{len([n for n in self.g.nodes if n.startswith(node + '_op')])}"
        if item.name in DISPATCHES:
            self._dispatch(item, leaf, cluster)
        else:
            self.g.node(leaf, item.name, cluster, fillcolor=style.HOST_OP)
        for result in item.results:
            inner_source[result] = [leaf]
        return [(leaf, item)]

    def _preds(self, op: Operation, inner_source, execute: str) -> list[str]:
        """Inside `stream.async.execute`, what an op waits for is its operands' producers."""
        if execute != "stream.async.execute":
            return []
        preds: list[str] = []
        for value in op.operands:
            for p in _resolve(value, inner_source):
                if p not in preds:
                    preds.append(p)
        return preds

    def _dispatch(self, op: Operation, node: str, cluster: str | None) -> None:
        refs = symbol_refs(op)
        name = export_name(refs[0]) if refs else op.name
        self.counts["dispatch"] += 1
        found = self.find is not None and self.find.search(name) is not None
        if found:
            self.found.append(name)
        self.g.node(
            node,
            name,
            self.block_cluster if cluster is None else cluster,
            weight=float(self.costs.get(name, 1.0)),
            kind="dispatch",
            shape="box3d",
            fillcolor=style.HIGHLIGHT_FILL if self.pinned(name) else style.DISPATCH,
            tooltip=op.name,
        )
        if cluster is None:
            self._inputs(op, node)
            self._outputs(op.results, node)

    def pinned(self, name: str) -> bool:
        """Marked by the reader (`highlight=` or `find=`): drawn on its own, in blue."""
        return name in self.highlight or (self.find is not None and bool(self.find.search(name)))

    def summary(self, head: str, path: list[str]) -> str:
        c = self.counts
        lines = [
            f"{head}: {c['execute']} execute region(s), {c['concurrent']} concurrent block(s), "
            f"{c['dispatch']} dispatch(es), {c['timepoint']} timepoint(s), {c['await']} host await(s)"
        ]
        if path:
            lines.append("critical path: " + " -> ".join(path))
        return "\n".join(lines)


def _resolve(value: SSAValue, inner_source) -> list[str]:
    if value in inner_source:
        return inner_source[value]
    owner = value.owner
    if isinstance(value, BlockArgument):
        parent = owner.parent_op()
        if parent is not None and parent.name in CONCURRENT and value.index < len(parent.operands):
            return _resolve(parent.operands[value.index], inner_source)
        return []
    if owner.name in CONCURRENT:
        terminator = owner.regions[0].blocks[0].last_op
        index = value.index
        if terminator is not None and index < len(terminator.operands):
            return _resolve(terminator.operands[index], inner_source)
    return []


def _encoding(op: Operation) -> str:
    for key in ("result_encoding", "source_encoding"):
        attr = op.properties.get(key) or op.attributes.get(key)
        if attr is not None:
            return f"\n{type_text(attr)}"
    return ""
