"""Issue 9.6: a kernel that raises fails its fence, and the error reaches the caller.

A fault is injected into one dispatch of a two-dispatch program (the kernel the runtime would
call is replaced by one that raises). On both devices the call raises `DispatchError` naming
that dispatch, no worker thread is left blocked, and the next calls on the same module (with
the fault removed) return correct results.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

import ireelab
from ireelab.runtime.errors import DispatchError
from ireelab.runtime.hal.executable import Executable

PROGRAM = """
func.func @f(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%fill : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %fill1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x4xf32>) outs(%fill1 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %mm, %sum : tensor<4x4xf32>, tensor<4xf32>
}
"""

A = np.arange(16, dtype=np.float32).reshape(4, 4)
B = np.eye(4, dtype=np.float32) * 2


class InjectedFault(Exception):
    pass


@pytest.fixture(scope="module")
def mod():
    return ireelab.compile(PROGRAM)


@pytest.fixture
def fault(monkeypatch):
    """`fault["export"] = name` makes that export's kernel raise until it is set to None."""
    state: dict[str, str | None] = {"export": None}
    original = Executable.kernel
    original_entries = Executable.native_entries

    def kernel(self: Executable, ordinal: int):
        if state["export"] is None:
            return original(self, ordinal)
        if state["export"] in self.names[ordinal]:

            def raising(*args):
                raise InjectedFault("injected kernel fault")

            return raising
        return self.functions[ordinal]  # the numba dispatcher: the Python-path ABI

    def native_entries(self: Executable):
        # C entry points cannot raise: a raising kernel is one called from Python (a kernel
        # without entry points), so while a fault is set the program takes that path.
        return None if state["export"] is not None else original_entries(self)

    monkeypatch.setattr(Executable, "kernel", kernel)
    monkeypatch.setattr(Executable, "native_entries", native_entries)
    return state


def check_good(mod, device: str) -> None:
    mm, total = mod.f(A, B, device=device)
    np.testing.assert_array_equal(mm, A @ B)
    np.testing.assert_array_equal(total, A.sum(axis=1))


def call_with_timeout(fn, seconds: float = 60.0):
    """Run `fn` on a helper thread; fail (rather than hang the suite) if it blocks."""
    outcome: dict[str, object] = {}

    def target():
        try:
            outcome["value"] = fn()
        except BaseException as err:  # handed to the caller below
            outcome["error"] = err

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"the call blocked for more than {seconds} s"
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
@pytest.mark.parametrize("target", ["matmul", "reduction"])
def test_a_raising_kernel_reaches_the_caller_with_its_dispatch_name(mod, fault, device, target):
    check_good(mod, device)  # contexts, workers and kernels exist before counting threads
    threads = threading.active_count()
    fault["export"] = target
    for _ in range(3):
        with pytest.raises(DispatchError) as info:
            call_with_timeout(lambda: mod.f(A, B, device=device))
        err = info.value
        assert target in err.dispatch and "_dispatch_" in err.dispatch
        assert isinstance(err.cause, InjectedFault)
        assert "\n" not in str(err) and err.dispatch in str(err)
    fault["export"] = None
    call_with_timeout(lambda: check_good(mod, device))
    assert threading.active_count() <= threads, "a faulting call left threads behind"


def test_other_modules_are_unaffected_by_a_fault(mod, fault):
    other = ireelab.compile(PROGRAM.replace("@f(", "@g("))
    fault["export"] = "matmul"
    with pytest.raises(DispatchError):
        call_with_timeout(lambda: mod.f(A, B, device="local-task"))
    fault["export"] = None
    mm, _ = call_with_timeout(lambda: other.g(A, B, device="local-task"))
    np.testing.assert_array_equal(mm, A @ B)
