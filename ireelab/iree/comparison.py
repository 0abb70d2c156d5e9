"""`ireelab.iree.compare`: ireelab and the real IREE on one program, side by side.

Both compilers compile the same source; the comparison reads both traces the same way
(`ir_summary`) and puts next to each other: passes per stage, the dispatch sites with IREE's
dispatch names and the ops fused into each, the stream schedule (execute regions, concurrent
blocks, awaits), the workgroup counts, the results of one call on the same random inputs (max
error against numpy eager and between the two) and the run time of a call. Every row says
whether the two agree, and the table marks the ones that do not. A side that fails to compile
is a row too (its error), not an exception: a difference is what `compare` is for.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ireelab.compiler.pipeline import STAGES
from ireelab.compiler.trace import Trace
from ireelab.diagnostics import CompileError, RuntimeInputError
from ireelab.iree.comparison_table import Row, html_table, text_table
from ireelab.iree.ir_summary import (
    DispatchSummary,
    ScheduleSummary,
    summarize_dispatches,
    summarize_schedule,
    summarize_workgroups,
)

RTOL = 1e-4
ATOL = 1e-5
"""Agreement of float results: |a - b| <= ATOL + RTOL * max|reference| (f32 reassociation)."""


@dataclass
class Side:
    """One compiler's part: its module (or the error that stopped it) and what was read."""

    name: str
    module: object | None = None
    error: str | None = None
    trace: Trace | None = None
    dispatches: DispatchSummary | None = None
    schedule: ScheduleSummary | None = None
    workgroups: dict[str, str] = field(default_factory=dict)
    results: tuple[np.ndarray, ...] | None = None
    run_error: str | None = None
    run_ms: float | None = None
    compile_seconds: float | None = None

    def ir_after(self, stage: str) -> str | None:
        if self.trace is None:
            return None
        records = self.trace.stage(stage)
        return records[-1].ir if records else None


class Comparison:
    """The side-by-side result; renders as a table in Jupyter, as text elsewhere."""

    def __init__(self, function: str, ours: Side, theirs: Side, rows: list[Row], device: str):
        self.function = function
        self.ireelab = ours
        self.iree = theirs
        self.rows = rows
        self.device = device

    def differences(self) -> list[Row]:
        return [row for row in self.rows if row.same is False]

    def row(self, section: str, item: str) -> Row:
        for row in self.rows:
            if row.section == section and row.item == item:
                return row
        raise KeyError(f"no row '{item}' in section '{section}'")

    def pictures(self) -> dict[str, object]:
        """The dispatch graph and the timepoint graph of each side (graphviz views)."""
        from ireelab.viz.dispatch_graph import dispatch_graph
        from ireelab.viz.timepoint_graph import timepoint_graph

        views = {}
        for side in (self.ireelab, self.iree):
            for kind, stage, draw in (
                ("dispatch graph", "flow", dispatch_graph),
                ("timepoint graph", "stream", timepoint_graph),
            ):
                ir = side.ir_after(stage)
                if ir is not None:
                    views[f"{side.name} {kind}"] = _draw(draw, ir)
        return views

    def table(self) -> str:
        return text_table(self.rows, self.title())

    def title(self) -> str:
        return f"@{self.function}: ireelab vs IREE 3.13 ({self.device})"

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        return f"<Comparison @{self.function}: {len(self.differences())} differences>"

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(self.table())

    def _repr_html_(self) -> str:
        return html_table(self.rows, self.title(), self._picture_svgs())

    def _picture_svgs(self) -> list[tuple[str, str]]:
        from ireelab.viz.render import renderer

        if renderer() is None:
            return []
        svgs = []
        for title, view in self.pictures().items():
            if isinstance(view, str):
                svgs.append((title, view))
                continue
            try:
                svgs.append((title, view.svg()))
            except CompileError as err:
                svgs.append((title, f"cannot draw: {err.message}"))
        return svgs


def compare(
    source: str,
    name: str | None = None,
    inputs: Sequence[np.ndarray] | None = None,
    device: str = "local-task",
    repeat: int = 5,
    seed: int = 0,
) -> Comparison:
    """Compile `source` with ireelab and with IREE, run function `name` (default: the first
    public one) on `inputs` (default: random arrays of its argument types) and compare."""
    from ireelab.iree.program_inputs import entry_function, random_inputs

    if _looks_like_path(source):
        with open(source, encoding="utf-8") as f:
            source = f.read()
    if inputs is None:
        function, args = random_inputs(source, name, seed)
    else:
        function = entry_function(source, name).sym_name.data
        args = [np.asarray(a) for a in inputs]
    theirs = _iree_side(source, device)
    ours = _ireelab_side(source, device)
    reference = _eager(source, function, args)
    for side in (ours, theirs):
        _run(side, function, args, repeat, device)
    eager_ms = _eager_time(source, function, args, repeat) if reference is not None else None
    rows = _rows(ours, theirs, reference, eager_ms)
    return Comparison(function, ours, theirs, rows, device)


