"""Timeline semaphores and fences (IREE's `iree_hal_semaphore_t` and `iree_hal_fence_t`).

A semaphore holds a monotonically increasing payload or a failure; a fence is a set of
(semaphore, value) timepoints, reached when every semaphore reaches its value. Queues wait on
one fence and signal another; a failed submission fails its signal fence so a waiter gets the
cause instead of hanging.

Two ways to wait, as in IREE: block the calling thread (`Fence.wait`, what `hal.fence.await`
does) or register a timepoint callback (`Fence.when_reached`, what a queue does with a
submission whose wait fence is still pending: IREE's async semaphore timepoints). Callbacks run
on the thread that signals or fails the semaphore.

All semaphores share one lock: state changes are a few assignments, and a shared lock makes a
fence creation two object allocations, with no per-semaphore condition variable.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable

from ireelab.runtime.errors import HALError

_LOCK = threading.Lock()
_IDS = itertools.count(1)

Callback = Callable[[BaseException | None], None]
"""Called once with None when the timepoint is reached, or with the failure."""


class Semaphore:
    __slots__ = ("value", "failure", "_timepoints")

    def __init__(self, initial_value: int = 0):
        self.value = initial_value
        self.failure: BaseException | None = None
        self._timepoints: list[tuple[int, Callback]] | None = None

    def signal(self, value: int) -> None:
        with _LOCK:
            if value > self.value:
                self.value = value
            if not self._timepoints:  # nothing waits: the common case, without a call
                return
            due = self._take_due()
        for _, callback in due:
            callback(None)

    def fail(self, error: BaseException) -> None:
        with _LOCK:
            if self.failure is None:
                self.failure = error
            due = self._take_due()
        for _, callback in due:
            callback(self.failure)

    def _take_due(self) -> list[tuple[int, Callback]]:
        """Remove and return the timepoints now resolved (caller holds the lock)."""
        pending = self._timepoints
        if not pending:
            return []
        if self.failure is not None:
            self._timepoints = None
            return pending
        due = [t for t in pending if t[0] <= self.value]
        if due:
            self._timepoints = [t for t in pending if t[0] > self.value]
        return due

    def when_reached(self, value: int, callback: Callback) -> None:
        """Call `callback` once the payload reaches `value` (now, if it already has)."""
        with _LOCK:
            if self.failure is None and self.value < value:
                if self._timepoints is None:
                    self._timepoints = []
                self._timepoints.append((value, callback))
                return
            failure = self.failure
        callback(failure)

    def wait(self, value: int, timeout: float | None) -> bool:
        """True when reached; raises the failure; False on timeout."""
        if self.failure is None and self.value >= value:
            return True
        event = threading.Event()
        self.when_reached(value, lambda _error: event.set())
        if not event.wait(timeout):
            return False
        if self.failure is not None:
            raise self.failure
        return True


class Fence:
    __slots__ = ("timepoints", "trace_id")

    def __init__(self, timepoints: list[tuple[Semaphore, int]] | None = None):
        self.timepoints = timepoints if timepoints is not None else []
        self.trace_id = 0
        """Nonzero once a trace refers to this fence (the id of its flow events)."""

    @classmethod
    def new(cls) -> Fence:
        """A fence over a fresh semaphore, reached at payload 1 (`hal.fence.create`)."""
        return cls([(Semaphore(0), 1)])

    def traced_id(self) -> int:
        if not self.trace_id:
            self.trace_id = next(_IDS)
        return self.trace_id

    def signal(self) -> None:
        for semaphore, value in self.timepoints:
            semaphore.signal(value)

    def fail(self, error: BaseException) -> None:
        for semaphore, _ in self.timepoints:
            semaphore.fail(error)

    def failure(self) -> BaseException | None:
        for semaphore, _ in self.timepoints:
            if semaphore.failure is not None:
                return semaphore.failure
        return None

    def is_reached(self) -> bool:
        for semaphore, value in self.timepoints:
            if semaphore.failure is not None or semaphore.value < value:
                return False
        return True

    def when_reached(self, callback: Callback) -> None:
        """Call `callback(None)` once every timepoint is reached, or `callback(error)` at the
        first failure; exactly once."""
        if self.is_reached():
            callback(None)
            return
        state = {"left": len(self.timepoints), "done": False}
        lock = threading.Lock()

        def one(error: BaseException | None) -> None:
            with lock:
                if state["done"]:
                    return
                state["left"] -= 1
                finished = error is not None or state["left"] == 0
                state["done"] = finished
            if finished:
                callback(error)

        for semaphore, value in self.timepoints:
            semaphore.when_reached(value, one)

    def wait(self, timeout: float | None) -> bool:
        """Block until reached (True), the timeout passes (False), or raise a failure."""
        for semaphore, value in self.timepoints:
            if not semaphore.wait(value, timeout):
                return False
        return True

    def __repr__(self) -> str:
        state = "reached" if self.is_reached() else "pending"
        return f"<hal.fence {state}>"


def all_reached(fences: list[Fence | None]) -> bool:
    """Whether every fence is reached (a failed one is not), in one call: what a wait
    on fences that are already signalled (the local devices' common case) checks first."""
    for fence in fences:
        if fence is not None:
            for semaphore, value in fence.timepoints:
                if semaphore.failure is not None or semaphore.value < value:
                    return False
    return True


def wait_all(fences: list[Fence | None], timeout: float | None) -> bool:
    for fence in fences:
        if fence is not None and not fence.wait(timeout):
            return False
    return True


def check_not_failed(fence: Fence | None) -> None:
    if fence is None:
        return
    error = fence.failure()
    if error is not None:
        raise error if isinstance(error, HALError) else HALError(str(error), code="ABORTED")
