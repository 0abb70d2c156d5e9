"""The dispatch-region graph: the program's dataflow with every dispatch drawn as a cluster.

IREE answers "what did FormDispatchRegionsPass fuse?" with `--iree-flow-dump-dispatch-graph`
(a DOT file of the Flow program). This view draws the same thing from any Flow-level IR (ours
or the real IREE's): arguments, host ops and results as nodes, edges labelled with the value's
type, and each dispatch site as a `cluster_...` labelled with its IREE export name holding the
ops fused inside it (or one node, when collapsed). Node ids are stable, so DOT is golden-tested.

Host ops that produce no data (index constants, `hal.buffer_view.assert`) are left out, as are
ops nested inside host-level regions; a dispatch whose body fuses no visible op is drawn
collapsed. A program with no dispatch at all (it only returns its arguments or contiguous
slices of them, which Flow moves with `flow.tensor.*` host ops) is drawn from its last Flow IR:
arguments, host ops and results, and the summary says so.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue

from ireelab.compiler.trace import PassRecord, Trace
from ireelab.viz import style
from ireelab.viz.dispatch_sites import DispatchSite, Source, dispatch_site, is_site
from ireelab.viz.generic_ir import (
    RETURNS,
    body_ops,
    host_functions,
    is_data,
    string_attr,
    sym_name,
    type_text,
)
from ireelab.viz.ir_source import IRSource, module_of
from ireelab.viz.render import View

_LEGEND = [
    ("argument / result", {"shape": "ellipse", "fillcolor": style.ARGUMENT}),
    ("host op", {"fillcolor": style.HOST_OP}),
    ("op fused in a dispatch", {"fillcolor": style.FUSED_OP}),
    ("dispatch (collapsed)", {"shape": "box3d", "fillcolor": style.DISPATCH}),
]


def has_dispatches(record: PassRecord) -> bool:
    return record.stage == "flow" and any(
        marker in record.ir for marker in ("flow.dispatch", "flow.executable")
    )


def dispatch_graph(
    source: IRSource,
    *,
    collapse: bool | Iterable[str | int] = False,
    highlight: Iterable[str] = (),
    at: int | str | None = None,
    legend: bool = True,
) -> View:
    """Draw the dispatch regions of `source` (a Trace: its last Flow IR, or the pass `at`).

    `collapse`: True draws every dispatch as one node; a collection of export names or dispatch
    numbers collapses those. `highlight`: export names (or node ids) to mark in red.
    """
    if isinstance(source, Trace) and at is None:
        source = _flow_record(source) or source
    module = module_of(source, at, has_dispatches, "dispatch graph")
    return draw_dispatch_graph(module, collapse=collapse, highlight=highlight, legend=legend)


def _flow_record(trace: Trace) -> PassRecord | None:
    """The last Flow IR with a dispatch; else the last Flow IR (a program with none)."""
    flow = [r for r in trace.records if r.stage == "flow"]
    with_dispatches = [r for r in flow if has_dispatches(r)]
    return (with_dispatches or flow or [None])[-1]


def draw_dispatch_graph(
    module: ModuleOp,
    *,
    collapse: bool | Iterable[str | int] = False,
    highlight: Iterable[str] = (),
    legend: bool = True,
) -> View:
    functions = host_functions(module)
    names = ", ".join(f"@{sym_name(f)}" for f in functions)
    view = style.new_view("dispatch_graph", f"dispatch graph of {names or 'an empty module'}")
    builder = _Builder(module, view, collapse, set(highlight))
    for index, function in enumerate(functions):
        builder.draw_function(function, f"f{index}_" if index else "")
    if legend:
        style.add_legend(view, _LEGEND)
    view.summary = builder.summary(view.summary)
    return view


class _Builder:
    def __init__(
        self,
        module: ModuleOp,
        view: View,
        collapse: bool | Iterable[str | int],
        highlight: set[str],
    ):
        self.module = module
        self.view = view
        self.collapse_all = collapse is True
        self.collapse = set() if isinstance(collapse, bool) else set(collapse)
        self.highlight = highlight
        self.source_of: dict[SSAValue, str] = {}
        self.sites: list[DispatchSite] = []

    def draw_function(self, function: Operation, prefix: str) -> None:
        block = function.regions[0].blocks[0]
        for i, arg in enumerate(block.args):
            node = f"{prefix}arg{i}"
            self.view.node(node, f"%arg{i}", shape="ellipse", fillcolor=style.ARGUMENT)
            self.source_of[arg] = node
        host_count = 0
        for op in body_ops(function):
            if op.name in RETURNS:
                self._results(op, prefix)
            elif is_site(op):
                self._site(op, prefix)
            elif any(is_data(r) for r in op.results):
                self._host_op(op, f"{prefix}op{host_count}")
                host_count += 1

    def _results(self, op: Operation, prefix: str) -> None:
        for j, value in enumerate(op.operands):
            node = f"{prefix}res{j}"
            self.view.node(node, f"result {j}", shape="ellipse", fillcolor=style.ARGUMENT)
            self._edge_from(value, node)

    def _host_op(self, op: Operation, node: str) -> None:
        name = string_attr(op, "name")
        label = f'{op.name} "{name}"' if name else op.name
        self.view.node(node, label, **({"fillcolor": style.HOST_OP} | self._mark(node)))
        for value in op.operands:
            if is_data(value):
                self._edge_from(value, node)
        for result in op.results:
            self.source_of[result] = node

    def _edge_from(self, value: SSAValue, node: str, **attrs: str) -> None:
        source = self.source_of.get(value)
        if source is not None:
            self.view.edge(source, node, label=type_text(value.type), **attrs)

    def _site(self, op: Operation, prefix: str) -> None:
        number = len(self.sites)
        site = dispatch_site(self.module, op, number)
        self.sites.append(site)
        node = f"{prefix}d{number}"
        collapsed = (
            self.collapse_all
            or number in self.collapse
            or site.label in self.collapse
            or not site.inner
        )
        if collapsed:
            self._collapsed_site(site, node)
        else:
            self._expanded_site(site, node)

    def _mark(self, *keys: str) -> dict[str, str]:
        if not self.highlight.intersection(keys):
            return {}
        return {"color": style.HIGHLIGHT, "penwidth": "3", "fillcolor": style.HIGHLIGHT_FILL}

    def _collapsed_site(self, site: DispatchSite, node: str) -> None:
        fused = ", ".join(dict.fromkeys(o.name for o in site.inner)) or "no fused ops"
        attrs = {"fillcolor": style.DISPATCH} | self._mark(node, site.label)
        self.view.node(
            node,
            f"{site.label}\n{fused}",
            shape="box3d",
            tooltip=site.symbol or site.op.name,
            **attrs,
        )
        for value in site.op.operands:
            if is_data(value):
                self._edge_from(value, node)
        for result in site.op.results:
            self.source_of[result] = node

    def _expanded_site(self, site: DispatchSite, node: str) -> None:
        ids = {op: f"{node}_op{i}" for i, op in enumerate(site.inner)}
        with self.view.subgraph(name=f"cluster_{node}") as cluster:
            attrs = {"color": style.CLUSTER_LINE, "fillcolor": style.CLUSTER_FILL}
            attrs |= self._mark(node, site.label)
            cluster.attr(
                label=site.label,
                tooltip=site.symbol or site.op.name,
                style="filled,rounded",
                **attrs,
            )
            for op, op_id in ids.items():
                cluster.node(op_id, _inner_label(op), fillcolor=style.FUSED_OP)
        for op, op_id in ids.items():
            for source in site.inputs.get(op, []):
                self._inner_edge(source, ids, op_id)
        for result, source in site.outputs.items():
            if source.inner is not None:
                self.source_of[result] = ids[source.inner]
            elif source.operand is not None and source.operand in self.source_of:
                self.source_of[result] = self.source_of[source.operand]

    def _inner_edge(self, source: Source, ids: dict[Operation, str], target: str) -> None:
        if source.inner is not None:
            value = next(r for r in source.inner.results if is_data(r))
            self.view.edge(ids[source.inner], target, label=type_text(value.type))
        elif source.operand is not None:
            self._edge_from(source.operand, target)

    def summary(self, head: str) -> str:
        lines = [f"{head}: {len(self.sites)} dispatch(es)"]
        if not self.sites:
            lines.append(
                "  no dispatches: the program only moves data on the host (flow.tensor.* ops)"
            )
        for site in self.sites:
            fused = ", ".join(o.name for o in site.inner)
            lines.append(f"  {site.label}: {fused}")
        return "\n".join(lines)


def _inner_label(op: Operation) -> str:
    result = next((r for r in op.results if is_data(r)), None)
    lines = [op.name]
    body = [o.name for o in _payload(op) if not o.name.endswith("yield")]
    if body:
        lines.append(", ".join(dict.fromkeys(body)))
    if result is not None:
        lines.append(type_text(result.type))
    return "\n".join(lines)


def _payload(op: Operation) -> list[Operation]:
    """The scalar ops in a `linalg.generic`-like body (what an elementwise op computes)."""
    if op.name == "linalg.generic" and op.regions and op.regions[0].blocks:
        return list(op.regions[0].blocks[0].ops)
    return []
