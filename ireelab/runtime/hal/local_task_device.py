"""`local-task`: IREE's task-system CPU device (`iree/hal/drivers/local_task`), asynchronous.

`queue_execute` returns at once. The submission starts when its wait fence is reached (a
timepoint callback, so work queued behind another submission starts on the worker that
finished it); then each section (the commands between two barriers, IREE's region) becomes
tasks, at most one per worker per dispatch, the tasks of all dispatches of the section handed
to the workers interleaved, so concurrent dispatches run on different workers at the same
time. As IREE's workers reserve tiles until a region is done, a task claims chunks of its
dispatch's workgroups (`claim_chunk`) until none are left, so a worker that started
late or runs slow (another process took its core) leaves its share to the others. The last
task of a section issues the next section; the last task of the last section signals the
signal fence. The first failure (a kernel raised) stops the
submission and fails the signal fence with the dispatch's name and cause.

A submission made only of dispatches whose executables have C entry points, and not traced,
does all of that in native code instead (`native_tasks`): one plan for all its sections,
claims and barriers by atomics, no Python between sections.

One deviation from IREE, for Python's sake: IREE always hands a submission to its workers (a
region with one tile wakes one worker, `min(tiles, workers)` in its block processor) while the
caller blocks in `hal.fence.await`. A thread hand-off costs tens of microseconds in Python,
more than a small kernel, so a submission whose wait is already reached and whose every
section holds one tile at most (nothing could run in parallel) runs on the caller.
"""

from __future__ import annotations

import os
import threading
from functools import partial

import numpy as np

from ireelab.runtime.errors import DispatchError
from ireelab.runtime.hal import kernel_faults, native_tasks
from ireelab.runtime.hal.command_buffer import BindingTable, CommandBuffer, Dispatch
from ireelab.runtime.hal.device import (
    Device,
    check_ready,
    fail_fence,
    require_finalized,
    signal_fence,
)
from ireelab.runtime.hal.execution import (
    argument_values,
    resolve_bindings,
    run_command,
    run_inline,
    run_range,
)
from ireelab.runtime.hal.semaphore import Fence, wait_all
from ireelab.runtime.hal.task_executor import NativeRun, TaskExecutor
from ireelab.runtime.hal.trace_recorder import CURRENT, TraceRecorder


