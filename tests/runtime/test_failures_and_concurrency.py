"""HAL behaviour end to end: failing kernels fail their fence and the caller gets the dispatch
name, later calls still work, and local-task gives identical results under concurrency."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from ireelab.runtime import DispatchError, HALError, load_module
from ireelab.runtime.hal.semaphore import Fence

A = np.arange(8, dtype=np.float32).reshape(2, 4)
B = np.arange(8, dtype=np.float32).reshape(4, 2) / 4


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_kernel_error_reaches_caller_with_dispatch_name(failing_bytes, device):
    # The kernel raises for a negative first input: the error names the dispatch and the
    # cause; the next call on the same module works (no stuck fence, no poisoned state).
    module = load_module(failing_bytes)
    with pytest.raises(DispatchError) as info:
        module.invoke("matmul", -np.ones((2, 4), np.float32), B, device=device)
    assert info.value.dispatch == "matmul_dispatch_0_matmul_2x2x4_f32"
    assert "matmul_dispatch_0_matmul_2x2x4_f32" in str(info.value)
    assert "negative input" in str(info.value)
    (result,) = module.invoke("matmul", A, B, device=device)
    np.testing.assert_array_equal(result.reshape(-1), A.reshape(-1)[:4])


def test_failed_wait_fence_fails_the_signal_fence():
    # A submission that waits on a failed fence fails its own signal fence with the cause.
    from ireelab.runtime.hal.command_buffer import CommandBuffer
    from ireelab.runtime.hal.device import LocalSyncDevice

    device = LocalSyncDevice("local-sync")
    wait, signal = Fence.new(), Fence.new()
    wait.fail(HALError("upstream broke", "ABORTED"))
    command_buffer = CommandBuffer()
    command_buffer.finalize()
    with pytest.raises(HALError, match="upstream broke"):
        device.queue_execute(wait, signal, command_buffer, [])
    with pytest.raises(HALError, match="upstream broke"):
        signal.wait(timeout=1.0)


def test_unsignalled_wait_fence_is_an_error_not_a_hang():
    # Nothing will ever signal this fence: the queue says so instead of blocking forever.
    from ireelab.runtime.hal.device import LocalSyncDevice

    device = LocalSyncDevice("local-sync")
    with pytest.raises(HALError, match="nothing will signal"):
        device.queue_alloca(Fence.new(), Fence.new(), 0, 0, 16)


def test_fence_signal_and_timeout():
    fence = Fence.new()
    assert not fence.wait(timeout=0.01)
    threading.Timer(0.01, fence.signal).start()
    assert fence.wait(timeout=5.0)
    assert fence.is_reached()


def test_local_task_splits_workgroups(split_matmul_bytes):
    # With 2 workgroups the local-task device runs each on a worker; results match numpy.
    module = load_module(split_matmul_bytes)
    for device in ("local-sync", "local-task"):
        (result,) = module.invoke("matmul", A, B, device=device)
        np.testing.assert_allclose(result, A @ B, rtol=1e-6)


def test_concurrent_calls_are_identical(split_matmul_bytes):
    # 100 calls from 4 threads on local-task give bit-identical results.
    module = load_module(split_matmul_bytes)
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 4)).astype(np.float32)
    b = rng.standard_normal((4, 2)).astype(np.float32)
    (expected,) = module.invoke("matmul", a, b, device="local-task")
    with ThreadPoolExecutor(4) as pool:
        results = list(
            pool.map(lambda _: module.invoke("matmul", a, b, device="local-task")[0], range(100))
        )
    for result in results:
        np.testing.assert_array_equal(result, expected)
    np.testing.assert_allclose(expected, a @ b, rtol=1e-5)


def test_kernel_error_on_a_worker_reaches_caller(split_failing_bytes):
    # With 2 workgroups local-task runs the failing kernel on its workers: the fence fails,
    # hal.fence.await raises in the program, the caller gets the dispatch name; no hang.
    module = load_module(split_failing_bytes)
    with pytest.raises(DispatchError) as info:
        module.invoke("matmul", -np.ones((2, 4), np.float32), B, device="local-task")
    assert info.value.dispatch == "matmul_dispatch_0_matmul_2x2x4_f32"
    (result,) = module.invoke("matmul", A, B, device="local-task")
    np.testing.assert_array_equal(result.reshape(-1), A.reshape(-1)[:4])


@pytest.fixture(scope="module")
def split_failing_bytes() -> bytes:
    from vm_programs import FAILING_SOURCE, parse_vm, retargeted_reference_vm

    from ireelab.compiler.vm.module_file import write_module

    return write_module(parse_vm(retargeted_reference_vm(FAILING_SOURCE, workgroups=2)))
