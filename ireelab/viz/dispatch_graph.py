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

Above `overview.OVERVIEW_THRESHOLD` dispatches the graph is drawn as an overview (see
`ireelab.viz.overview`): each dispatch one node with its short name and what it fuses, each
argument merged with its `hal.tensor.import` (and each result with its export), an input whose
only use is one dispatch that also reads a computed value (a layer's weights) folded into that
dispatch's label, edges labelled with sizes only, and long chains wrapped into rows. `expand=`
opens chosen dispatches; `find=` highlights the dispatches whose name matches and greys the rest.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue

from ireelab.compiler.trace import PassRecord, Trace
from ireelab.viz import style
from ireelab.viz.dispatch_sites import DispatchSite, Source, dispatch_site, is_site
from ireelab.viz.generic_ir import (
    RETURNS,
    body_ops,
    export_name,
    host_functions,
    is_data,
    string_attr,
    sym_name,
    symbol_refs,
    type_text,
)
from ireelab.viz.ir_source import IRSource, module_of
from ireelab.viz.last_run import LastRun, Shapes
from ireelab.viz.overview import (
    Chooser,
    emit_rows,
    found_text,
    pattern,
    shape_text,
    short_name,
    use_overview,
)
from ireelab.viz.render import View

IMPORTS = frozenset({"hal.tensor.import"})
EXPORTS = frozenset({"hal.tensor.export"})
_DIM = {"fillcolor": "#eeeeee", "fontcolor": "#888888", "color": "#bbbbbb"}

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
    overview: bool | None = None,
    expand: Iterable[str | int] = (),
    find: str | None = None,
    last_run: dict[str, tuple[Shapes, Shapes]] | None = None,
) -> View:
    """Draw the dispatch regions of `source` (a Trace: its last Flow IR, or the pass `at`).

    `collapse`: True draws every dispatch as one node; a collection of export names or dispatch
    numbers collapses those. `highlight`: export names (or node ids) to mark in blue.
    `overview`: draw the model-scale overview (None: when there are more than
    `OVERVIEW_THRESHOLD` dispatches). `expand`: dispatches (export names, numbers or name
    patterns) to draw with their fused ops in the overview. `find`: a name pattern; matching
    dispatches are highlighted (the others greyed) and listed in the summary.
    `last_run`: per function, the argument and result shapes of a call; edges with `?` sizes then say
    the sizes of that call (`tensor<?x4xf32> (last run 7x4)`, see `last_run.LastRun`).
    """
    if isinstance(source, Trace) and at is None:
        source = _flow_record(source) or source
    module = module_of(source, at, has_dispatches, "dispatch graph")
    return draw_dispatch_graph(
        module,
        collapse=collapse,
        highlight=highlight,
        legend=legend,
        overview=overview,
        expand=expand,
        find=find,
        last_run=last_run,
    )


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
    overview: bool | None = None,
    expand: Iterable[str | int] = (),
    find: str | None = None,
    last_run: dict[str, tuple[Shapes, Shapes]] | None = None,
) -> View:
    functions = host_functions(module)
    names = ", ".join(f"@{sym_name(f)}" for f in functions)
    view = style.new_view("dispatch_graph", f"dispatch graph of {names or 'an empty module'}")
    builder = _Builder(module, view, collapse, set(highlight))
    builder.last_run = last_run or {}
    count = sum(1 for f in functions for op in body_ops(f) if is_site(op))
    if use_overview(overview, count):
        builder.overview = True
        builder.expand = Chooser(expand)
    builder.find, builder.find_text = pattern(find), find or ""
    for index, function in enumerate(functions):
        builder.draw_function(function, f"f{index}_" if index else "")
    if legend:
        style.add_legend(view, _LEGEND, stacked=builder.overview)
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
        self.overview = False
        self.expand = Chooser()
        self.find: re.Pattern | None = None
        self.find_text = ""
        self.found: list[str] = []
        self.last_run: dict[str, tuple[Shapes, Shapes]] = {}
        self.sizes: LastRun | None = None

    def draw_function(self, function: Operation, prefix: str) -> None:
        if self.overview:
            outer = self.view
            with outer.subgraph(name=f"cluster_{prefix}function") as cluster:
                cluster.attr(label=f"@{sym_name(function)}", style="dashed", color="#bbbbbb")
                self.view = cluster
                self._draw_body(function, prefix, _Overview(self, function))
            self.view = outer
            return
        self._draw_body(function, prefix, None)

    def _draw_body(self, function: Operation, prefix: str, overview: _Overview | None) -> None:
        block = function.regions[0].blocks[0]
        shapes = self.last_run.get(sym_name(function))
        self.sizes = None if shapes is None else LastRun(function, *shapes)
        for i, arg in enumerate(block.args):
            node = f"{prefix}arg{i}"
            if overview is not None and overview.merged(arg):
                continue
            self.view.node(node, f"%arg{i}", shape="ellipse", fillcolor=style.ARGUMENT)
            self.source_of[arg] = node
        host_count = 0
        for op in body_ops(function):
            if op.name in RETURNS:
                self._results(op, prefix, overview)
            elif is_site(op):
                self._site(op, prefix, overview)
            elif any(is_data(r) for r in op.results):
                node = f"{prefix}op{host_count}"
                if overview is None or not overview.host_op(op, node):
                    self._host_op(op, node)
                host_count += 1
        if overview is not None:
            for chain in overview.chain:
                emit_rows(self.view, chain)

    def _results(self, op: Operation, prefix: str, overview: _Overview | None) -> None:
        for j, value in enumerate(op.operands):
            if overview is not None and overview.merged(value):
                continue
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
            if self.overview:
                label = shape_text(type_text(value.type))
            else:
                label = self.sizes.label(value) if self.sizes else type_text(value.type)
            self.view.edge(source, node, label=label, **attrs)

    def _site(self, op: Operation, prefix: str, overview: _Overview | None = None) -> None:
        number = len(self.sites)
        site = dispatch_site(self.module, op, number)
        self.sites.append(site)
        node = f"{prefix}d{number}"
        if self.find is not None and self.find.search(site.label):
            self.found.append(site.label)
        if overview is not None and not self.expand(site.label, number, node):
            overview.site(site, node)
            return
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
        found = self.find is not None and any(self.find.search(k) for k in keys[1:])
        if not found and not self.highlight.intersection(keys):
            return {"fontcolor": _DIM["fontcolor"]} if self.find is not None else {}
        return {"color": style.HIGHLIGHT, "penwidth": "3", "fillcolor": style.HIGHLIGHT_FILL}

    def _collapsed_site(self, site: DispatchSite, node: str, label: str = "", **extra) -> None:
        fused = ", ".join(dict.fromkeys(o.name for o in site.inner)) or "no fused ops"
        attrs = {"shape": "box3d", "fillcolor": style.DISPATCH}
        attrs |= self._mark(node, site.label) | {"tooltip": site.symbol or site.op.name}
        self.view.node(node, label or f"{site.label}\n{fused}", **(attrs | extra))
        for value in site_operands(site):
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
        if self.overview:
            lines[0] += " (overview: one node per dispatch; expand=[...] opens one)"
        if self.find is not None:
            lines.append(found_text(self.find_text, self.found))
        if not self.sites:
            lines.append(
                "  no dispatches: the program only moves data on the host (flow.tensor.* ops)"
            )
        for site in self.sites:
            fused = ", ".join(o.name for o in site.inner)
            lines.append(f"  {site.label}: {fused}")
        return "\n".join(lines)


