"""The pass stepper: walk a compile pass by pass, as `--mlir-print-ir-after-all` would print it.

IREE's way to see what each pass did is to dump the IR after all passes and diff neighbours by
hand (the founding note's recipe). The stepper does that in a notebook: stage buttons A-G with
their pass counts, a slider over the passes, the IR after the current pass with the lines it
added and removed highlighted, a switch to hide passes that changed nothing, a box to jump to a
pass by name, the op-count delta and the time of the pass, and the dispatch graph (from Flow on)
or the timepoint graph (from Stream on) of the IR at that point. On a model the graphs open as
their overview (one node per dispatch, serial runs folded); a box finds dispatches by name
(highlighted, the rest greyed), a chooser opens one dispatch (its fused ops in the dispatch
graph, on its own in the timepoint graph), and a switch draws every op instead.
"""

from __future__ import annotations

import difflib
import html
import re

import ipywidgets as widgets

from ireelab.compiler.pipeline import STAGE_LETTERS, STAGES
from ireelab.compiler.trace import PassRecord, Trace
from ireelab.diagnostics import CompileError

GRAPHS = ("none", "dispatch graph", "timepoint graph")
DETAIL = ("auto", "overview", "every op")
"""The graphs' detail: overview above the threshold (auto), always, or never."""
NO_DISPATCH = "(no dispatch chosen)"
_EXPORT_REF = re.compile(r"dispatch @[\w.$-]+::@([\w.$-]+)")
_IR_STYLE = (
    "font-family:monospace;font-size:12px;white-space:pre;overflow:auto;max-height:480px;"
    "border:1px solid #ddd;padding:4px;line-height:1.3"
)


def ir_diff_html(before: str, after: str) -> str:
    """The IR after a pass, removed lines in red and added lines in green, as HTML."""
    rows = []
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    old, new = before.splitlines(), after.splitlines()
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            rows += [_line(" ", text, "") for text in new[j1:j2]]
            continue
        rows += [_line("-", text, "background:#fbe3e4;color:#9a1c1c") for text in old[i1:i2]]
        rows += [_line("+", text, "background:#e3f6e3;color:#14591a") for text in new[j1:j2]]
    return f'<div class="ireelab-ir" style="{_IR_STYLE}">' + "".join(rows) + "</div>"


def _line(mark: str, text: str, css: str) -> str:
    cls = {"+": "added", "-": "removed", " ": "same"}[mark]
    return f'<div class="{cls}" style="{css}">{mark} {html.escape(text)}</div>'


def op_count_delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    """Op name -> change in count (non-zero only), sorted by name."""
    names = sorted(set(before) | set(after))
    return {
        n: after.get(n, 0) - before.get(n, 0) for n in names if after.get(n, 0) != before.get(n, 0)
    }