# ---- gathering each side ---------------------------------------------------------------------
def _ireelab_side(source: str, device: str) -> Side:
    import ireelab

    side = Side("ireelab")
    started = time.perf_counter()
    try:
        side.module = ireelab.compile(source, device=device)
    except CompileError as err:
        side.error = str(err).splitlines()[0]
        return side
    side.compile_seconds = time.perf_counter() - started
    side.trace = side.module.trace
    _analyse(side)
    return side


def _iree_side(source: str, device: str) -> Side:
    from ireelab.iree.availability import IREENotInstalledError
    from ireelab.iree.iree_compile import compile as iree_compile

    side = Side("IREE")
    try:
        side.module = iree_compile(source, device=device)
    except IREENotInstalledError:
        raise
    except CompileError as err:
        side.error = str(err).splitlines()[0]
        return side
    side.compile_seconds = side.module.compile_seconds
    side.trace = side.module.trace
    _analyse(side)
    return side


def _analyse(side: Side) -> None:
    flow, stream = side.ir_after("flow"), side.ir_after("stream")
    targets = side.ir_after("codegen")  # exports carry constant workgroup counts by then
    side.dispatches = summarize_dispatches(flow) if flow else None
    side.schedule = summarize_schedule(stream) if stream else None
    side.workgroups = summarize_workgroups(targets) if targets else {}


def _run(side: Side, function: str, args: list[np.ndarray], repeat: int, device: str) -> None:
    if side.module is None:
        return
    call = _caller(side, function, device)
    try:
        side.results = call(args)
    except (RuntimeInputError, CompileError, RuntimeError) as err:
        side.run_error = str(err).splitlines()[0]
        return
    side.run_ms = _median_ms(lambda: call(args), repeat)


def _caller(side: Side, function: str, device: str) -> Callable[[list[np.ndarray]], tuple]:
    module = side.module
    if hasattr(module, "invoke_all"):
        return lambda args: module.invoke_all(function, *args, device=device)

    def call(args: list[np.ndarray]) -> tuple:
        result = module.invoke(function, *args, device=device)
        return tuple(result) if isinstance(result, tuple | list) else (result,)

    return call


def _eager(source: str, function: str, args: list[np.ndarray]) -> tuple | None:
    from ireelab.eager import EagerError, evaluate

    try:
        return tuple(np.asarray(r) for r in evaluate(source, function, *args))
    except (EagerError, CompileError):
        return None


def _eager_time(source: str, function: str, args: list[np.ndarray], repeat: int) -> float:
    from ireelab.compiler.source import parse_source
    from ireelab.eager import run_function

    module = parse_source(source, "<eager>")
    return _median_ms(lambda: run_function(module, function, *args), repeat)


def _median_ms(call: Callable[[], object], repeat: int) -> float:
    call()  # warm up: kernel loading and first-touch allocations are not a call's cost
    times = []
    for _ in range(max(repeat, 1)):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1e3)
    return statistics.median(times)


# ---- the rows --------------------------------------------------------------------------------
def _rows(ours: Side, theirs: Side, reference: tuple | None, eager_ms: float | None) -> list[Row]:
    rows = [
        Row(
            "compile",
            "status",
            ours.error or "ok",
            theirs.error or "ok",
            (ours.error is None) == (theirs.error is None),
        )
    ]
    rows += _pass_rows(ours, theirs)
    rows += _dispatch_rows(ours, theirs)
    rows += _schedule_rows(ours, theirs)
    rows += _workgroup_rows(ours, theirs)
    rows += _result_rows(ours, theirs, reference)
    rows += _time_rows(ours, theirs, eager_ms)
    return rows


def _pass_rows(ours: Side, theirs: Side) -> list[Row]:
    def per_stage(side: Side) -> dict[str, str]:
        if side.trace is None:
            return {}
        return {stage: f"{n} ({changed} changed)" for stage, n, changed, _ in side.trace.summary()}

    a, b = per_stage(ours), per_stage(theirs)
    rows = []
    for stage in STAGES:
        left, right = a.get(stage, "—"), b.get(stage, "—")
        rows.append(Row("passes", stage, left, right, None))
    total_a = len(ours.trace) if ours.trace else 0
    total_b = len(theirs.trace) if theirs.trace else 0
    note = "ireelab models the passes that shape the result; IREE runs many more"
    rows.append(Row("passes", "total executions", str(total_a), str(total_b), None, note))
    return rows