def site_operands(site: DispatchSite) -> list[SSAValue]:
    """The data a site reads: its operands, and for a `flow.dispatch.region` (which takes none)
    the values its body captures from the host."""
    values = [v for v in site.op.operands if is_data(v)]
    for sources in site.inputs.values():
        values += [s.operand for s in sources if s.operand is not None]
    return list(dict.fromkeys(values))


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


class _Overview:
    """What the overview draws differently for one function: merged arguments and results,
    folded inputs, one node per dispatch, and the chain of dispatches to wrap into rows."""

    def __init__(self, builder: _Builder, function: Operation):
        self.b = builder
        self.uses: dict[SSAValue, list[Operation]] = {}
        for op in body_ops(function):
            for value in dict.fromkeys([*op.operands, *_captured(op)]):
                self.uses.setdefault(value, []).append(op)
        self.folded: dict[SSAValue, str] = {}
        """Import result -> its name, for inputs drawn inside their one consumer's label."""
        self.chain: list[list[str]] = [[]]

    def merged(self, value: SSAValue) -> bool:
        """An argument only imported, or a result only exported: drawn as one node."""
        uses = self.uses.get(value, [])
        if isinstance(value, BlockArgument):
            return len(uses) == 1 and uses[0].name in IMPORTS
        return isinstance(value.owner, Operation) and value.owner.name in EXPORTS

    def host_op(self, op: Operation, node: str) -> bool:
        """Draw an import or export merged with its argument or result, look through a barrier,
        fold what only feeds one dispatch; False for the ops drawn as usual."""
        if _is_barrier(op):
            source, value = op.operands[0], op.results[0]
            if source in self.folded:
                self.folded[value] = self.folded[source]
            elif source in self.b.source_of:
                self.b.source_of[value] = self.b.source_of[source]
            self.uses.setdefault(value, [])
            return True
        if op.name not in IMPORTS | EXPORTS:
            return self._fold_host_op(op)
        if not op.results or not op.operands:
            return False
        name = string_attr(op, "name") or op.name
        if op.name in IMPORTS and not self.merged(op.operands[0]):
            return False
        value = op.results[0] if op.name in IMPORTS else op.operands[0]
        if op.name in IMPORTS and self._foldable(op.results[0]):
            self.folded[op.results[0]] = name
            return True
        label = f"{name}\n{shape_text(type_text(value.type))}"
        self.b.view.node(
            node, label, shape="ellipse", fillcolor=style.ARGUMENT, tooltip=op.name, margin="0.05"
        )
        if op.name in EXPORTS:
            self.b._edge_from(op.operands[0], node)
        else:
            self.b.source_of[op.results[0]] = node
        return True

    def _fold_host_op(self, op: Operation) -> bool:
        """Scratch made for one dispatch (`tensor.empty`, a `linalg.fill` not yet cloned in):
        every result used only by that dispatch, every input folded too."""
        site = self._destination(op)
        if site is None or not self._collapsed(site):
            return False
        results = [r for r in op.results if is_data(r)]
        if any(is_data(v) and v not in self.folded for v in op.operands):
            return False
        for result in results:
            self.folded[result] = ""
        return True

    def _destination(self, op: Operation, depth: int = 0) -> Operation | None:
        """The one dispatch everything `op` makes ends up in (through host ops), or None."""
        found: set[Operation] = set()
        for result in (r for r in op.results if is_data(r)):
            for use in self._final_uses(result):
                target = use if is_site(use) or depth > 8 else self._destination(use, depth + 1)
                if target is None or not is_site(target):
                    return None
                found.add(target)
        return found.pop() if len(found) == 1 else None

    def _final_uses(self, value: SSAValue) -> list[Operation]:
        """The ops that use `value`, looking through barriers."""
        uses = []
        for use in self.uses.get(value, []):
            uses += self._final_uses(use.results[0]) if _is_barrier(use) else [use]
        return uses

    def _collapsed(self, site: Operation) -> bool:
        """Whether `site` (not drawn yet) will be drawn as one node."""
        if not is_site(site):
            return False
        number = len(self.b.sites) + self._sites_before(site)
        export = symbol_refs(site)
        name = export_name(export[0]) if export else f"dispatch region {number}"
        return not self.b.expand(name, number, f"d{number}")

    def _foldable(self, value: SSAValue) -> bool:
        """A layer's weight: used once, by a dispatch that also reads what a dispatch computed."""
        uses = self._final_uses(value)
        if len(uses) != 1 or not self._collapsed(uses[0]):
            return False
        return any(_computed(v) for v in [*uses[0].operands, *_captured(uses[0])] if is_data(v))

    def _sites_before(self, site: Operation) -> int:
        """How many sites come between the last one drawn and `site` (imports come first)."""
        count = 0
        op = site.prev_op
        while op is not None and not (self.b.sites and op is self.b.sites[-1].op):
            count += int(is_site(op))
            op = op.prev_op
        return count

    def site(self, site: DispatchSite, node: str) -> None:
        fused = [o for o in site.inner if o.name != "linalg.fill"] or site.inner
        lines = [short_name(site.label)]
        if fused:
            lines.append(" · ".join(dict.fromkeys(_short_op(o) for o in fused)))
        folded = [self.folded[v] for v in site_operands(site) if v in self.folded]
        names = [name for name in folded if name]
        scratch = len(folded) - len(names)
        if scratch:
            names.append(f"{scratch} host op{'s' if scratch > 1 else ''}")
        if names:
            lines.append("+ " + ", ".join(names))
        everything = ", ".join(o.name for o in site.inner) or "no fused ops"
        dim = self.b.find is not None and not self.b.find.search(site.label)
        self.b._collapsed_site(
            site,
            node,
            "\n".join(lines),
            tooltip=f"{site.symbol or site.label}: {everything}",
            **(_DIM if dim and site.label not in self.b.highlight else {}),
        )
        previous = self.chain[-1][-1] if self.chain[-1] else None
        sources = {self.b.source_of.get(v) for v in site_operands(site)}
        if previous is not None and previous not in sources:
            self.chain.append([])
        self.chain[-1].append(node)