def claim_chunk(total: int, workers: int) -> int:
    """Workgroups a thread claims at once (native plans and Python tasks alike): a dispatch of
    a few workgroups per worker in one chunk each, a larger one in two per worker (so a thread
    slowed down by another process leaves part of its share to the others).

    Measured on 2 vCPUs with native plans, one chunk against two per worker, quiet machine:
    MLP layer (four GEMM tiles) 0.83 against 0.89 ms, conv 1.07 against 1.14, the rest
    equal; with another process spinning on one core, two chunks kept the 90th percentile of
    conv at 2.9 ms against 5.1."""
    claimers = min(workers, total)
    per_claimer = 1 if total <= 4 * claimers else 2
    return max(1, -(-total // (per_claimer * claimers)))


_EXECUTORS: dict[int, TaskExecutor] = {}
_EXECUTORS_LOCK = threading.Lock()


def shared_executor(workers: int) -> TaskExecutor:
    """One worker pool per process (per worker count), as IREE's devices of one driver share
    a task executor: a second loaded module must not bring a second set of threads competing
    for the same cores (measured: attention 0.87 ms alone, 1.23 ms beside a second module)."""
    with _EXECUTORS_LOCK:
        executor = _EXECUTORS.get(workers)
        if executor is None:
            executor = _EXECUTORS[workers] = TaskExecutor(workers)
        return executor


class LocalTaskDevice(Device):
    def __init__(self, name: str, workers: int | None = None, native: bool | None = None):
        super().__init__(name)
        self.workers = workers or os.cpu_count() or 1
        self.executor = shared_executor(self.workers)
        if native is None:
            native = os.environ.get("IREELAB_NATIVE_TASKS", "1") != "0"
        self.native = native
        """Run dispatch-only submissions as native plans (`native_tasks`); else Python tasks
        (`IREELAB_NATIVE_TASKS=0` in the environment, for comparison)."""

    def concurrency(self) -> int:
        return self.workers

    def wait_fences(self, fences: list[Fence | None], timeout: float | None) -> bool:
        """The waiting thread runs queued tiles until the fences are reached (see
        `TaskExecutor`); with a timeout it only waits, so the deadline holds."""
        pending = [f for f in fences if f is not None and not f.is_reached()]
        if timeout is not None or not pending:
            return wait_all(fences, timeout)

        def done() -> bool:
            return all(f.is_reached() or f.failure() is not None for f in pending)

        for fence in pending:
            fence.when_reached(lambda _error: self.executor.wake_helpers())
        self.executor.help_until(done)
        return wait_all(fences, None)

    def queue_barrier(self, wait: Fence | None, signal: Fence | None) -> None:
        if signal is None:
            return
        recorder = CURRENT.get()
        if wait is None:
            if recorder is None:
                signal.signal()
            else:
                signal_fence(signal, recorder)
            return

        def resolved(error: BaseException | None) -> None:
            if error is not None:
                fail_fence(signal, error)
            else:
                signal_fence(signal, recorder)

        wait.when_reached(resolved)

    def queue_execute(
        self,
        wait: Fence | None,
        signal: Fence | None,
        command_buffer: CommandBuffer | None,
        table: BindingTable,
    ) -> None:
        if command_buffer is None:
            self.queue_barrier(wait, signal)
            return
        if not command_buffer.finalized:
            require_finalized(command_buffer)  # raises
        recorder = CURRENT.get()
        if signal is None:
            # Nobody could observe completion or failure: run it now and raise.
            check_ready(wait, None)
            run_inline(command_buffer, table, recorder)
            return
        ready = wait is None or wait.is_reached()
        if ready and command_buffer.tiles <= 1 and recorder is None:
            # Nothing to run in parallel and nothing to record: run it here, as
            # `Submission.run_on_caller` would, without making the submission.
            try:
                run_inline(command_buffer, table, None)
            except Exception as err:  # noqa: BLE001 - the waiter gets it, as from a worker
                fail_fence(signal, err)
                return
            signal.signal()
            return
        submission = Submission(self, command_buffer, table, signal, recorder, wait)
        if not ready:
            wait.when_reached(submission.on_wait)
        elif command_buffer.tiles <= 1:
            submission.run_on_caller()
        else:
            submission.start()


class WorkgroupClaims:
    """The workgroups of one dispatch not claimed yet (IREE's tile reservations), claimed in
    `claim_chunk`s, so the work balances itself while each kernel call (some ten microseconds
    of Python each) still covers several workgroups."""

    __slots__ = ("next", "total", "chunk", "lock")

    def __init__(self, total: int, workers: int):
        self.next = 0
        self.total = total
        self.chunk = claim_chunk(total, workers)
        self.lock = threading.Lock()

    def claim(self) -> tuple[int, int] | None:
        with self.lock:
            begin = self.next
            if begin >= self.total:
                return None
            self.next = min(begin + self.chunk, self.total)
            return begin, self.next


class Submission:
    """One `queue_execute` in flight (IREE's task queue operation)."""

    __slots__ = (
        "device",
        "sections",
        "table",
        "signal",
        "recorder",
        "waited",
        "index",
        "remaining",
        "error",
        "ended",
        "lock",
    )

    def __init__(
        self,
        device: LocalTaskDevice,
        command_buffer: CommandBuffer,
        table: BindingTable,
        signal: Fence,
        recorder: TraceRecorder | None,
        wait: Fence | None,
    ):
        self.device = device
        self.sections = command_buffer.sections
        self.table = table
        self.signal = signal
        self.recorder = recorder
        self.waited = wait if recorder is not None and wait is not None else None
        """The wait fence, until its flow end is recorded (only when tracing)."""
        self.index = 0
        self.remaining = 0
        self.error: BaseException | None = None
        self.ended = 0.0
        """Trace time the latest tile ended (when recording)."""
        self.lock = threading.Lock()

    # ---- starting --------------------------------------------------------------------------
    def on_wait(self, error: BaseException | None) -> None:
        if error is not None:
            fail_fence(self.signal, error)
            return
        self.start()

    def start(self) -> None:
        if not self._start_native():
            self._issue(0)

    def _start_native(self) -> bool:
        """Run the submission as one native plan (`native_tasks`) when every command is a
        dispatch with a C entry point and nothing is being traced; False: use Python tasks."""
        if not native_tasks.SUPPORTED or self.recorder is not None or not self.device.native:
            return False
        workers = self.device.workers
        sections, arguments, storages, scope = [], [], [], None
        try:
            for section in self.sections:
                records = []
                for command in section:
                    if type(command) is not Dispatch:
                        return False
                    if command.total == 0:
                        continue
                    entries = command.executable.native_entries()
                    if entries is None:
                        return False
                    scope = scope or command.executable.blas
                    # the record's argument block: its word offset in `arguments` for now
                    chunk = claim_chunk(command.total, workers)
                    records.append([entries[command.ordinal], len(arguments), command.total, chunk])
                    arguments += argument_values(command, self.table, storages)
                if records:
                    sections.append(records)
        except Exception:  # noqa: BLE001 - the Python path reports it (a binding out of range)
            return False
        if not sections:
            return False
        # One argument block array for the whole plan; each record points into it.
        arguments = np.array(arguments, np.int64)
        base = native_tasks.data_address(arguments)
        for section in sections:
            for record in section:
                record[1] = base + 8 * record[1]
        plan, state = native_tasks.build(sections)
        if scope is not None:
            scope.__enter__()

        def complete() -> None:
            if scope is not None:
                scope.__exit__(None, None, None)
            fault = kernel_faults.take()  # a kernel's C entry point reported an exception
            if fault is not None:
                name = ", ".join(dict.fromkeys(c.name for s in self.sections for c in s))
                fail_fence(self.signal, DispatchError(name, fault))
                return
            signal_fence(self.signal, None)

        self.device.executor.start_plan(NativeRun(plan, state, [arguments, storages], complete))
        return True

    def run_on_caller(self) -> None:
        self._record_wait()
        ended = 0.0
        try:
            for section in self.sections:
                for command in section:
                    ended = run_command(command, self.table, self.recorder)
        except Exception as err:
            fail_fence(self.signal, err)
            return
        signal_fence(self.signal, self.recorder, ended)

    # ---- sections and tiles ----------------------------------------------------------------
    def _issue(self, index: int) -> None:
        """Hand section `index` (or the next non-empty one) to the workers, or finish."""
        while index < len(self.sections):
            try:
                tiles = self._tiles(self.sections[index])
            except Exception as err:  # a binding out of range: fail like a kernel would
                fail_fence(self.signal, err)
                return
            if tiles:
                self.index = index
                self.remaining = len(tiles)
                self.device.executor.submit(tiles)
                return
            index += 1
        signal_fence(self.signal, self.recorder, self.ended)

    def _tiles(self, section: list) -> list:
        """Tasks for one section: at most `workers` per dispatch, each claiming workgroup
        chunks of it; the tasks of different dispatches interleaved so that they start
        together."""
        workers = self.device.workers
        per_command = []
        for command in section:
            if type(command) is not Dispatch:
                per_command.append([partial(self._run, command, None, None)])
                continue
            bindings = resolve_bindings(command, self.table)
            claimers = min(workers, command.total)
            claims = WorkgroupClaims(command.total, workers)
            per_command.append([partial(self._run, command, bindings, claims)] * claimers)
        longest = max((len(c) for c in per_command), default=0)
        return [c[i] for i in range(longest) for c in per_command if i < len(c)]

    def _run(self, command, bindings, claims: WorkgroupClaims | None, worker: int) -> None:
        ended = 0.0
        if self.error is None:
            try:
                self._record_wait()
                if claims is None:
                    ended = run_command(command, self.table, self.recorder)
                else:
                    while self.error is None:
                        claimed = claims.claim()
                        if claimed is None:
                            break
                        ended = run_range(command, bindings, *claimed, self.recorder)
            except BaseException as err:  # a worker must survive anything a kernel raises
                with self.lock:
                    if self.error is None:
                        self.error = err
        with self.lock:
            self.remaining -= 1
            last = self.remaining == 0
            if last:
                self.ended = ended
        if not last:
            return
        if self.error is not None:
            fail_fence(self.signal, self.error)
        else:
            self._issue(self.index + 1)

    def _record_wait(self) -> None:
        if self.waited is None:
            return
        with self.lock:
            fence, self.waited = self.waited, None
        if fence is not None and fence.timepoints and self.recorder is not None:
            self.recorder.fence_wait(fence, self.recorder.now())
