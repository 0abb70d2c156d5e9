"""Native plans (`runtime/hal/native_tasks.py`): every workgroup runs exactly once, sections
stay in order, exactly one participant completes the plan, idle workers join from the board
without Python, and a compiled program computes the same bits on every path (native plan,
Python tasks, local-sync)."""

from __future__ import annotations

import threading

import numba
import numpy as np
import pytest

import ireelab
from ireelab.runtime.hal import native_tasks
from ireelab.runtime.hal.drivers import get_device
from ireelab.runtime.hal.native_entries import ENTRY_SIGNATURE, _byte_pointer
from ireelab.runtime.hal.task_executor import TaskExecutor

pytestmark = pytest.mark.skipif(not native_tasks.SUPPORTED, reason="native plans need x86-64")

SIZE = 37


@numba.njit(cache=True)
def _words(address, count):
    return numba.carray(_byte_pointer(address), (8 * count,)).view(np.int64)


@numba.cfunc(ENTRY_SIGNATURE, nogil=True, cache=True)
def _first(begin, end, ctx):
    # ctx: [x, y, z, out address, n]; out[wg] = wg + 1, and count the visit in out[n + wg]
    out = _words(ctx[3], 2 * ctx[4])
    for wg in range(begin, end):
        out[wg] = wg + 1
        out[ctx[4] + wg] += 1


@numba.cfunc(ENTRY_SIGNATURE, nogil=True, cache=True)
def _second(begin, end, ctx):
    # ctx: [x, y, z, in address, out address, n]; out[wg] = 2 * in[n - 1 - wg] (reads another
    # workgroup's result of the previous section: wrong unless the barrier held)
    n = ctx[5]
    source = _words(ctx[3], 2 * n)
    out = _words(ctx[4], 2 * n)
    for wg in range(begin, end):
        out[wg] = 2 * source[n - 1 - wg]
        out[n + wg] += 1


def _two_section_plan(chunk: int):
    first = np.zeros(2 * SIZE, np.int64)
    second = np.zeros(2 * SIZE, np.int64)
    blocks = np.array(
        [SIZE, 1, 1, first.ctypes.data, SIZE, SIZE, 1, 1, first.ctypes.data, second.ctypes.data,
         SIZE],
        np.int64,
    )  # fmt: skip
    plan, state = native_tasks.build(
        [
            [(_first.address, blocks.ctypes.data, SIZE, chunk)],
            [(_second.address, blocks.ctypes.data + 40, SIZE, chunk + 1)],
        ]
    )
    return plan, state, first, second, blocks


def _check(first, second):
    expected = np.arange(1, SIZE + 1)
    np.testing.assert_array_equal(first[:SIZE], expected)
    np.testing.assert_array_equal(second[:SIZE], 2 * expected[::-1])
    np.testing.assert_array_equal(first[SIZE:], 1)  # every workgroup exactly once
    np.testing.assert_array_equal(second[SIZE:], 1)


