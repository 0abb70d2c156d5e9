"""End to end: programs whose dispatch split depends on InsertTensorBarriers (a multi-result
producer with a returned-only result stays apart from its consumer; a single returned and
consumed result fuses) compute what numpy does. One f32 add or multiply per element on both
sides, so the comparisons are exact."""

from __future__ import annotations

from pathlib import Path

import numpy as np

PROGRAMS = Path(__file__).parent.parent / "flow" / "programs"
RNG = np.random.default_rng(29)


def _f32(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def test_multi_result_returned_and_consumed(compile_cached) -> None:
    module = compile_cached((PROGRAMS / "multi_result_returned_and_consumed.mlir").read_text())
    a, b = _f32(4, 6), _f32(4, 6)
    total, doubled = module.sum_returned_product_doubled(a, b)
    np.testing.assert_array_equal(total, a + b)
    np.testing.assert_array_equal(doubled, (a * b) + (a * b))


def test_single_result_returned_and_consumed(compile_cached) -> None:
    module = compile_cached((PROGRAMS / "single_result_returned_and_consumed.mlir").read_text())
    a, b = _f32(4, 6), _f32(4, 6)
    total, doubled = module.sum_returned_and_doubled(a, b)
    np.testing.assert_array_equal(total, a + b)
    np.testing.assert_array_equal(doubled, (a + b) + (a + b))
