"""Follow one op: where a linalg op of the input went at every stage of the compile.

IREE tracks an op through the pipeline with its source location: fused ops' locations are
merged into the dispatch's, and the dispatch name keeps the root op's kind and shape. The IR in
an ireelab trace is printed without locations, so the op is matched structurally instead:

1. Flow: the input's linalg ops are paired, in program order, with the ops fused into the
   dispatches of the last Flow IR: same op name and result type first, then same name and
   element count (dims collapsed), then a `linalg.generic` standing for a named op
   (generalised) with the same element count; root ops (contractions, reductions) first, then
   the ops fused around them by following the dataflow (elementwise fusion, transpose
   propagation). The match is reported with the rule that made it; it is a heuristic, and says
   so, where IREE would use locations.
2. Stream, codegen, HAL, VM: the dispatch's export and executable symbols are looked up in the
   last IR of each stage (`stream.cmd.dispatch @exe::@export`, `hal.executable.export`,
   `hal.command_buffer.dispatch`, the VM's export-name rodata and executable global).
3. Timeline: the bars named after the export, when a runtime trace is given.

The result renders inline: a table of the lines found per stage, and the dispatch graph,
timepoint graph and timeline with that dispatch highlighted.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path

from xdsl.ir import Operation

from ireelab.compiler.pipeline import STAGES
from ireelab.compiler.trace import Trace
from ireelab.diagnostics import CompileError
from ireelab.viz.dispatch_graph import has_dispatches
from ireelab.viz.dispatch_sites import DispatchSite, dispatch_site, is_site
from ireelab.viz.generic_ir import body_ops, host_functions, is_data, type_text
from ireelab.viz.ir_source import module_of, parse_ir
from ireelab.viz.render import View

MAX_LINES = 8


@dataclass
class Match:
    site: int
    """The dispatch site's number in the Flow program (as in the dispatch graph's `d<N>`)."""
    export: str
    symbol: str
    inner: str
    rule: str


@dataclass
class Followed:
    op: str
    """The input op, printed as `#k linalg.matmul -> tensor<...>`."""
    match: Match | None
    stages: dict[str, list[str]] = field(default_factory=dict)
    """Stage -> lines of that stage's last IR that mention the dispatch."""
    graphs: dict[str, View] = field(default_factory=dict)

    def text(self) -> str:
        if self.match is None:
            return f"{self.op}: not found in any dispatch"
        lines = [f"{self.op} -> {self.match.export} (matched: {self.match.rule})"]
        for stage, found in self.stages.items():
            lines.append(f"  {stage}:")
            lines += [f"    {line}" for line in found] or ["    (not found)"]
        return "\n".join(lines)

    def _repr_mimebundle_(self, include=None, exclude=None, **_) -> dict[str, str]:
        rows = "".join(
            f"<tr><td><b>{stage}</b></td><td><pre style='margin:0'>"
            f"{html.escape(chr(10).join(found) or '(not found)')}</pre></td></tr>"
            for stage, found in self.stages.items()
        )
        head = html.escape(self.text().splitlines()[0])
        pictures = ""
        for name, view in self.graphs.items():
            try:
                pictures += f"<h4>{name}</h4>{view.svg()}"
            except CompileError as err:
                pictures += f"<h4>{name}</h4><pre>{html.escape(str(err))}</pre>"
        body = f"<div><b>{head}</b><table>{rows}</table>{pictures}</div>"
        return {"text/plain": self.text(), "text/html": body}


def input_ops(trace: Trace) -> list[Operation]:
    """The linalg ops of the compile's input, in program order (what `follow` can pick)."""
    module = parse_ir(trace.input_ir, "<input>")
    return [op for f in host_functions(module) for op in body_ops(f) if _is_linalg(op)]


def describe(op: Operation, index: int) -> str:
    result = next((r for r in op.results if is_data(r)), None)
    return f"#{index} {op.name}" + (f" -> {type_text(result.type)}" if result else "")


def match_inputs(trace: Trace) -> list[tuple[str, Match | None]]:
    """Every input linalg op (described) with the dispatch it landed in, in one pass."""
    ops = input_ops(trace)
    module = module_of(trace, None, has_dispatches, "dispatch graph")
    sites = [dispatch_site(module, s, n) for n, s in enumerate(_site_ops(module))]
    matches = match_ops(ops, sites)
    return [(describe(op, i), matches.get(i)) for i, op in enumerate(ops)]


def follow(
    trace: Trace,
    op: int | str,
    *,
    trace_events: dict | str | Path | None = None,
    graphs: bool = True,
) -> Followed:
    """Where input op `op` (its number, or the first whose name contains the text) went.

    `trace_events`: a runtime trace (see `timeline`) to find the op's bars in; `graphs=False`
    skips drawing the highlighted pictures.
    """
    index = _pick(input_ops(trace), op)
    description, match = match_inputs(trace)[index]
    followed = Followed(description, match)
    if match is None:
        return followed
    _stage_lines(trace, followed)
    if graphs:
        _graphs(trace, followed, trace_events)
    return followed


def _pick(ops: list[Operation], op: int | str) -> int:
    if not ops:
        raise CompileError("the input has no linalg ops to follow")
    if isinstance(op, int):
        if not 0 <= op < len(ops):
            raise CompileError(f"no input op #{op}: the input has {len(ops)} linalg ops")
        return op
    for i, candidate in enumerate(ops):
        if op in candidate.name:
            return i
    raise CompileError(f"no input linalg op named like '{op}'")


