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

Submissions made only of dispatches run as native plans instead (`native_tasks`): published on
a board that spinning workers poll without the GIL (`native_tasks.worker_wait` is their spin),
plus join tasks for sleeping workers and the waiting caller; everything else (transfers,
traced runs, kernels without C entry points) runs as Python tasks as described here.

Spinning threads only use cores nobody else uses: a worker may spin while
`busy workers + spinning < workers - 1` (the last core is the caller's, for its Python between
calls, or for the tasks it runs in `help_until`), and the caller waiting in `help_until` with
nothing queued may spin on its own core while `busy + spinning < workers` (`busy`: every thread
running a task), once per event (a submission or a fence signal), then sleeps. A worker woken for a task that
the caller or a spinner took first goes straight back to sleep. Measured on 2 vCPUs:

- MLP layer (four 128x256 GEMM tiles): when a worker that lost its task spun its 0.5 ms, it
  took a core from the two threads computing and each tile ran 480-540 us instead of 370.
- Attention (four dispatches, barriers between them): a caller that sleeps while the last
  tiles of a section run wakes late for the next section or for the fence (this VM's guest
  halts an idle vCPU at once, and waking it took up to a millisecond); spinning instead took
  the median call from 0.84 to 0.78 ms and its 90th percentile from 1.27 to 1.0 ms.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable

import numpy as np

