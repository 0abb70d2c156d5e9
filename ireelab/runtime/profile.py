"""`Profile`: one traced call of an exported function (what `CompiledModule.profile` and
`LoadedModule.profile` return, and `ireelab-run-module --trace-file` writes).

IREE profiles its runtime with Tracy (`IREE_TRACING_MODE`, `iree-tracy-capture`), which records
a zone per dispatch on each worker, fence signals and waits, and allocator statistics. ireelab
records the same things as a Chrome trace (`{"traceEvents": [...]}`: open it in Perfetto or
chrome://tracing, or draw it with `.timeline()`), plus the memory the call needed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ireelab.runtime.hal.allocator import HEAPS, HeapStatistics, format_statistics


@dataclass
class Profile:
    function: str
    device: str
    results: tuple[np.ndarray, ...]
    trace_events: dict
    """The Chrome trace: `{"traceEvents": [...]}`."""
    seconds: float
    """Wall time of the call."""
    memory: dict[str, HeapStatistics] = field(default_factory=dict)
    """Per heap, the allocator counters of this call alone: bytes allocated and freed during
    it, and `bytes_peak` the most bytes live at once above what was live before the call."""

    @property
    def peak_bytes(self) -> int:
        """The most device memory (all heaps) live at once during the call, above what was
        live before it."""
        return sum(stats.bytes_peak for stats in self.memory.values())

    def dispatches(self) -> list[dict]:
        """The complete events of dispatches (one per worker that ran part of one)."""
        return [
            e
            for e in self.trace_events["traceEvents"]
            if e.get("ph") == "X" and e.get("cat") == "dispatch"
        ]

    def timeline(self, **kwargs):
        """The execution timeline view (`ireelab.viz.timeline.timeline`) of this trace."""
        from ireelab.viz.timeline import timeline  # viz sits above the runtime: import late

        kwargs.setdefault("title", f"@{self.function} on {self.device}")
        return timeline(self.trace_events, **kwargs)

    def save(self, path: str | Path) -> None:
        """Write the Chrome trace as JSON (Perfetto opens it)."""
        Path(path).write_text(json.dumps(self.trace_events))

    def statistics_text(self) -> str:
        """This call's memory in the table IREE's tools print under `--print_statistics`."""
        return format_statistics({heap: self.memory.get(heap, HeapStatistics()) for heap in HEAPS})

    def __repr__(self) -> str:
        return (
            f"<Profile @{self.function} on {self.device}: {len(self.dispatches())} dispatch "
            f"event(s), {self.seconds * 1e6:.0f} us, peak {self.peak_bytes} B>"
        )


def call_memory(
    before: dict[str, HeapStatistics], after: dict[str, HeapStatistics], live: dict[str, int]
) -> dict[str, HeapStatistics]:
    """The counters of one call from snapshots around it (`live`: bytes live at its start,
    which the peak measurement started from)."""
    return {
        heap: HeapStatistics(
            bytes_allocated=after[heap].bytes_allocated - before[heap].bytes_allocated,
            bytes_freed=after[heap].bytes_freed - before[heap].bytes_freed,
            bytes_peak=max(after[heap].bytes_peak - live[heap], 0),
            requests=after[heap].requests - before[heap].requests,
            reused=after[heap].reused - before[heap].reused,
        )
        for heap in HEAPS
    }