def _dispatch_rows(ours: Side, theirs: Side) -> list[Row]:
    a, b = ours.dispatches, theirs.dispatches
    if a is None and b is None:
        return []
    rows = [
        _pair("dispatch", "dispatch sites", a and a.dispatch_sites, b and b.dispatch_sites),
        _pair("dispatch", "executables", a and len(a.executables), b and len(b.executables)),
    ]
    sites_a = a.sites if a else ()
    sites_b = b.sites if b else ()
    for k in range(max(len(sites_a), len(sites_b))):
        site_a = sites_a[k] if k < len(sites_a) else None
        site_b = sites_b[k] if k < len(sites_b) else None
        rows.append(
            _pair("dispatch", f"site {k}", site_a and site_a.export, site_b and site_b.export)
        )
        rows.append(
            _pair(
                "dispatch",
                f"site {k} fuses",
                site_a and " + ".join(site_a.ops),
                site_b and " + ".join(site_b.ops),
            )
        )
    return rows


def _schedule_rows(ours: Side, theirs: Side) -> list[Row]:
    a, b = ours.schedule, theirs.schedule
    if a is None and b is None:
        return []
    items = (
        ("execute regions", "execute_regions"),
        ("concurrent blocks", "concurrent_blocks"),
        ("timepoint awaits", "timepoint_awaits"),
        ("dispatches", "dispatches"),
    )
    return [
        _pair("stream", item, a and getattr(a, field_name), b and getattr(b, field_name))
        for item, field_name in items
    ]


def _workgroup_rows(ours: Side, theirs: Side) -> list[Row]:
    """Workgroup counts per dispatch site, matched by export name."""
    names = [s.export for s in (theirs.dispatches.sites if theirs.dispatches else ())]
    names += [
        s.export
        for s in (ours.dispatches.sites if ours.dispatches else ())
        if s.export not in names
    ]
    rows = []
    for name in names:
        left, right = ours.workgroups.get(name), theirs.workgroups.get(name)
        if left is None and right is None:
            continue
        rows.append(_pair("codegen", f"workgroups {name}", left, right))
    return rows


def _result_rows(ours: Side, theirs: Side, reference: tuple | None) -> list[Row]:
    rows = []
    for side in (ours, theirs):
        if side.run_error:
            rows.append(Row("results", f"{side.name} run", side.run_error, "", False))
    present = [r for r in (ours.results, theirs.results, reference) if r is not None]
    count = max((len(r) for r in present), default=0)
    for k in range(count):
        ref = reference[k] if reference is not None and k < len(reference) else None
        mine = ours.results[k] if ours.results and k < len(ours.results) else None
        real = theirs.results[k] if theirs.results and k < len(theirs.results) else None
        if ref is not None:
            err_a, ok_a = _error(mine, ref)
            err_b, ok_b = _error(real, ref)
            rows.append(
                Row("results", f"result {k}: max |Δ| vs numpy eager", err_a, err_b, ok_a and ok_b)
            )
        if mine is not None and real is not None:
            diff, ok = _error(mine, real)
            rows.append(Row("results", f"result {k}: ireelab vs IREE max |Δ|", diff, diff, ok))
        else:
            shown = ("—" if mine is None else "ran", "—" if real is None else "ran")
            rows.append(Row("results", f"result {k}: ireelab vs IREE", *shown, False))
    if reference is None and present:
        rows.append(Row("results", "numpy eager", "could not run the program", "", None))
    return rows


def _error(value: np.ndarray | None, reference: np.ndarray) -> tuple[str, bool]:
    if value is None:
        return "—", False
    if value.shape != reference.shape:
        return f"shape {value.shape} vs {reference.shape}", False
    if value.size == 0:
        return "0", True
    a = value.astype(np.float64)
    b = reference.astype(np.float64)
    err = float(np.max(np.abs(a - b)))
    if not np.issubdtype(reference.dtype, np.floating):
        return f"{err:g}", err == 0
    scale = float(np.max(np.abs(b)))
    return f"{err:.2e}", bool(err <= ATOL + RTOL * scale)


def _time_rows(ours: Side, theirs: Side, eager_ms: float | None) -> list[Row]:
    note = f"numpy eager {eager_ms:.3f} ms" if eager_ms is not None else ""
    rows = [
        Row("time", "run (median ms per call)", _ms(ours.run_ms), _ms(theirs.run_ms), None, note),
        Row(
            "time",
            "compile (s)",
            _seconds(ours.compile_seconds),
            _seconds(theirs.compile_seconds),
            None,
            "IREE's includes printing its IR after every pass",
        ),
    ]
    return rows


def _ms(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f} ms"


def _seconds(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f} s"


def _pair(section: str, item: str, left, right) -> Row:
    text_a = "—" if left is None else str(left)
    text_b = "—" if right is None else str(right)
    return Row(section, item, text_a, text_b, text_a == text_b)


def _draw(draw: Callable, ir: str):
    try:
        return draw(ir)
    except CompileError as err:
        return f"cannot draw: {err.message}"


def _looks_like_path(source: str) -> bool:
    import os

    return "\n" not in source and source.endswith(".mlir") and os.path.exists(source)
