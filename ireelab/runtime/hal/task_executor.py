"""The worker pool behind `local-task` (IREE's `iree_task_executor_t`, runtime/src/iree/task).

IREE's executor owns one thread per core; queue operations become tasks that the workers pull
and run, and a command buffer's region wakes `min(tiles, workers)` workers that claim tiles
(workgroup ranges) until the region is done. ireelab's executor is the same shape in small:
`workers` daemon threads pull callables from one FIFO and call them with their worker index.
Kernels release the GIL (`nogil`), so two workers really compute at the same time.

Two deviations from IREE, both for a Python host on few cores:

- A sleeping thread is slow to wake (measured here, 2 vCPUs: a third of two-tile submissions
  found the second worker still asleep 0.7-1.8 ms after the notify, so one worker ran every
  tile). So an idle worker first spins briefly (`spin_wait`, without the GIL), as native pools
  do, and takes the next submission of a caller that keeps invoking at once.
- The thread that waits for a fence helps: `help_until` runs queued tasks on the caller
  (OpenBLAS's caller computes one share too). The caller is awake already, so a submission
  never waits for a wake-up to start.

A worker spins only on a core nobody else uses: while `busy` threads (workers and helping
waiters) run tasks and others spin, it may spin only if `busy + spinning < workers - 1` (the
last core is the caller's, for its Python between calls). A worker woken for a task that the
caller or a spinner took first goes straight back to sleep. Measured on 2 vCPUs (MLP layer,
four 128x256 GEMM tiles): when such a worker spun its 0.5 ms instead, it took a core from the
two threads computing, and each tile ran 480-540 us instead of 370.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable

import numpy as np

Task = Callable[[int], None]
"""Called on a worker with that worker's index; reports failures through a fence, never by
raising (a task that raises anyway is dropped; the worker carries on)."""

WORKER_PREFIX = "ireelab-worker-"


def _run(task: Task, index: int) -> None:
    try:
        task(index)
    except BaseException:  # noqa: BLE001 - keep the pool whole; the task's fence says why
        pass


class TaskExecutor:
    def __init__(self, workers: int):
        self.workers = workers
        self._tasks: deque[Task] = deque()
        lock = threading.Lock()
        self._ready = threading.Condition(lock)
        """Workers wait here for tasks."""
        self._helpers = threading.Condition(lock)
        """Fence waiters (`help_until`) wait here for tasks or their fence."""
        self._threads: list[threading.Thread] = []
        self._submitted = np.zeros(1, np.int64)
        """Submission counter the spinning workers poll (written under `_ready`)."""
        self._spin_rounds = 0
        self._spinning = 0
        """Workers spinning now (written under `_ready`)."""
        self._busy = 0
        """Threads running a task now, workers and helping waiters (written under `_ready`)."""

    def submit(self, tasks: list[Task]) -> None:
        """Queue tasks; idle workers wake, one per task at most."""
        if not self._threads:
            self._start()
        with self._ready:
            self._tasks.extend(tasks)
            self._submitted[0] += 1
            self._ready.notify(len(tasks))
            self._helpers.notify_all()

    def _start(self) -> None:
        from ireelab.runtime.hal.spin_wait import calibrated_rounds

        with self._ready:
            if self._threads:
                return
            self._spin_rounds = calibrated_rounds()
            for index in range(self.workers):
                thread = threading.Thread(
                    target=self._work, args=(index,), name=f"{WORKER_PREFIX}{index}", daemon=True
                )
                thread.start()
                self._threads.append(thread)

    def _work(self, index: int) -> None:
        from ireelab.runtime.hal.spin_wait import spin_until_changed

        tasks, ready, submitted, rounds = (
            self._tasks,
            self._ready,
            self._submitted,
            self._spin_rounds,
        )
        cores = self.workers
        ran = False
        while True:
            spin = False
            with ready:
                if ran:
                    self._busy -= 1
                    ran = False
                task = tasks.popleft() if tasks else None
                seen = int(submitted[0])
                if task is not None:
                    self._busy += 1
                elif self._busy + self._spinning < cores - 1:
                    # spin only on a core nobody computes on, and leave one for the caller
                    self._spinning += 1
                    spin = True
            if spin:
                changed = spin_until_changed(submitted, seen, rounds)
                with ready:
                    self._spinning -= 1
                if changed:
                    continue  # something was submitted while spinning: take it
            if task is None:
                with ready:
                    while not tasks:
                        ready.wait()
                    task = tasks.popleft()
                    self._busy += 1
            _run(task, index)
            ran = True
            # An idle worker must not keep the finished submission (and its buffers) alive.
            task = None

    def help_until(self, done: Callable[[], bool]) -> None:
        """Run queued tasks on the calling thread until `done()` is true, sleeping while the
        queue is empty; whatever makes `done()` true must call `wake_helpers()`."""
        tasks, helpers = self._tasks, self._helpers
        ran = False
        while True:
            with helpers:
                if ran:
                    self._busy -= 1
                    ran = False
                while not tasks and not done():
                    helpers.wait()
                if not tasks:
                    return
                task = tasks.popleft()
                self._busy += 1
            _run(task, -1)
            ran = True
            task = None

    def wake_helpers(self) -> None:
        with self._helpers:
            self._helpers.notify_all()

    def __repr__(self) -> str:
        return f"<task executor {self.workers} workers>"