@pytest.mark.parametrize("threads", [1, 3])
def test_every_workgroup_runs_once_sections_in_order_one_finisher(threads):
    plan, state, first, second, _blocks = _two_section_plan(chunk=2)
    finishers = []

    def participant(host: bool) -> None:
        finishers.append(native_tasks.join(plan, state, host))

    workers = [threading.Thread(target=participant, args=(i == 0,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(10)
    assert not any(w.is_alive() for w in workers)
    _check(first, second)
    assert finishers.count(True) == 1
    # a late joiner finds nothing to claim and does not finish it again
    assert native_tasks.join(plan, state, False) is False
    _check(first, second)


def test_an_idle_worker_runs_a_published_plan_and_completes_it_without_a_caller():
    board = np.zeros(native_tasks.BOARD_LENGTH, np.int64)
    events = np.zeros(1, np.int64)
    last = np.array([board[native_tasks.GENERATION]], np.int64)
    plan, state, first, second, _blocks = _two_section_plan(chunk=5)
    woke = []
    worker = threading.Thread(
        target=lambda: woke.append(native_tasks.worker_wait(board, events, 0, 10**9, last))
    )
    worker.start()
    members, polling = native_tasks.publish(board, plan, state)
    worker.join(10)
    assert not worker.is_alive()
    assert members in (0, 1)
    assert polling in (0, 1)  # the worker may not have started polling yet
    assert woke == [2]  # no caller joined: the worker must complete it in Python
    assert last[0] == board[native_tasks.GENERATION] == 2
    assert board[native_tasks.MEMBERS] == board[native_tasks.SPINNERS] == 0
    _check(first, second)


def test_an_idle_worker_leaves_for_python_work():
    board = np.zeros(native_tasks.BOARD_LENGTH, np.int64)
    events = np.zeros(1, np.int64)
    last = np.zeros(1, np.int64)
    assert native_tasks.worker_wait(board, events, 0, 1000, last) == 0  # nothing: times out
    events[0] = 1
    assert native_tasks.worker_wait(board, events, 0, 10**9, last) == 1


SOURCE = """
func.func @softmax_mm(%x: tensor<64x96xf32>, %w: tensor<96x48xf32>) -> tensor<64x48xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x96xf32>) outs(%m0 : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64x96xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<64x96xf32>, tensor<64xf32>) outs(%e1 : tensor<64x96xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %s = arith.subf %a, %b : f32
    %r = math.exp %s : f32
    linalg.yield %r : f32
  } -> tensor<64x96xf32>
  %e2 = tensor.empty() : tensor<64x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64x48xf32>) -> tensor<64x48xf32>
  %mm = linalg.matmul ins(%p, %w : tensor<64x96xf32>, tensor<96x48xf32>) outs(%f : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %mm : tensor<64x48xf32>
}
"""


def _reference(x, w):
    return np.exp(x - x.max(axis=1, keepdims=True)) @ w


def test_a_program_runs_as_native_plans_with_the_same_bits_on_every_path(monkeypatch):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((64, 96), dtype=np.float32)
    w = rng.standard_normal((96, 48), dtype=np.float32)
    module = ireelab.compile(SOURCE, device="local-task")
    plans = []
    start_plan = TaskExecutor.start_plan
    monkeypatch.setattr(
        TaskExecutor, "start_plan", lambda self, run: (plans.append(run), start_plan(self, run))
    )
    native = [np.asarray(module.softmax_mm(x, w)) for _ in range(20)]
    assert len(plans) == 20  # every call ran as one native plan
    assert all(run.complete is None for run in plans)  # each was completed
    device = get_device("local-task")
    monkeypatch.setattr(device, "native", False)
    python_tasks = np.asarray(module.softmax_mm(x, w))
    assert len(plans) == 20
    inline = np.asarray(module.invoke("softmax_mm", x, w, device="local-sync"))
    for result in native:
        np.testing.assert_array_equal(result, native[0])
    np.testing.assert_array_equal(python_tasks, native[0])
    np.testing.assert_array_equal(inline, native[0])
    np.testing.assert_allclose(native[0], _reference(x, w), rtol=2e-5, atol=2e-5)


def test_concurrent_callers_share_the_board(monkeypatch):
    rng = np.random.default_rng(4)
    module = ireelab.compile(SOURCE, device="local-task")
    inputs = [
        (rng.standard_normal((64, 96), dtype=np.float32), rng.standard_normal((96, 48), dtype=np.float32))
        for _ in range(3)
    ]  # fmt: skip
    expected = [
        np.asarray(module.invoke("softmax_mm", x, w, device="local-sync")) for x, w in inputs
    ]
    failures = []

    def caller(index: int) -> None:
        x, w = inputs[index]
        for _ in range(30):
            if not np.array_equal(np.asarray(module.softmax_mm(x, w)), expected[index]):
                failures.append(index)

    threads = [threading.Thread(target=caller, args=(i,)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(t.is_alive() for t in threads)
    assert failures == []
