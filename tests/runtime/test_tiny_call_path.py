"""The tiny call's path, by count rather than by time (issue 19's a0_matmul_tiny): a repeated
call of a memoized function replays its command buffer through the dispatch's kept argument
block (`execution.PreparedArguments`), builds no argument block of its own, and stays within a
budget of Python function calls. Timing a 25 us call on a loaded machine cannot catch a lost
fast path; these counts do (session 10 lost 13 us per call and nothing failed).

Results are compared with numpy exactly (a 2x4x2 matmul of small integers in f32)."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from reference_paths import REFERENCE

import ireelab
from ireelab.runtime.hal import execution

MATMUL = (REFERENCE / "programs" / "a0_matmul_tiny.mlir").read_text()
A = np.arange(8, dtype=np.float32).reshape(2, 4)
B = np.arange(8, dtype=np.float32).reshape(4, 2) - 3

CALL_BUDGET = 64
"""Python function calls (the profiler's `call` events, C functions not counted; numba's
dispatchers report theirs) one repeated call of `a0_matmul_tiny` may make, on either device.
Measured: 86 on main before session 10, 59 on local-sync and local-task after (branch memo3).
Raise it only for work the call must do, and say why."""


@pytest.fixture(scope="module")
def matmul():
    module = ireelab.compile(MATMUL)
    for device in ("local-sync", "local-task"):
        module.matmul(A, B, device=device)  # first calls: contexts, kernels, kept blocks
    return module


def python_calls(function) -> tuple[object, list[str]]:
    """`function()`'s result and the names of the Python functions it called."""
    names: list[str] = []

    def profile(frame, event, arg):
        if event == "call":
            names.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        result = function()
    finally:
        sys.setprofile(None)
    return result, names


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_a_repeated_call_fills_the_kept_argument_block(matmul, device, monkeypatch):
    counts = {"fill": 0, "block": 0, "resolve": 0}
    fill, block, resolve = (
        execution.PreparedArguments.fill,
        execution.ArgumentBlock.__init__,
        execution.resolve_bindings,
    )

    def counting(key, original):
        def counted(*args):
            counts[key] += 1
            return original(*args)

        return counted

    monkeypatch.setattr(execution.PreparedArguments, "fill", counting("fill", fill))
    monkeypatch.setattr(execution.ArgumentBlock, "__init__", counting("block", block))
    monkeypatch.setattr(execution, "resolve_bindings", counting("resolve", resolve))
    for k in range(3):
        np.testing.assert_array_equal(matmul.matmul(A * k, B, device=device), (A * k) @ B)
    assert counts == {"fill": 3, "block": 0, "resolve": 0}


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_a_repeated_call_stays_within_its_python_call_budget(matmul, device):
    matmul.matmul(A, B, device=device)
    result, names = python_calls(lambda: matmul.matmul(A, B, device=device))
    np.testing.assert_array_equal(result, A @ B)
    assert "fill" in names and "resolve_bindings" not in names
    assert len(names) <= CALL_BUDGET, (
        f"one call of a0_matmul_tiny on {device} made {len(names)} Python calls "
        f"(budget {CALL_BUDGET}): {', '.join(names)}"
    )
