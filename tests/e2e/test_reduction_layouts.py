"""End to end: reductions whose reduction loop is not innermost in the source (column sums and
maxima, a mean over dim 0, a softmax over dim 0, sums of transposed inputs). IREE's
TransposeGenericOpsPass interchanges their loops so the reduction loop is innermost (a column
sum of 8x16 iterates 16x8); here the interchanged kernels run on the HAL runtime and are
compared with numpy.

Tolerances: a max is exact; sums add the same f32 values in a different order than numpy's
pairwise summation, so they are compared with rtol 1e-5 and atol 1e-6 (a few ulps at these
sizes); exp and division as the other softmax tests do (rtol 1e-5).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAMS = Path(__file__).parent.parent / "flow" / "programs"
RNG = np.random.default_rng(23)
SUM_TOL = {"rtol": 1e-5, "atol": 1e-6}


def _source(name: str) -> str:
    return (PROGRAMS / f"{name}.mlir").read_text()


def _f32(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def _softmax0(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=0))
    return e / e.sum(axis=0)


def test_column_sum(compile_cached) -> None:
    x = _f32(8, 16)
    np.testing.assert_allclose(
        compile_cached(_source("column_sum")).column_sum(x), x.sum(0), **SUM_TOL
    )


def test_column_max_over_middle_dim(compile_cached) -> None:
    x = _f32(4, 8, 6)
    got = compile_cached(_source("column_max_3d")).column_max_3d(x)
    np.testing.assert_array_equal(got, x.max(axis=1))


def test_column_mean_then_elementwise(compile_cached) -> None:
    x = _f32(12, 20)
    got = compile_cached(_source("column_mean_then_scale")).column_mean_then_scale(x)
    np.testing.assert_allclose(got, x.sum(0) / np.float32(12) * np.float32(3), **SUM_TOL)


def test_softmax_over_dim0(compile_cached) -> None:
    x = _f32(8, 16)
    got = compile_cached(_source("softmax_dim0")).softmax_dim0(x)
    np.testing.assert_allclose(got, _softmax0(x), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(got.sum(axis=0), np.ones(16, np.float32), rtol=1e-5)


def test_reduction_reading_a_transposed_input(compile_cached) -> None:
    x = _f32(6, 10)
    got = compile_cached(_source("reduce_transposed_input")).reduce_transposed_input(x)
    np.testing.assert_allclose(got, x.sum(axis=0), **SUM_TOL)


def test_reduction_of_a_transpose_op(compile_cached) -> None:
    x = _f32(4, 6)
    got = compile_cached(_source("reduce_of_transpose_op")).reduce_of_transpose_op(x)
    np.testing.assert_allclose(got, x.T.sum(axis=0), **SUM_TOL)


def _column_sum_source(rows: int, cols: int) -> str:
    return (
        _source("column_sum")
        .replace("8x16xf32", f"{rows}x{cols}xf32")
        .replace("tensor<16xf32>", f"tensor<{cols}xf32>")
    )


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_column_sum_over_many_workgroups(compile_cached, device: str) -> None:
    # 96x520: the 520 columns (the parallel loop, outermost after the interchange) are split
    # over several workgroups, each summing its columns over all 96 rows
    source = _column_sum_source(96, 520)
    x = _f32(96, 520)
    got = compile_cached(source, device).column_sum(x)
    np.testing.assert_allclose(got, x.sum(axis=0), rtol=1e-5, atol=1e-5)


def test_column_sum_dispatch_iterates_reduction_innermost() -> None:
    # the name records the interchanged loop order (16 columns outer, 8 rows inner), as IREE's
    ir = ireelab.compile(_source("column_sum"), compile_to="flow").ir()
    assert re.findall(r"flow\.executable\.export public @(\w+)", ir) == [
        "column_sum_dispatch_0_reduction_16x8_f32"
    ]
