"""local-task runs IREE's async model: queue operations return at once, start when their wait
fence is reached, run the dispatches of one section at the same time on different workers,
keep sections in order, signal their fence when done, and fail it (never hang) when a
dispatch raises. The kernels here are plain Python functions, so the tests control timing
exactly (a `threading.Barrier` only opens when two kernels really run at once)."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from ireelab.runtime import DispatchError, HALError
from ireelab.runtime.hal.allocator import Allocator
from ireelab.runtime.hal.command_buffer import BufferRef, CommandBuffer, Dispatch
from ireelab.runtime.hal.executable import Executable
from ireelab.runtime.hal.local_task_device import LocalTaskDevice
from ireelab.runtime.hal.semaphore import Fence
from ireelab.runtime.hal.trace_recorder import TraceRecorder, recording

TIMEOUT = 10.0


@pytest.fixture(scope="module")
def device() -> LocalTaskDevice:
    return LocalTaskDevice("local-task", workers=2)


def _buffer():
    return Allocator("test").allocate(0, 0, 8)


def _command_buffer(*sections: list[tuple[str, object]]) -> tuple[CommandBuffer, list]:
    """A command buffer with one single-workgroup dispatch per (name, kernel), a barrier
    between sections; each dispatch binds its own 8-byte buffer."""
    command_buffer = CommandBuffer()
    buffers = []
    for index, section in enumerate(sections):
        if index:
            command_buffer.execution_barrier()
        for name, kernel in section:
            buffer = _buffer()
            buffers.append(buffer)
            executable = Executable([name], [kernel])
            ref = BufferRef(buffer, 0, 0, 8)
            command_buffer.dispatch(Dispatch(executable, 0, (1, 1, 1), (), (ref,)))
    command_buffer.finalize()
    return command_buffer, buffers


def _kernel(action):
    def kernel(begin, end, x, y, z, b0):
        action(b0)

    return kernel


def test_dispatches_of_one_section_run_at_the_same_time(device):
    # Each kernel waits for the other at a barrier: only concurrent execution gets through.
    meeting = threading.Barrier(2, timeout=TIMEOUT)
    meet = _kernel(lambda b: meeting.wait())
    command_buffer, _ = _command_buffer([("a", meet), ("b", meet)])
    signal = Fence.new()
    device.queue_execute(None, signal, command_buffer, [])
    assert signal.wait(TIMEOUT)


def test_sections_run_in_order(device):
    # The dispatch after the barrier sees what both dispatches before it wrote.
    def write(value):
        return _kernel(lambda b: (time.sleep(0.02), b.__setitem__(0, value)))

    seen = []
    command_buffer, buffers = _command_buffer(
        [("first", write(1)), ("second", write(2))],
        [("after", _kernel(lambda b: seen.append((buffers[0].bytes()[0], buffers[1].bytes()[0]))))],
    )
    signal = Fence.new()
    device.queue_execute(None, signal, command_buffer, [])
    assert signal.wait(TIMEOUT)
    assert seen == [(1, 2)]


def test_queue_execute_returns_before_the_work_is_done(device):
    release = threading.Event()
    command_buffer, _ = _command_buffer([("slow", _kernel(lambda b: release.wait(TIMEOUT)))] * 2)
    signal = Fence.new()
    device.queue_execute(None, signal, command_buffer, [])
    assert not signal.is_reached()
    release.set()
    assert signal.wait(TIMEOUT)


def test_submission_waits_for_its_fence_across_submissions(device):
    # Submission 2 waits on the fence submission 1 signals, which waits on a host fence:
    # nothing runs until the host signals, then both run in order.
    order = []
    host, middle, last = Fence.new(), Fence.new(), Fence.new()
    first, _ = _command_buffer([("one", _kernel(lambda b: order.append(1)))] * 2)
    second, _ = _command_buffer([("two", _kernel(lambda b: order.append(2)))])
    device.queue_execute(middle, last, second, [])
    device.queue_execute(host, middle, first, [])
    time.sleep(0.05)
    assert order == [] and not last.is_reached()
    host.signal()
    assert last.wait(TIMEOUT)
    assert order == [1, 1, 2]


def test_failing_dispatch_fails_the_fence_chain_with_its_name(device):
    # A raise in submission 1 fails its fence; submission 2, waiting on it, never runs and
    # fails its own fence with the same cause; the waiter gets the dispatch name, no hang.
    ran = []

    def boom(b):
        raise ValueError("bad workgroup")

    first, _ = _command_buffer([("exploding_dispatch", _kernel(boom)), ("fine", _kernel(len))])
    second, _ = _command_buffer([("never", _kernel(lambda b: ran.append(1)))])
    middle, last = Fence.new(), Fence.new()
    device.queue_execute(middle, last, second, [])
    device.queue_execute(None, middle, first, [])
    with pytest.raises(DispatchError) as info:
        last.wait(TIMEOUT)
    assert info.value.dispatch == "exploding_dispatch"
    assert "bad workgroup" in str(info.value)
    assert ran == []


def test_failed_host_fence_fails_the_submission(device):
    command_buffer, _ = _command_buffer([("x", _kernel(len))])
    wait, signal = Fence.new(), Fence.new()
    device.queue_execute(wait, signal, command_buffer, [])
    wait.fail(HALError("upstream broke", "ABORTED"))
    with pytest.raises(HALError, match="upstream broke"):
        signal.wait(TIMEOUT)


def test_workgroups_are_split_over_workers(device):
    # A 16-workgroup dispatch: one task per worker, each claiming chunks of 16 // (2 * 2) = 4
    # workgroups until none are left; every workgroup runs exactly once.
    hits = np.zeros(16, np.int64)
    lock = threading.Lock()

    def kernel(begin, end, x, y, z, b0):
        with lock:
            hits[begin:end] += 1

    command_buffer = CommandBuffer()
    ref = BufferRef(_buffer(), 0, 0, 8)
    command_buffer.dispatch(Dispatch(Executable(["wide"], [kernel]), 0, (4, 4, 1), (), (ref,)))
    command_buffer.finalize()
    recorder = TraceRecorder()
    signal = Fence.new()
    with recording(recorder):
        device.queue_execute(None, signal, command_buffer, [])
    assert signal.wait(TIMEOUT)
    assert hits.tolist() == [1] * 16
    ranges = sorted(e["args"]["workgroups"] for e in recorder.events if e["ph"] == "X")
    assert ranges == [[begin, begin + 4] for begin in range(0, 16, 4)]


def test_single_tile_submission_runs_on_the_caller(device):
    # Nothing to parallelise and the wait is reached: the caller runs it (no thread hop).
    ran_on = []
    command_buffer, _ = _command_buffer(
        [("tiny", _kernel(lambda b: ran_on.append(threading.get_ident())))]
    )
    signal = Fence.new()
    device.queue_execute(None, signal, command_buffer, [])
    assert signal.is_reached()
    assert ran_on == [threading.get_ident()]


def test_a_slow_worker_leaves_its_share_to_the_others(device):
    # The task that claims workgroups [0, 4) stalls until every other workgroup has run: the
    # other worker claims all the remaining chunks meanwhile (no static half-split to wait on).
    hits = np.zeros(16, np.int64)
    lock = threading.Lock()
    others_done = threading.Event()
    ran_on: dict[int, set] = {}

    def kernel(begin, end, x, y, z, b0):
        if begin == 0:
            assert others_done.wait(TIMEOUT)
        with lock:
            hits[begin:end] += 1
            ran_on.setdefault(threading.get_ident(), set()).add(begin)
            if hits[4:].sum() == 12:
                others_done.set()

    command_buffer = CommandBuffer()
    ref = BufferRef(_buffer(), 0, 0, 8)
    command_buffer.dispatch(Dispatch(Executable(["wide"], [kernel]), 0, (16, 1, 1), (), (ref,)))
    command_buffer.finalize()
    signal = Fence.new()
    device.queue_execute(None, signal, command_buffer, [])
    assert signal.wait(TIMEOUT)
    assert hits.tolist() == [1] * 16
    (stalled,) = [chunks for chunks in ran_on.values() if 0 in chunks]
    assert stalled == {0}
