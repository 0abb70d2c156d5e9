"""The worker pool behind `local-task` (IREE's `iree_task_executor_t`, runtime/src/iree/task).

IREE's executor owns one thread per core; queue operations become tasks that the workers pull
and run, and a command buffer's region wakes `min(tiles, workers)` workers that claim tiles
(workgroup ranges) until the region is done. ireelab's executor is the same shape in small:
`workers` daemon threads pull callables from one FIFO and call them with their worker index.
Kernels release the GIL (`nogil`), so two workers really compute at the same time.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable

Task = Callable[[int], None]
"""Called on a worker with that worker's index; reports failures through a fence, never by
raising (a task that raises anyway is dropped; the worker carries on)."""

WORKER_PREFIX = "ireelab-worker-"


class TaskExecutor:
    def __init__(self, workers: int):
        self.workers = workers
        self._tasks: deque[Task] = deque()
        self._ready = threading.Condition(threading.Lock())
        self._threads: list[threading.Thread] = []

    def submit(self, tasks: list[Task]) -> None:
        """Queue tasks; idle workers wake, one per task at most."""
        if not self._threads:
            self._start()
        with self._ready:
            self._tasks.extend(tasks)
            self._ready.notify(len(tasks))

    def _start(self) -> None:
        with self._ready:
            if self._threads:
                return
            for index in range(self.workers):
                thread = threading.Thread(
                    target=self._work, args=(index,), name=f"{WORKER_PREFIX}{index}", daemon=True
                )
                thread.start()
                self._threads.append(thread)

    def _work(self, index: int) -> None:
        tasks, ready = self._tasks, self._ready
        while True:
            with ready:
                while not tasks:
                    ready.wait()
                task = tasks.popleft()
            try:
                task(index)
            except BaseException:  # noqa: BLE001 - keep the pool whole; the task's fence says why
                pass
            # An idle worker must not keep the finished submission (and its buffers) alive.
            task = None

    def __repr__(self) -> str:
        return f"<task executor {self.workers} workers>"
