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
    # only the first dim is `?`: the static rest (which fixes the rank) is checked by a slice
    assert fast is not None and [(tail, start) for _, tail, start, _ in fast] == [
        ((4, 8), 1),
        ((8, 5), 1),
    ]


def test_static_and_dynamic_arguments_mixed(mlp, checked_calls):
    x = np.linspace(-1, 1, 7 * 8, dtype=np.float32).reshape(7, 8)
    bias = np.linspace(-0.5, 0.5, 8, dtype=np.float32)
    y, mean = mlp.bias_relu_mean(x, bias)
    expect = np.maximum(x + bias, 0)
    np.testing.assert_allclose(y, expect, rtol=1e-6)
    np.testing.assert_allclose(mean, expect.mean(axis=1), rtol=1e-5, atol=1e-6)
    assert checked_calls == []
    checks = [(shape, start) for _, shape, start, _ in _fast(mlp, "bias_relu_mean")]
    assert checks == [((8,), 1), ((8,), None)]  # ?x8 from its dim 1 on; 8 all of it


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
    [
        ((3, 4), "shape 3x4"),
        ((4, 8), "shape 4x8"),
        ((8,), "shape 8"),
        ((3, 5, 8), "shape 3x5x8"),
        ((3, 4, 8, 1), "shape 3x4x8x1"),
        ((1, 3, 4, 8), "shape 1x3x4x8"),
    ],
)
def test_wrong_rank_or_static_dim_is_one_line(bmm, shape, problem):
    b = np.ones((3, 8, 5), np.float32)
    with pytest.raises(RuntimeInputError) as err:
        bmm.bmm(np.ones(shape, np.float32), b)
    message = str(err.value)
    assert "\n" not in message
    expected = "@bmm argument 0 (%input0): expected tensor<?x4x8xf32>, got an array with "
    assert message.endswith(expected + problem)


# ---- calls at changing sizes: the recording cache (`recording_cache`) ----

ALTERNATING = [1, 4097, 7, 1, 130, 4096, 4097, 3, 8193, 1, 65, 9, 12289, 5, 7, 2, 130, 1]
"""Sizes in turn, repeating some: 1, below, at and across the 4096-element tile of the
elementwise kernel (one workgroup, then several: the local-task device then runs it on its
workers)."""


@pytest.fixture
def add():
    return ireelab.compile((PROGRAMS / "add_dx4.mlir").read_text())


@pytest.fixture(scope="module")
def dense():
    return ireelab.compile((PROGRAMS / "dense_relu_batch.mlir").read_text())


def _recordings(module, device: str):
    return module.loaded.context(device).hal.recordings


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_alternating_sizes_match_numpy(add, device):
    """Each size is recorded once, every repeat replays it on the call's own buffers, and a
    later call at another size leaves earlier results alone."""
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
    for result, expect in kept:
        np.testing.assert_allclose(result, expect, rtol=1e-6)
    cache = _recordings(add, device)
    distinct = len(set(ALTERNATING))
    assert (cache.misses, cache.hits) == (distinct, len(ALTERNATING) - distinct)
    assert len(cache.recordings) == distinct


def test_more_sizes_than_kept_still_match(add, monkeypatch):
    """Past `RECORDINGS` sizes the oldest recording is dropped and recorded again when its
    size comes back."""
    from ireelab.runtime.hal import recording_cache

    monkeypatch.setattr(recording_cache, "RECORDINGS", 3)
    sizes = [1, 2, 3, 4, 1, 4, 2]
    for n in sizes:
        a = np.full((n, 4), n, np.float32)
        np.testing.assert_array_equal(add.add(a, a, device="local-sync"), 2 * a)
    cache = _recordings(add, "local-sync")
    assert len(cache.recordings) == 3
    # 1..4 miss (1 dropped at 4), 1 misses (drops 2), 4 hits, 2 misses
    assert (cache.misses, cache.hits) == (6, 1)


def test_buffers_reallocated_between_calls_at_one_size(add):
    """A hit binds the buffers of the call making it: new arrays at the same size, an array
    reused as both operands, and the results of earlier calls kept alive."""
    rng = np.random.default_rng(9)
    results = []
    for _ in range(4):
        a = rng.standard_normal((33, 4), dtype=np.float32)
        b = rng.standard_normal((33, 4), dtype=np.float32)
        results.append((add.add(a, b, device="local-task"), a + b))
        results.append((add.add(a, a, device="local-task"), a + a))
    for result, expect in results:
        np.testing.assert_allclose(result, expect, rtol=1e-6)
    assert len({id(r) for r, _ in results}) == len(results)
    cache = _recordings(add, "local-task")
    assert (cache.misses, cache.hits) == (1, 7)


def test_dense_layer_alternating_batches(dense):
    rng = np.random.default_rng(3)
    w = rng.standard_normal((64, 32), dtype=np.float32)
    bias = rng.standard_normal(32, dtype=np.float32)
    for n in [64, 1, 129, 64, 7, 1, 200, 129]:
        x = rng.standard_normal((n, 64), dtype=np.float32)
        expect = np.maximum(x @ w + bias, 0)
        np.testing.assert_allclose(dense.mlp(x, w, bias), expect, rtol=1e-4, atol=1e-4)


def test_same_sizes_replay_one_recording(add):
    """A second call at the same sizes replays the recording the first one made; another size
    gets its own."""
    x = np.ones((11, 4), np.float32)
    first = _finalized(add, "local-sync", x)
    again = _finalized(add, "local-sync", x)
    assert again is not first  # a new one-shot command buffer per call ...
    assert again.sections is first.sections  # ... replaying one recording
    assert [b[0] for b in again.table] != [b[0] for b in first.table]  # on its own buffers
    (dispatch,) = first.sections[0]
    assert dispatch.reusable and all(ref.buffer is None for ref in dispatch.bindings)
    other = _finalized(add, "local-sync", np.ones((12, 4), np.float32))
    assert other.sections is not first.sections


def test_threads_at_one_size_share_no_block(add):
    """Calls from several threads at the same sizes: one holds the recording's argument
    block, the others build their own, and every result is its own call's."""
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(5)
    pairs = [tuple(rng.standard_normal((2, 9, 4), dtype=np.float32)) for _ in range(64)]
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda p: add.add(p[0], p[1], device="local-task"), pairs))
    for (a, b), result in zip(pairs, results, strict=True):
        np.testing.assert_allclose(result, a + b, rtol=1e-6)


def _finalized(module, device: str, x: np.ndarray):
    """The one-shot command buffer one call of `add(x, x)` finalizes (a miss: through the
    recording cache's `finalize`; a hit: made by `command_buffer.replaying`)."""
    from ireelab.runtime.hal import module as hal_module
    from ireelab.runtime.hal.recording_cache import RecordingCache

    seen = []
    finalize, replaying = RecordingCache.finalize, hal_module.replaying

    def keep(self, command_buffer):
        finalize(self, command_buffer)
        seen.append(command_buffer)

    def replay(*args):
        seen.append(replaying(*args))
        return seen[-1]

    RecordingCache.finalize, hal_module.replaying = keep, replay
    try:
        np.testing.assert_array_equal(module.add(x, x, device=device), 2 * x)
    finally:
        RecordingCache.finalize, hal_module.replaying = finalize, replaying
    (command_buffer,) = seen
    return command_buffer
