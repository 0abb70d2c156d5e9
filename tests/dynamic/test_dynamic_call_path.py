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


# ---- calls at changing sizes: the kept one-shot argument blocks (`execution.OneShotBlock`) ----

ALTERNATING = [1, 4097, 7, 1, 130, 4096, 4097, 3, 8193, 1, 65, 9, 12289, 5, 7, 2, 130, 1]
"""Sizes in turn, repeating some: 1, below, at and across the 4096-element tile of the
elementwise kernel, and more distinct sizes than an executable keeps blocks for."""


@pytest.fixture(scope="module")
def add():
    return ireelab.compile((PROGRAMS / "add_dx4.mlir").read_text())


@pytest.fixture(scope="module")
def dense():
    return ireelab.compile((PROGRAMS / "dense_relu_batch.mlir").read_text())


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_alternating_sizes_match_numpy(add, device):
    rng = np.random.default_rng(17)
    kept = []
    for n in ALTERNATING:
        a = rng.standard_normal((n, 4), dtype=np.float32)
        b = rng.standard_normal((n, 4), dtype=np.float32)
        result = add.add(a, b, device=device)
        assert result.shape == (n, 4)
        np.testing.assert_allclose(result, a + b, rtol=1e-6)
        kept.append((result, a + b))
        assert add.last_run["add"] == (((n, 4), (n, 4)), ((n, 4),))
    for result, expect in kept:  # a later call at another size left earlier results alone
        np.testing.assert_allclose(result, expect, rtol=1e-6)
    (executable,) = {
        d.executable for d in _dispatches(add, "add", device, np.ones((3, 4), np.float32))
    }
    from ireelab.runtime.hal.execution import ONE_SHOT_SIZES

    assert 0 < len(executable.one_shot_blocks) <= ONE_SHOT_SIZES


def test_dense_layer_alternating_batches(dense):
    rng = np.random.default_rng(3)
    w = rng.standard_normal((64, 32), dtype=np.float32)
    bias = rng.standard_normal(32, dtype=np.float32)
    for n in [64, 1, 129, 64, 7, 1, 200, 129]:
        x = rng.standard_normal((n, 64), dtype=np.float32)
        expect = np.maximum(x @ w + bias, 0)
        np.testing.assert_allclose(dense.mlp(x, w, bias), expect, rtol=1e-4, atol=1e-4)


def test_same_sizes_reuse_one_block(add):
    """A second call at the same sizes runs its re-recorded dispatch with the block the first
    one kept; other sizes get their own."""
    from ireelab.runtime.hal import execution

    x = np.ones((11, 4), np.float32)
    (dispatch,) = _dispatches(add, "add", "local-sync", x)
    first = execution.one_shot_block(dispatch)
    first.lock.release()
    (again,) = _dispatches(add, "add", "local-sync", x)
    assert again is not dispatch  # recorded anew (one-shot), same sizes
    second = execution.one_shot_block(again)
    second.lock.release()
    assert second is first
    (other,) = _dispatches(add, "add", "local-sync", np.ones((12, 4), np.float32))
    third = execution.one_shot_block(other)
    third.lock.release()
    assert third is not first


def test_threads_at_one_size_share_no_block(add):
    """Calls from several threads at the same sizes: one holds the kept block, the others
    build their own, and every result is its own call's."""
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(5)
    pairs = [tuple(rng.standard_normal((2, 9, 4), dtype=np.float32)) for _ in range(64)]
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda p: add.add(p[0], p[1], device="local-task"), pairs))
    for (a, b), result in zip(pairs, results, strict=True):
        np.testing.assert_allclose(result, a + b, rtol=1e-6)


def _dispatches(module, name: str, device: str, x: np.ndarray) -> list:
    """The dispatches of one call of `name(x, x)`, as it records them."""
    from ireelab.runtime.hal.command_buffer import CommandBuffer

    recorded = []
    finalize = CommandBuffer.finalize

    def keep(self):
        recorded.extend(c for s in self.sections for c in s)
        return finalize(self)

    CommandBuffer.finalize = keep
    try:
        module.loaded.invoke(name, x, x, device=device)
    finally:
        CommandBuffer.finalize = finalize
    return recorded