class Stepper:
    """An ipywidgets viewer of a `Trace`; `Stepper(trace)` displays itself in Jupyter."""

    def __init__(self, trace: Trace):
        if not trace.records:
            raise CompileError("the trace holds no passes to step through")
        self.trace = trace
        self._graph_cache: dict[tuple[int, str], str] = {}
        self._positions = list(range(len(trace.records)))
        self._build()
        self.go(0)

    # ---- widgets ---------------------------------------------------------------------------
    def _build(self) -> None:
        counts = {stage: len(self.trace.stage(stage)) for stage in STAGES}
        self.stage_buttons = {}
        for stage in STAGES:
            button = widgets.Button(
                description=f"{STAGE_LETTERS[stage]} {stage} ({counts[stage]})",
                disabled=counts[stage] == 0,
                layout=widgets.Layout(width="auto"),
                tooltip=f"first pass of stage {stage}",
            )
            button.on_click(lambda _, s=stage: self.select_stage(s))
            self.stage_buttons[stage] = button
        self.slider = widgets.IntSlider(
            value=0,
            min=0,
            max=len(self._positions) - 1,
            description="pass",
            continuous_update=False,
            layout=widgets.Layout(width="60%"),
        )
        self.slider.observe(self._on_slider, names="value")
        self.prev_button = widgets.Button(description="◀", layout=widgets.Layout(width="3em"))
        self.next_button = widgets.Button(description="▶", layout=widgets.Layout(width="3em"))
        self.prev_button.on_click(lambda _: self.step(-1))
        self.next_button.on_click(lambda _: self.step(1))
        self.hide_unchanged = widgets.Checkbox(
            value=False, description="hide passes that changed nothing", indent=False
        )
        self.hide_unchanged.observe(self._on_hide, names="value")
        self.search = widgets.Text(
            placeholder="jump to pass (name or flag)", continuous_update=False
        )
        self.search.observe(lambda change: self.jump(change["new"]), names="value")
        self.view_mode = widgets.ToggleButtons(options=["diff", "after"], value="diff")
        self.view_mode.observe(lambda _: self._show_ir(), names="value")
        self.graph_kind = widgets.ToggleButtons(options=list(GRAPHS), value="none")
        self.graph_kind.observe(self._on_graph_kind, names="value")
        self.find_next = widgets.Button(
            description="find next", layout=widgets.Layout(width="auto")
        )
        self.find_next.on_click(lambda _: self.jump(self.search.value))
        self.find_dispatch = widgets.Text(
            placeholder="find dispatch (name or pattern)", continuous_update=False
        )
        self.dispatch = widgets.Dropdown(
            options=[NO_DISPATCH], value=NO_DISPATCH, description="open", layout={"width": "40%"}
        )
        self.detail = widgets.ToggleButtons(options=list(DETAIL), value="auto")
        for control in (self.find_dispatch, self.dispatch, self.detail):
            control.observe(self._on_graph_control, names="value")
        self.info = widgets.HTML()
        self.ir = widgets.HTML()
        self.graph = widgets.HTML()
        self.widget = widgets.VBox(
            [
                widgets.HBox(list(self.stage_buttons.values())),
                widgets.HBox([self.prev_button, self.slider, self.next_button]),
                widgets.HBox([self.hide_unchanged, self.search, self.find_next]),
                self.info,
                widgets.HBox([self.view_mode, self.graph_kind]),
                self.ir,
                widgets.HBox([self.find_dispatch, self.dispatch, self.detail]),
                self.graph,
            ]
        )
        self.widget.add_class("ireelab-stepper")
        self._auto_graph = True
        self._setting_graph = False
        self._listing = False

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    # ---- navigation --------------------------------------------------------------------------
    @property
    def index(self) -> int:
        """The current pass's index in the trace."""
        return self._positions[self.slider.value]

    @property
    def current(self) -> PassRecord:
        return self.trace.records[self.index]

    def go(self, index: int) -> None:
        """Show pass `index` of the trace (the nearest shown one if it is hidden)."""
        position = min(
            range(len(self._positions)), key=lambda p: (abs(self._positions[p] - index), p)
        )
        if self.slider.value == position:
            self._refresh()
        else:
            self.slider.value = position

    def step(self, delta: int) -> None:
        self.slider.value = max(0, min(self.slider.max, self.slider.value + delta))

    def select_stage(self, stage: str) -> None:
        shown = [i for i in self._positions if self.trace.records[i].stage == stage]
        if shown:
            self.go(shown[0])

    def jump(self, text: str) -> bool:
        """Go to the next pass (after the current one, wrapping) whose name or flag has `text`."""
        text = text.strip().lower()
        if not text:
            return False
        order = self._positions[self.slider.value + 1 :] + self._positions[: self.slider.value + 1]
        for i in order:
            record = self.trace.records[i]
            if text in record.name.lower() or text in record.flag.lower():
                self.go(i)
                return True
        self.info.value = f"<b>no pass matches '{html.escape(text)}'</b>"
        return False

    def _on_slider(self, change) -> None:
        self._refresh()

    def _on_hide(self, change) -> None:
        current = self.index
        records = self.trace.records
        self._positions = [
            i for i in range(len(records)) if records[i].changed or not change["new"]
        ]
        if not self._positions:
            self._positions = [current]
        self.slider.max = len(self._positions) - 1
        self.go(current)
        self._refresh()

    # ---- what is shown ---------------------------------------------------------------------
    def _refresh(self) -> None:
        record = self.current
        for stage, button in self.stage_buttons.items():
            button.button_style = "info" if stage == record.stage else ""
        self.info.value = self._info_html(record)
        self._show_ir()
        if self._auto_graph:
            self._setting_graph = True
            self.graph_kind.value = self._default_graph(record)
            self._setting_graph = False
        self._show_graph()

    def _on_graph_kind(self, change) -> None:
        if not self._setting_graph:
            self._auto_graph = False  # the reader chose a graph: keep it while stepping
        self._show_graph()

    def _info_html(self, record: PassRecord) -> str:
        before = PassRecord(-1, "", "", "", self.trace.ir_before(record.index), False, 0.0)
        delta = op_count_delta(before.op_counts(), record.op_counts())
        parts = ", ".join(f"{'+' if d > 0 else ''}{d} {html.escape(n)}" for n, d in delta.items())
        changed = "changed the IR" if record.changed else "no change"
        return (
            f"<b>#{record.index} {STAGE_LETTERS.get(record.stage, '?')} {record.stage}</b> · "
            f"<code>{html.escape(record.name)}</code> (<code>{html.escape(record.flag)}</code>) · "
            f"{_runner(record)}{changed}<br>"
            f"<span class='ireelab-delta'>op counts: {parts or 'unchanged'}</span>"
        )

    def _show_ir(self) -> None:
        record = self.current
        if self.view_mode.value == "after":
            self.ir.value = ir_diff_html(record.ir, record.ir)
        else:
            self.ir.value = ir_diff_html(self.trace.ir_before(record.index), record.ir)

    def _default_graph(self, record: PassRecord) -> str:
        stage = STAGES.index(record.stage) if record.stage in STAGES else -1
        if stage >= STAGES.index("stream") and self._graph_source("timepoint graph") is not None:
            return "timepoint graph"
        if stage >= STAGES.index("flow") and self._graph_source("dispatch graph") is not None:
            return "dispatch graph"
        return "none"

    def _graph_source(self, kind: str) -> PassRecord | None:
        """The latest record up to the current one whose IR that graph can be drawn from."""
        from ireelab.viz.dispatch_graph import has_dispatches
        from ireelab.viz.timepoint_graph import has_schedule

        fits = has_dispatches if kind == "dispatch graph" else has_schedule
        for record in reversed(self.trace.records[: self.index + 1]):
            if fits(record):
                return record
        return None

    def _show_graph(self) -> None:
        kind = self.graph_kind.value
        if kind == "none":
            self.graph.value = ""
            return
        record = self._graph_source(kind)
        if record is None:
            self.graph.value = f"<i>no {kind} before this pass</i>"
            return
        self._list_dispatches(record)
        options = self.graph_options()
        key = (record.index, kind, *((k, str(v)) for k, v in options.items()))
        if key not in self._graph_cache:
            self._graph_cache[key] = self._draw(record, kind, options)
        self.graph.value = self._graph_cache[key]

    def graph_options(self) -> dict:
        """What the find box, the dispatch chooser and the detail switch ask the graphs for."""
        options: dict = {"find": self.find_dispatch.value.strip() or None}
        if self.dispatch.value != NO_DISPATCH:
            options["expand"] = [self.dispatch.value]
            options["highlight"] = [self.dispatch.value]
        if self.detail.value != "auto":
            options["overview"] = self.detail.value == "overview"
        return options

    def _list_dispatches(self, record: PassRecord) -> None:
        """The chooser offers the dispatches of the IR the graph is drawn from."""
        names = [NO_DISPATCH, *dict.fromkeys(_EXPORT_REF.findall(record.ir))]
        if list(self.dispatch.options) == names:
            return
        keep = self.dispatch.value if self.dispatch.value in names else NO_DISPATCH
        self._listing = True
        try:
            self.dispatch.options = names
            self.dispatch.value = keep
        finally:
            self._listing = False

    def _on_graph_control(self, change) -> None:
        if not self._listing:
            self._show_graph()

    def _draw(self, record: PassRecord, kind: str, options: dict) -> str:
        from ireelab.viz.dispatch_graph import dispatch_graph
        from ireelab.viz.render import renderer
        from ireelab.viz.timepoint_graph import timepoint_graph

        draw = dispatch_graph if kind == "dispatch graph" else timepoint_graph
        try:
            view = draw(record, legend=False, **options)
            found = [line for line in view.summary.splitlines() if line.startswith("find '")]
            caption = (
                f"<div><i>{kind} of the IR after #{record.index} {html.escape(record.name)}</i>"
                + "".join(f" · <b>{html.escape(line)}</b>" for line in found)
                + "</div>"
            )
            if renderer() is None:
                return caption + f"<pre>{html.escape(view.summary)}</pre>"
            return (
                caption
                + f'<div class="ireelab-graph" style="overflow:auto;max-height:600px">{view.svg()}</div>'
            )
        except CompileError as err:
            return f"<pre>{html.escape(str(err))}</pre>"


def _runner(record: PassRecord) -> str:
    """Who ran the pass: the real IREE's passes (read from its dump) have no timings."""
    if record.tool == "iree":
        return "run by the real IREE · "
    return f"{record.seconds * 1000:.1f} ms · "