def _is_barrier(op: Operation) -> bool:
    """`iree_tensor_ext.compute_barrier.start` / `.end` and the like: a value passed through."""
    data = [v for v in op.operands if is_data(v)]
    results = [r for r in op.results if is_data(r)]
    return "barrier" in op.name and len(data) == len(results) == 1 == len(op.results)


def _computed(value: SSAValue) -> bool:
    """Whether a dispatch computed `value` (through any host ops), not only the inputs."""
    owner = value.owner
    if not isinstance(owner, Operation):
        return False
    if is_site(owner):
        return True
    return any(_computed(v) for v in owner.operands if is_data(v))


def _captured(op: Operation) -> list[SSAValue]:
    """Values a `flow.dispatch.region` body uses from the host (regions take no operands)."""
    if not op.regions or not is_site(op):
        return []
    values = []
    for inner in op.walk():
        for value in inner.operands:
            owner = value.owner if isinstance(value.owner, Operation) else value.owner.parent_op()
            if owner is not None and not op.is_ancestor(owner):
                values.append(value)
    return values


def _short_op(op: Operation) -> str:
    """`linalg.matmul` -> `matmul`; a generic by what it computes: `generic(addf, tanh)`."""
    name = op.name.removeprefix("linalg.")
    body = [o.name.split(".", 1)[-1] for o in _payload(op) if not o.name.endswith("yield")]
    return f"{name}({', '.join(dict.fromkeys(body))})" if body else name
