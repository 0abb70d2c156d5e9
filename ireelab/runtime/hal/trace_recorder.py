"""Recording what the runtime ran, as Chrome trace events (IREE's runtime profiling: Tracy
zones per dispatch and fence, or `iree/hal/local/profile.h` recorders on local-task).

A `TraceRecorder` is made active for the calls of one thread with `recording(recorder)`;
queue submissions capture it when they are queued, so work they run later on workers is
recorded too. Events:

- one complete event (`"ph": "X"`, `cat` "dispatch") per dispatch per worker that ran some of
  its workgroups, named by the export, `tid` the worker's lane, `args` the workgroup range;
  fills and copies likewise (`cat` "transfer"); `hal.fence.await` on the host lane (`cat`
  "wait");
- one flow start (`"ph": "s"`, `cat` "fence") where a fence is signalled and a flow end
  (`"ph": "f"`, same `id`) where a waiter sees it reached (just before the consumer's first
  slice, or inside the `hal.fence.await` slice with `"bp": "e"`), so Perfetto and
  `ireelab.viz.timeline` draw an arrow from producer to consumer;
- `thread_name` metadata for every lane (`host`, `worker 0`, ...).

Times are microseconds since the recorder was made.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from contextvars import ContextVar

from ireelab.runtime.hal.semaphore import Fence
from ireelab.runtime.hal.task_executor import WORKER_PREFIX

CURRENT: ContextVar[TraceRecorder | None] = ContextVar("ireelab_trace_recorder", default=None)
"""The recorder of the calling thread's invocation, if one is being profiled."""

PID = 1


class TraceRecorder:
    def __init__(self) -> None:
        self._start = time.perf_counter_ns()
        self.events: list[dict] = []
        self._lanes: dict[int, tuple[int, str]] = {}
        self._lock = threading.Lock()

    def now(self) -> float:
        """Microseconds since the recorder started."""
        return (time.perf_counter_ns() - self._start) / 1000.0

    def lane(self) -> int:
        """The `tid` of the calling thread: 1 + worker index for workers, 0 for the first
        host thread, 100 + n for further host threads."""
        ident = threading.get_ident()
        known = self._lanes.get(ident)
        if known is not None:
            return known[0]
        name = threading.current_thread().name
        with self._lock:
            if name.startswith(WORKER_PREFIX):
                index = int(name.removeprefix(WORKER_PREFIX))
                lane = (1 + index, f"worker {index}")
            else:
                hosts = sum(1 for tid, _ in self._lanes.values() if tid == 0 or tid >= 100)
                lane = (0, "host") if hosts == 0 else (100 + hosts, f"host {hosts}")
            self._lanes[ident] = lane
        return lane[0]

    def complete(
        self, name: str, category: str, start: float, end: float, args: dict | None = None
    ) -> None:
        event = {
            "name": name,
            "cat": category,
            "ph": "X",
            "ts": start,
            "dur": max(end - start, 0.0),
            "pid": PID,
            "tid": self.lane(),
        }
        if args:
            event["args"] = args
        self.events.append(event)

    def fence_signal(self, fence: Fence, ts: float) -> None:
        self._flow("s", fence, ts)

    def fence_wait(self, fence: Fence, ts: float, enclosing: bool = False) -> None:
        """A waiter saw `fence` reached: the flow binds to the next slice on this lane (the
        consumer about to start) or, `enclosing`, to the slice around `ts` (a wait)."""
        self._flow("f", fence, ts, enclosing)

    def _flow(self, phase: str, fence: Fence, ts: float, enclosing: bool = False) -> None:
        event = {
            "name": "fence",
            "cat": "fence",
            "ph": phase,
            "id": fence.traced_id(),
            "ts": ts,
            "pid": PID,
            "tid": self.lane(),
        }
        if enclosing:
            event["bp"] = "e"
        self.events.append(event)

    def trace_events(self) -> dict:
        """The Chrome trace: `{"traceEvents": [...]}` with thread names first."""
        metadata = [{"name": "process_name", "ph": "M", "pid": PID, "args": {"name": "ireelab"}}]
        for tid, name in sorted(set(self._lanes.values())):
            metadata.append(
                {"name": "thread_name", "ph": "M", "pid": PID, "tid": tid, "args": {"name": name}}
            )
            metadata.append(
                {
                    "name": "thread_sort_index",
                    "ph": "M",
                    "pid": PID,
                    "tid": tid,
                    "args": {"sort_index": tid},
                }
            )
        events = sorted(self.events, key=lambda e: (e["ts"], e["ph"] != "X"))
        return {"traceEvents": metadata + events, "displayTimeUnit": "ms"}


@contextlib.contextmanager
def recording(recorder: TraceRecorder) -> Iterator[TraceRecorder]:
    """Record the runtime work the calling thread starts while inside the block."""
    token = CURRENT.set(recorder)
    try:
        yield recorder
    finally:
        CURRENT.reset(token)
