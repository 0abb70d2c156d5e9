"""`!hal.device`: IREE's local CPU devices, `local-sync` and `local-task`.

Both execute a submission when it is queued (`queue_execute`): the wait fence must already be
reached (ireelab's queues complete every submission before returning, so an unreached fence can
never be reached later, and waiting on it would hang), then the command buffer's sections run
in order, then the signal fence is signalled. A kernel that raises fails the signal fence with
a `DispatchError` naming the dispatch; the program sees it at `hal.fence.await`.

- `local-sync` (IREE's synchronous local device) runs each dispatch inline on the caller.
- `local-task` (IREE's task-system device) owns a worker pool. It splits every dispatch's
  workgroup range `[0, x*y*z)` into chunks, one per worker, and submits all chunks of every
  dispatch of a section together, so independent dispatches overlap. Kernels are `nogil`.
"""

from __future__ import annotations

import fnmatch
import os
import threading
from concurrent.futures import ThreadPoolExecutor

from ireelab.runtime.errors import DispatchError, HALError
from ireelab.runtime.hal.allocator import Allocator
from ireelab.runtime.hal.buffer import Buffer
from ireelab.runtime.hal.command_buffer import (
    BindingTable,
    CommandBuffer,
    Dispatch,
    run_transfer,
)
from ireelab.runtime.hal.executable import FORMAT
from ireelab.runtime.hal.semaphore import Fence, check_not_failed


class Device:
    """What both local devices share; subclasses decide how a section runs."""

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
        self._check_ready(wait, signal)
        buffer = self.allocator.allocate(memory_types, usage, size)
        if signal is not None:
            signal.signal()
        return buffer

    def queue_barrier(self, wait: Fence | None, signal: Fence | None) -> None:
        self._check_ready(wait, signal)
        if signal is not None:
            signal.signal()

    def queue_execute(
        self,
        wait: Fence | None,
        signal: Fence | None,
        command_buffer: CommandBuffer | None,
        table: BindingTable,
    ) -> None:
        self._check_ready(wait, signal)
        try:
            if command_buffer is not None:
                if not command_buffer.finalized:
                    raise HALError("command buffer was not finalized", "FAILED_PRECONDITION")
                for section in command_buffer.sections:
                    self._run_section(section, table)
        except HALError as err:
            if signal is None:
                raise
            signal.fail(err)
            return
        if signal is not None:
            signal.signal()

    def _check_ready(self, wait: Fence | None, signal: Fence | None) -> None:
        if wait is None:
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

    def _run_section(self, section: list, table: BindingTable) -> None:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<hal.device {self.name}>"


def _run_dispatch_range(dispatch: Dispatch, bindings: list, begin: int, end: int) -> None:
    function = dispatch.executable.functions[dispatch.ordinal]
    x, y, z = dispatch.workgroups
    try:
        function(begin, end, x, y, z, *bindings)
    except Exception as err:
        raise DispatchError(dispatch.name, err) from err


def _resolve(dispatch: Dispatch, table: BindingTable) -> list:
    return [binding.resolve(table) for binding in dispatch.bindings]


class LocalSyncDevice(Device):
    def _run_section(self, section: list, table: BindingTable) -> None:
        for command in section:
            if isinstance(command, Dispatch):
                bindings = _resolve(command, table)
                _run_dispatch_range(command, bindings, 0, command.workgroup_total)
            else:
                run_transfer(command, table)


class LocalTaskDevice(Device):
    def __init__(self, name: str, workers: int | None = None):
        super().__init__(name)
        self.workers = workers or os.cpu_count() or 1
        self._pool: ThreadPoolExecutor | None = None
        self._pool_lock = threading.Lock()

    def concurrency(self) -> int:
        return self.workers

    def pool(self) -> ThreadPoolExecutor:
        with self._pool_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="ireelab-worker")
            return self._pool

    def _run_section(self, section: list, table: BindingTable) -> None:
        tasks: list[tuple[Dispatch, list, int, int]] = []
        for command in section:
            if not isinstance(command, Dispatch):
                run_transfer(command, table)
                continue
            bindings = _resolve(command, table)
            total = command.workgroup_total
            chunks = min(self.workers, total)
            for i in range(chunks):
                begin, end = total * i // chunks, total * (i + 1) // chunks
                tasks.append((command, bindings, begin, end))
        if len(tasks) == 1:
            _run_dispatch_range(*tasks[0])  # nothing to overlap: skip the thread hop
            return
        futures = [self.pool().submit(_run_dispatch_range, *task) for task in tasks]
        errors = [f.exception() for f in futures]
        for error in errors:
            if error is not None:
                raise error


def create_device(name: str) -> Device:
    if name == "local-sync":
        return LocalSyncDevice(name)
    if name == "local-task":
        return LocalTaskDevice(name)
    raise HALError(
        f"no HAL driver for device '{name}' (available: local-sync, local-task)", "NOT_FOUND"
    )


_DEVICES: dict[str, Device] = {}
_DEVICES_LOCK = threading.Lock()


def get_device(name: str) -> Device:
    """The process-wide device of that name (a local-task device keeps its worker pool)."""
    with _DEVICES_LOCK:
        device = _DEVICES.get(name)
        if device is None:
            device = _DEVICES[name] = create_device(name)
        return device
