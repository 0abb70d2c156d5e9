"""`!hal.device`: what IREE's local CPU devices share, and `local-sync`.

A device owns an allocator and a queue. Queue operations take a wait fence and a signal fence:
the operation starts once the wait fence is reached and signals the signal fence when done; a
failure (a kernel raised, a wait fence failed) fails the signal fence instead, so a program's
`hal.fence.await` raises the cause, naming the dispatch, rather than hanging.

- `local-sync` (IREE's synchronous local device, `iree/hal/drivers/local_sync`) runs every
  queue operation on the caller, when it is queued. Its wait fence must therefore already be
  reached: nothing could signal it later without the caller, so waiting would hang; ireelab
  reports that instead (IREE's local-sync would block).
- `local-task` (`ireelab.runtime.hal.local_task_device`) runs them asynchronously on workers.

`ireelab.runtime.hal.drivers` makes devices by name.
"""

from __future__ import annotations

import fnmatch

from ireelab.runtime.errors import HALError
from ireelab.runtime.hal.allocator import Allocator
from ireelab.runtime.hal.buffer import Buffer
from ireelab.runtime.hal.command_buffer import BindingTable, CommandBuffer
from ireelab.runtime.hal.executable import FORMAT
from ireelab.runtime.hal.execution import run_inline
from ireelab.runtime.hal.semaphore import Fence, check_not_failed, wait_all
from ireelab.runtime.hal.trace_recorder import CURRENT, TraceRecorder


class Device:
    """What both local devices share; subclasses decide when and where work runs."""

    def __init__(self, name: str):
        self.name = name
        self.allocator = Allocator(name)

    def query_i64(self, category: str, key: str) -> tuple[int, int]:
        """`hal.device.query.i64`: (ok, value), as IREE's local devices answer."""
        if category == "hal.device.id":
            return 1, int(fnmatch.fnmatchcase(self.name, key))
        if category == "hal.executable.format":
            return 1, int(fnmatch.fnmatchcase(FORMAT, key))
        if category == "hal.device" and key == "concurrency":
            return 1, self.concurrency()
        return 0, 0

    def concurrency(self) -> int:
        return 1

    def queue_alloca(
        self, wait: Fence | None, signal: Fence | None, memory_types: int, usage: int, size: int
    ) -> Buffer:
        """Host memory is ready at once; the signal still follows the wait, as ordered."""
        buffer = self.allocator.allocate(memory_types, usage, size)
        self.queue_barrier(wait, signal)
        return buffer

    def queue_barrier(self, wait: Fence | None, signal: Fence | None) -> None:
        raise NotImplementedError

    def queue_execute(
        self,
        wait: Fence | None,
        signal: Fence | None,
        command_buffer: CommandBuffer | None,
        table: BindingTable,
    ) -> None:
        raise NotImplementedError

    def wait_fences(self, fences: list[Fence | None], timeout: float | None) -> bool:
        """`hal.fence.await` on this device: True when every fence is reached, False on
        timeout; raises a fence's failure."""
        return wait_all(fences, timeout)

    def __repr__(self) -> str:
        return f"<hal.device {self.name}>"


def signal_fence(
    fence: Fence | None, recorder: TraceRecorder | None, producer_end: float = 0.0
) -> None:
    """Signal `fence`; when recording, the flow starts just inside the producer's last slice
    (it ended at `producer_end`), where Perfetto binds it, or now if there was none."""
    if fence is None:
        return
    if recorder is not None:
        ts = producer_end - 0.001 if producer_end > 0.0 else recorder.now()
        recorder.fence_signal(fence, ts)
    fence.signal()


def fail_fence(fence: Fence | None, error: BaseException) -> None:
    """Fail `fence` with `error` (a HALError; anything else is wrapped as INTERNAL)."""
    if fence is None:
        raise error
    if not isinstance(error, HALError):
        error = HALError(f"{type(error).__name__}: {error}", code="INTERNAL")
    fence.fail(error)


def check_ready(wait: Fence | None, signal: Fence | None) -> None:
    """For a device that runs work when queued: the wait fence must be reached already."""
    if wait is None or wait.is_reached():  # a failed fence is not reached
        return
    try:
        check_not_failed(wait)
    except HALError as err:
        if signal is not None:
            signal.fail(err)
        raise
    if not wait.is_reached():
        raise HALError(
            "queue submission waits on a fence that nothing will signal",
            code="FAILED_PRECONDITION",
        )


def require_finalized(command_buffer: CommandBuffer) -> None:
    if not command_buffer.finalized:
        raise HALError("command buffer was not finalized", "FAILED_PRECONDITION")


class LocalSyncDevice(Device):
    def queue_barrier(self, wait: Fence | None, signal: Fence | None) -> None:
        check_ready(wait, signal)
        if signal is not None:
            recorder = CURRENT.get()
            if recorder is None:
                signal.signal()
            else:
                signal_fence(signal, recorder)

    def queue_execute(
        self,
        wait: Fence | None,
        signal: Fence | None,
        command_buffer: CommandBuffer | None,
        table: BindingTable,
    ) -> None:
        recorder = CURRENT.get()
        check_ready(wait, signal)
        if recorder is not None and wait is not None and wait.timepoints:
            recorder.fence_wait(wait, recorder.now())
        ended = 0.0
        try:
            if command_buffer is not None:
                if not command_buffer.finalized:
                    require_finalized(command_buffer)  # raises
                ended = run_inline(command_buffer, table, recorder)
        except HALError as err:
            fail_fence(signal, err)
            return
        if recorder is None and signal is not None:
            signal.signal()
        else:
            signal_fence(signal, recorder, ended)
