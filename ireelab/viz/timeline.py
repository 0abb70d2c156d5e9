"""The execution timeline: what the runtime actually ran, one lane per worker.

IREE's runtime is profiled with Tracy; ireelab's runtime writes the Chrome trace-event format
(`{"traceEvents": [...]}`) instead, which chrome://tracing and Perfetto open too. This view
draws such a trace as a picture that renders inline: one lane per worker thread (`tid`), a bar
per complete event (`"ph": "X"`, named after the dispatch's export), and an arrow from each
fence signal to the waits it releases. Two encodings of those arrows are read:

- flow events (`"ph": "s"` then `"f"`, same `id`), the trace format's own arrows;
- instant events (`"ph": "i"`) whose name mentions `signal` or `wait`, matched on
  `args["fence"]` (or `"semaphore"`, `"id"`) and, where given, `args["value"]`.

Bars are placed at their measured times with Graphviz's `neato` engine and pinned positions,
so the picture is to scale.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ireelab.diagnostics import CompileError
from ireelab.viz import style
from ireelab.viz.render import View

WIDTH_INCHES = 12.0
LANE_INCHES = 0.55
BAR_INCHES = 0.36
PALETTE = ("#f6c667", "#9ecae1", "#a1d99b", "#fdae6b", "#bcbddc", "#fc9272", "#c7e9c0", "#d9d9d9")
_FENCE_KEYS = ("fence", "semaphore", "id")


@dataclass(frozen=True)
class Bar:
    name: str
    lane: tuple[int, int]
    ts: float
    dur: float


@dataclass(frozen=True)
class Mark:
    """One end of a fence arrow: where (lane, time) and which fence it belongs to."""

    lane: tuple[int, int]
    ts: float
    key: tuple


def load_events(trace_events: dict | list | str | Path) -> list[dict]:
    """The event list of a Chrome trace given as a dict, a list, JSON text, or a file path."""
    data = trace_events
    if isinstance(data, str) and data.lstrip()[:1] in ("{", "["):
        data = _json(data, "the trace text")
    elif isinstance(data, str | Path):
        path = Path(data)
        if not path.exists():
            raise CompileError(f"trace file '{path}' not found")
        data = _json(path.read_text(), f"trace file '{path}'")
    if isinstance(data, dict):
        data = data.get("traceEvents")
    if not isinstance(data, list):
        raise CompileError('a Chrome trace is {"traceEvents": [...]} or a list of events')
    return [e for e in data if isinstance(e, dict)]


def _json(text: str, what: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise CompileError(f"{what} is not JSON: {err}") from None


def timeline(
    trace_events: dict | list | str | Path,
    *,
    title: str = "execution timeline",
    highlight: Iterable[str] = (),
) -> View:
    """Draw a runtime trace: lanes per worker, bars per dispatch, fence arrows.

    `highlight`: bar names (export names) to outline in blue.
    """
    marked = set(highlight)
    events = load_events(trace_events)
    bars = [_bar(e) for e in events if e.get("ph") == "X" and "ts" in e]
    if not bars:
        raise CompileError("the trace holds no complete ('ph': 'X') events to draw")
    lanes = sorted({b.lane for b in bars} | {m.lane for m in _marks(events)})
    names = _lane_names(events)
    t0 = min(b.ts for b in bars)
    t1 = max(b.ts + b.dur for b in bars)
    scale = WIDTH_INCHES / max(t1 - t0, 1e-9)
    view = View(name="timeline", engine="neato")
    view.attr(
        label=title,
        labelloc="t",
        fontname=style.FONT,
        fontsize="11",
        splines="false",
        outputorder="edgesfirst",
    )
    view.attr(
        "node",
        fontname=style.FONT,
        fontsize="7",
        shape="box",
        style="filled",
        fixedsize="true",
        margin="0",
    )
    view.attr("edge", color=style.CRITICAL, arrowsize="0.5", penwidth="1.2")
    row = {lane: i for i, lane in enumerate(lanes)}
    for lane, i in row.items():
        label = names.get(lane, f"tid {lane[1]}")
        view.node(
            f"lane{i}",
            label,
            shape="plaintext",
            style="",
            width="1.1",
            height="0.3",
            pos=f"-0.7,{-i * LANE_INCHES:.3f}!",
            fixedsize="false",
        )
    colour = _colours(bars)
    for k, bar in enumerate(sorted(bars, key=lambda b: (row[b.lane], b.ts))):
        width = max(bar.dur * scale, 0.02)
        x = (bar.ts - t0) * scale + width / 2
        fits = max(int(width * 72 / 4.2), 0)
        view.node(
            f"bar{k}",
            bar.name if len(bar.name) <= fits else (bar.name[: fits - 1] + "…" if fits > 4 else ""),
            pos=f"{x:.3f},{-row[bar.lane] * LANE_INCHES:.3f}!",
            width=f"{width:.3f}",
            height=f"{BAR_INCHES}",
            fillcolor=colour[bar.name],
            **({"color": style.HIGHLIGHT, "penwidth": "3"} if bar.name in marked else {}),
            tooltip=f"{bar.name}: {bar.dur:.1f} us at {bar.ts - t0:.1f} us",
        )
    _arrows(view, events, row, t0, scale)
    _axis(view, t1 - t0, scale, len(lanes))
    view.summary = _summary(title, bars, lanes, names, t1 - t0)
    return view


def _bar(event: dict) -> Bar:
    lane = (int(event.get("pid", 0)), int(event.get("tid", 0)))
    return Bar(str(event.get("name", "?")), lane, float(event["ts"]), float(event.get("dur", 0.0)))


def _lane_names(events: list[dict]) -> dict[tuple[int, int], str]:
    names = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(int(e.get("pid", 0)), int(e.get("tid", 0)))] = str(
                e.get("args", {}).get("name", "")
            )
    return names


def _colours(bars: list[Bar]) -> dict[str, str]:
    order = list(dict.fromkeys(b.name for b in sorted(bars, key=lambda b: b.ts)))
    return {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(order)}


def _marks(events: list[dict]) -> list[Mark]:
    return [m for pair in _pairs(events) for m in pair]


def _pairs(events: list[dict]) -> list[tuple[Mark, Mark]]:
    """(signal, wait) pairs from flow events and from signal/wait instant events."""
    pairs: list[tuple[Mark, Mark]] = []
    starts: dict[tuple, Mark] = {}
    signals: dict[tuple, list[Mark]] = defaultdict(list)
    waits: list[Mark] = []
    for e in sorted(events, key=lambda e: float(e.get("ts", 0.0))):
        phase = e.get("ph")
        lane = (int(e.get("pid", 0)), int(e.get("tid", 0)))
        ts = float(e.get("ts", 0.0))
        if phase == "s":
            starts[(e.get("cat"), e.get("id"))] = Mark(lane, ts, (e.get("id"),))
        elif phase in ("f", "t") and (e.get("cat"), e.get("id")) in starts:
            pairs.append((starts[(e.get("cat"), e.get("id"))], Mark(lane, ts, (e.get("id"),))))
        elif phase in ("i", "I", "n"):
            key = _fence_key(e)
            name = str(e.get("name", "")).lower()
            if key is None:
                continue
            if "signal" in name:
                signals[key[0]].append(Mark(lane, ts, key))
            elif "wait" in name:
                waits.append(Mark(lane, ts, key))
    for wait in waits:
        fence, value = wait.key
        candidates = [
            s
            for s in signals.get(fence, [])
            if value is None or s.key[1] is None or s.key[1] >= value
        ]
        if candidates:
            pairs.append(
                (min(candidates, key=lambda s: (s.key[1] is None, s.key[1] or 0, s.ts)), wait)
            )
    return pairs


def _fence_key(event: dict) -> tuple | None:
    args = event.get("args") or {}
    for key in _FENCE_KEYS:
        if key in args:
            return (str(args[key]), args.get("value"))
    return None


def _arrows(view: View, events: list[dict], row: dict, t0: float, scale: float) -> None:
    for k, (signal, wait) in enumerate(_pairs(events)):
        ends = []
        for end, mark in (("s", signal), ("w", wait)):
            node = f"fence{k}{end}"
            y = -row[mark.lane] * LANE_INCHES + BAR_INCHES / 2 + 0.04
            view.node(
                node,
                "",
                shape="point",
                width="0.06",
                fillcolor=style.CRITICAL,
                color=style.CRITICAL,
                pos=f"{(mark.ts - t0) * scale:.3f},{y:.3f}!",
            )
            ends.append(node)
        view.edge(*ends, tooltip=f"fence {signal.key[0]}")


def _axis(view: View, span: float, scale: float, lanes: int) -> None:
    y = -lanes * LANE_INCHES + 0.1
    step = _tick(span)
    t = 0.0
    k = 0
    while t <= span * 1.0001:
        view.node(
            f"tick{k}",
            _time_text(t),
            shape="plaintext",
            style="",
            fixedsize="false",
            width="0.5",
            height="0.2",
            pos=f"{t * scale:.3f},{y:.3f}!",
        )
        t += step
        k += 1


def _tick(span: float) -> float:
    """A 1/2/5 x 10^n step giving about six ticks."""
    raw = max(span, 1e-9) / 6
    base = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 1.0
    while base > raw:
        base /= 10
    for factor in (1, 2, 5, 10):
        if base * factor >= raw:
            return base * factor
    return base * 10


def _time_text(us: float) -> str:
    if us >= 1000:
        return f"{us / 1000:g} ms"
    return f"{us:g} us"


def _summary(title: str, bars: list[Bar], lanes, names, span: float) -> str:
    lines = [
        f"{title}: {len(bars)} dispatch(es) on {len(lanes)} worker(s) over {_time_text(round(span, 1))}"
    ]
    for lane in lanes:
        mine = [b for b in bars if b.lane == lane]
        busy = sum(b.dur for b in mine)
        lines.append(
            f"  {names.get(lane, 'tid ' + str(lane[1]))}: {len(mine)} bar(s), "
            f"busy {_time_text(round(busy, 1))}"
        )
    return "\n".join(lines)