from ireelab.runtime.hal import native_tasks

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
        self._events = np.zeros(1, np.int64)
        """Counts submissions and fence signals; the spinning caller polls it (written under
        the lock)."""
        self._submissions = np.zeros(1, np.int64)
        """Counts submissions of Python tasks only; spinning workers poll it, so a fence
        signal does not pull them back into Python (where the GIL may keep them) just before
        the next plan is published."""
        self._board = np.zeros(native_tasks.BOARD_LENGTH, np.int64)
        """Where native plans are published (`native_tasks`); idle workers poll it."""
        self._retired: list[tuple[np.ndarray, np.ndarray]] = []
        """Plans published on the board, kept alive while a worker may still read them."""
        self._plans: dict[int, NativeRun] = {}
        """Unfinished plans by board generation, for a worker that must complete one."""
        self._spin_rounds = 0
        self._spinning = 0
        """Threads spinning now (written under the lock, as the two counts below)."""
        self._busy = 0
        """Threads running a task now, workers and helping waiters."""
        self._busy_callers = 0
        """Of those, waiters helping in `help_until` (they compute on the caller's core)."""

    def _may_spin(self, caller: bool) -> bool:
        """Under the lock: may a thread spin on a core nobody computes or spins on? Workers
        leave one core to the caller (for its Python between calls); the caller waiting in
        `help_until` spins on that core."""
        if caller:
            return self._busy + self._spinning < self.workers
        return self._busy - self._busy_callers + self._spinning < self.workers - 1

    def submit(self, tasks: list[Task]) -> None:
        """Queue tasks; idle workers wake, one per task at most."""
        if not self._threads:
            self._start()
        with self._ready:
            self._tasks.extend(tasks)
            self._events[0] += 1
            self._submissions[0] += 1
            self._ready.notify(len(tasks))
            self._helpers.notify_all()

    def start_plan(self, run: NativeRun) -> None:
        """Publish a native plan on the board (spinning workers join it without the GIL) and
        queue join tasks for the remaining cores (sleeping workers or the waiting caller)."""
        if not self._threads:
            self._start()
        with self._ready:
            members, polling = native_tasks.publish(self._board, run.plan, run.state)
            if members == 0:
                self._retired.clear()
            self._retired.append((run.plan, run.state))
            run.generation = int(self._board[native_tasks.GENERATION])
            run.executor = self
            self._plans[run.generation] = run
            # Polling workers join from the board; the other cores join by task, and the
            # caller waiting for the fence takes one of those itself, so one sleeper fewer is
            # woken (a wake-up costs the caller a syscall, and the wakee may land on the
            # caller's vCPU). With no poller, one sleeper is woken anyway, in case no caller
            # waits.
            joiners = max(1, self.workers - polling)
            self._tasks.extend([run.join] * joiners)
            self._ready.notify(joiners - 1 if polling else max(1, joiners - 1))
            self._helpers.notify_all()

    def _forget_plan(self, generation: int) -> None:
        with self._ready:
            self._plans.pop(generation, None)

    def _finish_plan(self, generation: int) -> None:
        """Complete the plan a worker ran to its end with no caller joined (`worker_wait`)."""
        with self._ready:
            run = self._plans.get(generation)
        if run is not None:
            _run(lambda _index: run.finish(), -1)

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
        tasks, ready, events, rounds = (
            self._tasks,
            self._ready,
            self._submissions,
            self._spin_rounds,
        )
        board = self._board
        last = np.array([board[native_tasks.GENERATION]], np.int64)
        """The newest plan generation this worker has seen on the board."""
        ran = False
        while True:
            spin = False
            with ready:
                if ran:
                    self._busy -= 1
                    ran = False
                task = tasks.popleft() if tasks else None
                seen = int(events[0])
                if task is not None:
                    self._busy += 1
                elif self._may_spin(caller=False):
                    self._spinning += 1
                    spin = True
            if spin:
                # Spin without the GIL, joining native plans on the board as they come.
                woke = native_tasks.worker_wait(board, events, seen, rounds, last)
                with ready:
                    self._spinning -= 1
                if woke == 2:
                    self._finish_plan(int(last[0]))
                if woke:
                    continue
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
        """Run queued tasks on the calling thread until `done()` is true; while the queue is
        empty, spin briefly if a core is free, else sleep. Whatever makes `done()` true must
        call `wake_helpers()`."""
        from ireelab.runtime.hal.spin_wait import spin_until_changed

        tasks, helpers, events, rounds = self._tasks, self._helpers, self._events, self._spin_rounds
        ran = False
        spun = -1
        """The event count the last spin started from: spin again only after an event."""
        while True:
            spin = False
            with helpers:
                if ran:
                    self._busy -= 1
                    self._busy_callers -= 1
                    ran = False
                seen = int(events[0])
                if not tasks and not done():
                    if seen != spun and self._may_spin(caller=True):
                        self._spinning += 1
                        spin = True
                    else:
                        while not tasks and not done():
                            helpers.wait()
                if not spin:
                    if not tasks:
                        return
                    task = tasks.popleft()
                    self._busy += 1
                    self._busy_callers += 1
            if spin:
                spun = seen
                spin_until_changed(events, seen, rounds)
                with helpers:
                    self._spinning -= 1
                continue
            _run(task, -1)
            ran = True
            task = None

    def wake_helpers(self) -> None:
        with self._helpers:
            self._events[0] += 1
            self._helpers.notify_all()

    def __repr__(self) -> str:
        return f"<task executor {self.workers} workers>"


class NativeRun:
    """One submission running as a native plan: what its join tasks call."""

    __slots__ = ("plan", "state", "keep", "complete", "generation", "executor")

    def __init__(self, plan: np.ndarray, state: np.ndarray, keep: list, complete: Callable):
        self.plan = plan
        self.state = state
        self.keep = keep
        """What the plan's addresses point into (argument blocks, binding arrays)."""
        self.complete: Callable[[], None] | None = complete
        """Completes the submission (signals its fence); cleared once called."""
        self.generation = -1
        self.executor: TaskExecutor | None = None

    def join(self, worker: int) -> None:
        if self.complete is None:
            return
        if native_tasks.join(self.plan, self.state, worker < 0):
            self.finish()

    def finish(self) -> None:
        complete, self.complete = self.complete, None
        self.keep = None
        if self.executor is not None:
            self.executor._forget_plan(self.generation)
        if complete is not None:
            complete()
