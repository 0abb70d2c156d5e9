"""`iree_linalg_ext.topk_v2`: IREE's order for equal values, and its dynamic workload.

With `is_sorted`, IREE's loop lowering bubble-sorts the K kept values after each insertion
(its `emitBubbleSort`); a pair of equal values is swapped by every sweep, so the positions of
repeated values come out in IREE's order, not the stable one: for a row whose maxima 5 sit
at positions 3, 4 and 6 (IREE's `topk_1d_repeat_max`, K = 5), the indices are 3, 6, 4; with
K = 4, 6, 4, 3. ireelab's lowering does the same.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAMS = Path(__file__).parent / "programs"

needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)

REPEATED_MAX = np.array([1.0, 1.5, 3.0, 5.0, 5.0, 3.0, 5.0, 2.0, 2.0, 10.0], np.float32)


def _simulated(row: np.ndarray, k: int) -> tuple[list[float], list[int]]:
    """IREE's algorithm in plain Python: insertion through the K kept values (the index
    follows the comparator, ties keep the earlier), then K - 1 bubble sweeps."""
    values, indices = [-np.inf] * k, [0] * k
    for n, x in enumerate(row):
        carry, carry_index = float(x), n
        for s in range(k):
            forward, reverse = carry > values[s], values[s] > carry
            take = forward or (forward == reverse and carry_index < indices[s])
            values[s], carry = (carry, values[s]) if forward else (values[s], carry)
            indices[s], carry_index = (
                (carry_index, indices[s]) if take else (indices[s], carry_index)
            )
        for sweep in range(k - 1):
            for j in range(k - 1 - sweep):
                if not values[j] > values[j + 1]:
                    values[j], values[j + 1] = values[j + 1], values[j]
                    indices[j], indices[j + 1] = indices[j + 1], indices[j]
    return values, indices


@pytest.fixture(scope="module")
def top4():
    return ireelab.compile(str(PROGRAMS / "topk_v2_ties_dxd.mlir"))


def test_repeated_maxima_come_out_in_ireees_order(top4):
    values, indices = top4.top4(REPEATED_MAX[None, :])
    np.testing.assert_array_equal(values[0], [10.0, 5.0, 5.0, 5.0])
    np.testing.assert_array_equal(indices[0], [9, 6, 4, 3])
    assert _simulated(REPEATED_MAX, 4) == ([10.0, 5.0, 5.0, 5.0], [9, 6, 4, 3])
    assert _simulated(REPEATED_MAX, 5)[1] == [9, 3, 6, 4, 2]


def test_rows_with_ties_at_every_size(top4):
    # small integers: many ties; the values are numpy's top 4, the indices IREE's order
    rng = np.random.default_rng(41)
    for rows, cols in [(1, 4), (3, 5), (7, 13), (64, 33), (5, 300)]:
        x = rng.integers(0, 6, (rows, cols)).astype(np.float32)
        values, indices = top4.top4(x)
        np.testing.assert_array_equal(values, -np.sort(-x, axis=1)[:, :4])
        np.testing.assert_array_equal(np.take_along_axis(x, indices, 1), values)
        for row, got in zip(x, indices, strict=True):
            assert list(got) == _simulated(row, 4)[1]


def test_dynamic_workload_is_ireees_order():
    # the columns first, then the rows (the rows also size the results): IREE's operands
    ir = ireelab.compile(str(PROGRAMS / "topk_v2_ties_dxd.mlir"), compile_to="flow").ir()
    rows = re.search(r"(%\w+) = hal\.buffer_view\.dim<%arg0 : !hal\.buffer_view>\[0\]", ir)
    cols = re.search(r"(%\w+) = hal\.buffer_view\.dim<%arg0 : !hal\.buffer_view>\[1\]", ir)
    site = re.search(r"flow\.dispatch @\w+::@top4_dispatch_0_topk_v2_DxDxf32\[([^\]]*)\]", ir)
    assert site.group(1) == f"{cols.group(1)}, {rows.group(1)}"


@pytest.mark.iree
@needs_iree
def test_results_equal_iree_with_ties(top4):
    import ireelab.iree

    theirs = ireelab.iree.compile((PROGRAMS / "topk_v2_ties_dxd.mlir").read_text(), trace=False)
    rng = np.random.default_rng(43)
    cases = [REPEATED_MAX[None, :]]
    cases += [rng.integers(0, 6, s).astype(np.float32) for s in [(1, 4), (3, 5), (7, 13), (64, 33)]]
    for x in cases:
        for got, want in zip(top4.top4(x), theirs.top4(x), strict=True):
            np.testing.assert_array_equal(got, want, err_msg=str(x.shape))
