"""Timeline semaphores and fences (IREE's `iree_hal_semaphore_t` and `iree_hal_fence_t`).

A semaphore holds a monotonically increasing payload or a failure; a fence is a set of
(semaphore, value) timepoints, reached when every semaphore reaches its value. Queues wait on
one fence and signal another; a failed submission fails its signal fence so a waiter gets the
cause instead of hanging.
"""

from __future__ import annotations

import threading

from ireelab.runtime.errors import HALError


class Semaphore:
    __slots__ = ("value", "failure", "_cond")

    def __init__(self, initial_value: int = 0):
        self.value = initial_value
        self.failure: BaseException | None = None
        self._cond = threading.Condition()

    def signal(self, value: int) -> None:
        with self._cond:
            if value > self.value:
                self.value = value
            self._cond.notify_all()

    def fail(self, error: BaseException) -> None:
        with self._cond:
            if self.failure is None:
                self.failure = error
            self._cond.notify_all()

    def wait(self, value: int, timeout: float | None) -> bool:
        """True when reached; raises the failure; False on timeout."""
        with self._cond:
            reached = self._cond.wait_for(
                lambda: self.failure is not None or self.value >= value, timeout
            )
            if self.failure is not None:
                raise self.failure
            return reached


class Fence:
    __slots__ = ("timepoints",)

    def __init__(self, timepoints: list[tuple[Semaphore, int]] | None = None):
        self.timepoints = timepoints if timepoints is not None else []

    @classmethod
    def new(cls) -> Fence:
        """A fence over a fresh semaphore, reached at payload 1 (`hal.fence.create`)."""
        return cls([(Semaphore(0), 1)])

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
        return all(s.failure is None and s.value >= v for s, v in self.timepoints)

    def wait(self, timeout: float | None) -> bool:
        """Block until reached (True), the timeout passes (False), or raise a failure."""
        for semaphore, value in self.timepoints:
            if not semaphore.wait(value, timeout):
                return False
        return True

    def __repr__(self) -> str:
        state = "reached" if self.is_reached() else "pending"
        return f"<hal.fence {state}>"


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
