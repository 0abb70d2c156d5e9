"""The lean call path for `?` signatures: well-formed arrays of any size are wrapped without the
checked path's conversions, and anything the signature refuses still gets its one-line error.

The fast path checks what the checked path checks (dtype, contiguity, rank, the static dims);
the module's own `hal.buffer_view.assert` then checks each view against the dims it read.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import ireelab
from ireelab.diagnostics import RuntimeInputError
from ireelab.runtime import loaded_module

PROGRAMS = Path(__file__).parent / "programs"


@pytest.fixture(scope="module")
def bmm():
    return ireelab.compile((PROGRAMS / "batch_matmul_batch.mlir").read_text())


@pytest.fixture(scope="module")
def mlp():
    return ireelab.compile((PROGRAMS / "mlp_batch.mlir").read_text())


def _fast(module, name: str):
    (call,) = [c for (n, _), c in module.loaded._calls.items() if n == name]
    return call.fast


@pytest.fixture
def checked_calls(monkeypatch):
    """The arguments of every call that took the checked path."""
    seen = []
    checked = loaded_module._check_inputs

    def record(name, signature, arrays, arity):
        seen.append([a.shape for a in arrays])
        return checked(name, signature, arrays, arity)

    monkeypatch.setattr(loaded_module, "_check_inputs", record)
    return seen


@pytest.mark.parametrize("n", [1, 3, 130])
def test_dynamic_batch_takes_the_fast_path(bmm, n, checked_calls):
    rng = np.random.default_rng(n)
    a = rng.standard_normal((n, 4, 8), dtype=np.float32)
    b = rng.standard_normal((n, 8, 5), dtype=np.float32)
    np.testing.assert_allclose(bmm.bmm(a, b), a @ b, rtol=1e-5, atol=1e-5)
    assert checked_calls == []
    fast = _fast(bmm, "bmm")
    assert fast is not None and all(shape is None for _, shape, _, _ in fast)


def test_static_and_dynamic_arguments_mixed(mlp, checked_calls):
    x = np.linspace(-1, 1, 7 * 8, dtype=np.float32).reshape(7, 8)
    bias = np.linspace(-0.5, 0.5, 8, dtype=np.float32)
    y, mean = mlp.bias_relu_mean(x, bias)
    expect = np.maximum(x + bias, 0)
    np.testing.assert_allclose(y, expect, rtol=1e-6)
    np.testing.assert_allclose(mean, expect.mean(axis=1), rtol=1e-5, atol=1e-6)
    assert checked_calls == []
    static = [shape for _, shape, _, _ in _fast(mlp, "bias_relu_mean")]
    assert static == [None, (8,)]


def test_other_inputs_take_the_checked_path(bmm, checked_calls):
    a = np.arange(2 * 4 * 8, dtype=np.float64).reshape(2, 4, 8) / 10
    b = np.ones((2, 5, 8), np.float32).transpose(0, 2, 1)  # not C-contiguous: copied
    with pytest.raises(RuntimeInputError, match=r"argument 0 \(%input0\).*dtype float64"):
        bmm.bmm(a, b)
    a32 = a.astype(np.float32)
    np.testing.assert_allclose(bmm.bmm(a32, b), a32 @ b, rtol=1e-5)
    assert checked_calls == [[(2, 4, 8), (2, 8, 5)]] * 2


@pytest.mark.parametrize(
    ("shape", "problem"),
    [((3, 4), "shape 3x4"), ((3, 5, 8), "shape 3x5x8"), ((3, 4, 8, 1), "shape 3x4x8x1")],
)
def test_wrong_rank_or_static_dim_is_one_line(bmm, shape, problem):
    b = np.ones((3, 8, 5), np.float32)
    with pytest.raises(RuntimeInputError) as err:
        bmm.bmm(np.ones(shape, np.float32), b)
    message = str(err.value)
    assert "\n" not in message
    expected = "@bmm argument 0 (%input0): expected tensor<?x4x8xf32>, got an array with "
    assert message.endswith(expected + problem)
