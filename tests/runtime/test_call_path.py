"""The lean call path: per (function, device) everything is looked up once, well-formed arrays
are wrapped without copies, anything else takes the checked path, and kernels are called
through numba's compiled entry point once it exists."""

from __future__ import annotations

import numpy as np
import pytest

from ireelab.diagnostics import RuntimeInputError
from ireelab.runtime import load_module
from ireelab.runtime.hal.executable_loader import compiled_entry

A = np.arange(8, dtype=np.float32).reshape(2, 4)
B = np.arange(8, dtype=np.float32).reshape(4, 2) / 4


@pytest.fixture(scope="module")
def module(matmul_bytes):
    return load_module(matmul_bytes)


def test_call_is_prepared_once(module):
    module.invoke("matmul", A, B)
    call = module._calls[("matmul", "local-sync")]
    module.invoke("matmul", A, B)
    assert module._calls[("matmul", "local-sync")] is call
    assert call.fast is not None


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_inputs_needing_conversion_take_the_checked_path(module, device):
    # A transposed view and a read-only array are copied first; all give the numpy answer.
    readonly = B.copy()
    readonly.flags.writeable = False
    transposed = np.ascontiguousarray(A.T).T
    for a, b in ((transposed, B), (A, readonly), (transposed, readonly)):
        (result,) = module.invoke("matmul", a, b, device=device)
        np.testing.assert_array_equal(result, np.asarray(a) @ np.asarray(b))


def test_inputs_are_not_copied_on_the_fast_path(module):
    # The buffer view wraps the caller's memory: its bytes live at the array's address.
    from ireelab.runtime.hal.buffer_view import BufferView

    call = module._calls.get(("matmul", "local-sync")) or module._prepare("matmul", "local-sync")
    views = call._views((A, B))
    assert all(type(v) is BufferView for v in views)
    assert views[0].buffer.storage.ctypes.data == A.ctypes.data


def test_wrong_inputs_still_fail_with_one_line(module):
    with pytest.raises(RuntimeInputError, match="argument 1 .* got an array with dtype float64"):
        module.invoke("matmul", A, B.astype(np.float64))
    with pytest.raises(RuntimeInputError, match="expects 2 argument"):
        module.invoke("matmul", A)


def test_results_do_not_alias_inputs_or_each_other(module):
    first = module.invoke("matmul", A, B)[0]
    second = module.invoke("matmul", 2 * A, B)[0]
    np.testing.assert_array_equal(first, A @ B)
    np.testing.assert_array_equal(second, (2 * A) @ B)


def test_kernels_are_called_through_the_compiled_entry_point(module):
    module.invoke("matmul", A, B)
    context = module.context("local-sync")
    executables = [
        value for value in context.globals["ref"] if type(value).__name__ == "Executable"
    ]
    assert executables
    executable = executables[0]
    kernel = executable.kernel(0)
    assert kernel is compiled_entry(executable.functions[0])
    assert kernel is not executable.functions[0]


def test_compiled_entry_refuses_unexpected_signatures():
    assert compiled_entry(lambda *args: None) is None
