"""`?` programs whose command buffer the VM translator fuses into one `hal` call
(`runtime/vm/fused_commands.py`): results against numpy at sizes from 1 up and across tile
sizes, recordings replayed per size, and the static programs' memoized command buffers left
as they were."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAMS = Path(__file__).parent / "programs"


def _compile(name: str, text: str | None = None):
    return ireelab.compile(text or (PROGRAMS / f"{name}.mlir").read_text())


def _fused_functions(module, device: str) -> list[str]:
    """The names of the functions whose translation calls `command_buffer_record`."""
    context = module.loaded.context(device)
    record = context.hal.command_buffer_record
    fused = []
    for function in context.functions:
        names = [n for n, v in function.run.__globals__.items() if v == record]
        if any(f"{n}(" in function.source for n in names):
            fused.append(function.name)
    return fused


@pytest.fixture(scope="module")
def add():
    return _compile("add_dx4")


@pytest.fixture(scope="module")
def mlp():
    return _compile("mlp_batch")


@pytest.fixture(scope="module")
def dense():
    return _compile("dense_relu_batch")


SIZES = [1, 2, 5, 1000, 4095, 4097, 1]
"""1, small, a benchmark size, just under and over the elementwise kernel's 4096-element
tile, and 1 again (a replay)."""


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_add_at_many_sizes(add, device):
    rng = np.random.default_rng(1)
    for n in SIZES:
        a, b = (rng.standard_normal((n, 4), dtype=np.float32) for _ in range(2))
        np.testing.assert_allclose(add.add(a, b, device=device), a + b, rtol=1e-6)
    assert _fused_functions(add, device) == ["add"]


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_two_dispatches_in_one_run(mlp, device):
    """Two dispatches with a lookup and size arithmetic between them, two barriers."""
    rng = np.random.default_rng(2)
    bias = rng.standard_normal(8, dtype=np.float32)
    for n in SIZES:
        x = rng.standard_normal((n, 8), dtype=np.float32)
        y, mean = mlp.bias_relu_mean(x, bias, device=device)
        expect = np.maximum(x + bias, 0)
        np.testing.assert_allclose(y, expect, rtol=1e-6)
        np.testing.assert_allclose(mean, expect.mean(axis=1), rtol=1e-5, atol=1e-6)
    assert _fused_functions(mlp, device) == ["bias_relu_mean"]


def test_dense_layer_at_many_batches(dense):
    rng = np.random.default_rng(3)
    w = rng.standard_normal((64, 32), dtype=np.float32)
    bias = rng.standard_normal(32, dtype=np.float32)
    for n in [1, 64, 65, 7, 200, 64]:
        x = rng.standard_normal((n, 64), dtype=np.float32)
        expect = np.maximum(x @ w + bias, 0)
        np.testing.assert_allclose(
            dense.mlp(x, w, bias, device="local-sync"), expect, rtol=1e-4, atol=1e-4
        )
    cache = dense.loaded.context("local-sync").hal.recordings
    assert (cache.misses, cache.hits) == (5, 1)


def test_a_second_size_records_once_then_replays(add):
    module = _compile("add_dx4")  # a context of its own: counts from zero
    for n in [3, 3, 9, 9, 9, 3]:
        a = np.full((n, 4), n, np.float32)
        np.testing.assert_array_equal(module.add(a, a, device="local-sync"), 2 * a)
    cache = module.loaded.context("local-sync").hal.recordings
    assert (cache.misses, cache.hits) == (2, 4)


def test_static_programs_keep_their_memoized_command_buffer():
    """Sizes written in: the command buffer is memoized at load and run indirectly, as
    before; nothing is fused."""
    text = (PROGRAMS / "add_dx4.mlir").read_text()
    static = re.sub(r"tensor\.empty\([^)]*\)", "tensor.empty()", text.replace("?x4", "6x4"))
    module = _compile("add_dx4", static)
    a = np.arange(24, dtype=np.float32).reshape(6, 4)
    np.testing.assert_array_equal(module.add(a, a), 2 * a)
    assert _fused_functions(module, "local-sync") == []
    cache = module.loaded.context("local-sync").hal.recordings
    assert (cache.misses, cache.hits) == (0, 0)
