"""The pictures after a call: `?` sizes stay symbolic, with the sizes of the last call beside
them where the host knows them (read from an argument's view, computed from those, or recorded
by the result's view)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import ireelab

PROGRAMS = Path(__file__).parent / "programs"


def _edges(module) -> list[str]:
    return [line.strip() for line in module.dispatch_graph().source.splitlines() if "->" in line]


def test_dispatch_graph_says_the_sizes_of_the_last_call():
    module = ireelab.compile(str(PROGRAMS / "mlp_batch.mlir"))
    before = _edges(module)
    assert 'op0 -> d0_op0 [label="tensor<?x8xf32>"]' in before
    assert not any("last run" in e for e in before)
    bias = np.linspace(-1, 1, 8, dtype=np.float32)
    for rows in (7, 1, 130):
        x = np.ones((rows, 8), np.float32)
        y, mean = module.bias_relu_mean(x, bias)
        np.testing.assert_allclose(mean, np.maximum(x + bias, 0).mean(axis=1), rtol=1e-6)
        edges = _edges(module)
        assert f'op0 -> d0_op0 [label="tensor<?x8xf32> (last run {rows}x8)"]' in edges
        assert f'd0_op0 -> d1_op1 [label="tensor<?x8xf32> (last run {rows}x8)"]' in edges
        assert f'-> op3 [label="tensor<?xf32> (last run {rows})"]' in " ".join(edges)
        # static edges keep their type alone
        assert 'op1 -> d0_op0 [label="tensor<8xf32>"]' in edges


def test_two_independent_sizes():
    module = ireelab.compile(str(PROGRAMS / "add_dx4.mlir"))
    a = np.ones((3, 4), np.float32)
    np.testing.assert_array_equal(module.add(a, a), a + a)
    edges = " ".join(_edges(module))
    assert edges.count("tensor<?x4xf32> (last run 3x4)") == 3


def test_a_size_read_from_a_value_is_known_from_the_result():
    module = ireelab.compile(str(PROGRAMS / "rows_from_value.mlir"))
    x = np.array([0.5, -1.0, 2.0, 3.25], np.float32)
    got = module.iota(np.array(5, np.int64), x)
    np.testing.assert_array_equal(got, np.arange(5, dtype=np.float32)[:, None] + x)
    assert 'label="tensor<?x4xf32> (last run 5x4)"' in module.dispatch_graph().source


def test_last_run_can_be_turned_off():
    module = ireelab.compile(str(PROGRAMS / "add_dx4.mlir"))
    a = np.ones((2, 4), np.float32)
    module.add(a, a)
    assert "last run" not in module.dispatch_graph(last_run={}).source


def test_timepoint_graph_says_imports_and_allocation_sizes_of_the_last_call():
    module = ireelab.compile(str(PROGRAMS / "layernorm_dxd.mlir"))
    assert "last run" not in module.timepoint_graph().source
    for rows, cols in ((3, 5), (64, 1000)):
        x = np.random.default_rng(rows).standard_normal((rows, cols), dtype=np.float32)
        module.layernorm(x, np.full((rows, 1), cols, np.float32))
        source = module.timepoint_graph().source
        assert f"tensor<?x?xf32> (last run {rows}x{cols})" in source
        assert f"tensor<?x1xf32> (last run {rows}x1)" in source
        # the result, and the one slab of the row-sized and matrix-sized transients (each
        # place 64-byte aligned), in bytes
        assert source.count(f"(last run {rows * cols * 4} B)") == 1
        slab = -(-rows * 4 // 64) * 64 + -(-rows * cols * 4 // 64) * 64
        assert source.count(f"(last run {slab} B)") == 1


def test_timepoint_graph_export_sized_by_a_value():
    module = ireelab.compile(str(PROGRAMS / "rows_from_value.mlir"))
    module.iota(np.array(6, np.int64), np.ones(4, np.float32))
    assert "tensor<?x4xf32> (last run 6x4)" in module.timepoint_graph().source