def _site_ops(module) -> list[Operation]:
    return [op for f in host_functions(module) for op in body_ops(f) if is_site(op)]


def _is_linalg(op: Operation) -> bool:
    return op.name.startswith("linalg.") and op.name != "linalg.yield"


def match_ops(ops: list[Operation], sites: list[DispatchSite]) -> dict[int, Match]:
    """Pair input ops with the ops fused into dispatches (see the module docstring).

    Root ops (contractions, convolutions, reductions: what IREE forms a dispatch around) are
    matched first, each fused op used once; the ops fused around them follow the dataflow;
    what is left (programs with no root) is matched by type, then by dataflow again.
    """
    candidates = [
        (n, inner) for n, site in enumerate(sites) for inner in site.inner if _is_linalg(inner)
    ]
    used: set[int] = set()
    matches: dict[int, Match] = {}
    _assign(ops, [i for i, op in enumerate(ops) if _is_root(op)], candidates, sites, used, matches)
    _by_neighbours(ops, matches)
    _assign(ops, [i for i in range(len(ops)) if i not in matches], candidates, sites, used, matches)
    _by_neighbours(ops, matches)
    return matches


def _is_root(op: Operation) -> bool:
    if any(
        kind in op.name
        for kind in ("matmul", "conv", "dot", "matvec", "vecmat", "pooling", "reduce")
    ):
        return True
    iterators = op.properties.get("iterator_types") or op.attributes.get("iterator_types")
    return op.name == "linalg.generic" and "reduction" in str(iterators)


def _assign(
    ops, chosen: list[int], candidates, sites, used: set[int], matches: dict[int, Match]
) -> None:
    for rule, test in _RULES:
        for i in chosen:
            if i in matches:
                continue
            for k, (n, inner) in enumerate(candidates):
                if k not in used and test(ops[i], inner):
                    used.add(k)
                    matches[i] = Match(n, sites[n].label, sites[n].symbol, inner.name, rule)
                    break


def _by_neighbours(ops: list[Operation], matches: dict[int, Match]) -> None:
    """An op with no twin was fused next to a neighbour (elementwise fusion, transpose
    propagation): an elementwise op goes where its latest matched producer went (IREE fuses
    consumers into their producer's dispatch), else its consumer; other ops (fills,
    transposes) go where their first matched consumer went, else their producer."""
    index = {op: i for i, op in enumerate(ops)}
    producers = {
        i: [index[v.owner] for v in op.operands if v.owner in index] for i, op in enumerate(ops)
    }
    consumers: dict[int, list[int]] = {i: [] for i in range(len(ops))}
    for i, found in producers.items():
        for p in found:
            consumers[p].append(i)
    changed = True
    while changed:
        changed = False
        for i, op in enumerate(ops):
            if i in matches:
                continue
            latest_producer = sorted((p for p in producers[i] if p in matches), reverse=True)
            first_consumer = [c for c in consumers[i] if c in matches]
            order = [("producer", latest_producer), ("consumer", first_consumer)]
            if op.name != "linalg.generic":
                order.reverse()
            for kind, found in order:
                if found:
                    m = matches[found[0]]
                    matches[i] = Match(
                        m.site, m.export, m.symbol, m.inner, f"fused with its {kind} #{found[0]}"
                    )
                    changed = True
                    break


def _result(op: Operation):
    return next((r.type for r in op.results if is_data(r)), None)


def _elements(op: Operation) -> int | None:
    shape = getattr(_result(op), "shape", None)
    if shape is None:
        return None
    count = 1
    for d in shape.data:
        count *= d.data
    return count


_RULES = [
    ("same op and result type", lambda a, b: a.name == b.name and _result(a) == _result(b)),
    ("same op and element count", lambda a, b: a.name == b.name and _elements(a) == _elements(b)),
    (
        "generalised to linalg.generic, same element count",
        lambda a, b: b.name == "linalg.generic" and _elements(a) == _elements(b),
    ),
]


def _stage_lines(trace: Trace, followed: Followed) -> None:
    match = followed.match
    exe = match.symbol.split("::")[0].lstrip("@") if match.symbol else ""
    names = [re.escape(match.export)] + (
        [rf"(?<![0-9A-Za-z]){re.escape(exe)}(?![0-9])"] if exe else []
    )
    pattern = re.compile("|".join(names))
    for stage in STAGES[STAGES.index("flow") :]:
        records = trace.stage(stage)
        if not records:
            continue
        lines = [
            f"{n + 1}: {line.strip()}"
            for n, line in enumerate(records[-1].ir.splitlines())
            if pattern.search(line)
        ]
        followed.stages[stage] = [_clip(line) for line in lines[:MAX_LINES]]


def _clip(line: str, width: int = 160) -> str:
    return line if len(line) <= width else line[: width - 1] + "…"


def _graphs(trace: Trace, followed: Followed, trace_events) -> None:
    from ireelab.viz.dispatch_graph import dispatch_graph
    from ireelab.viz.timeline import timeline
    from ireelab.viz.timepoint_graph import has_schedule, timepoint_graph

    export = followed.match.export
    followed.graphs["dispatch graph"] = dispatch_graph(trace, highlight=[export], legend=False)
    if any(has_schedule(r) for r in trace.records):
        followed.graphs["timepoint graph"] = timepoint_graph(
            trace, highlight=[export], legend=False
        )
    if trace_events is not None:
        followed.graphs["timeline"] = timeline(trace_events, highlight=[export])
