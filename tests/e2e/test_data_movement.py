"""End to end: host data movement (tensor.pad, tensor.concat, tensor.extract_slice,
tensor.insert_slice) compiled the way IREE 3.13 does it - fills, copy dispatches with tied
results, and for contiguous runs `stream.cmd.copy` - and run on the HAL runtime, compared
with numpy. Copies are exact; results that went
through `math.exp` are compared with rtol 1e-6 (numba's exp against numpy's)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAMS = Path(__file__).parent.parent / "flow" / "programs"
SLICE_PROGRAMS = Path(__file__).parent / "slice_programs"
RNG = np.random.default_rng(7)


def _inputs(*shapes: tuple[int, ...]) -> list[np.ndarray]:
    return [RNG.standard_normal(s).astype(np.float32) for s in shapes]


def _run(name: str, function: str, *args: np.ndarray):
    module = ireelab.compile((PROGRAMS / f"{name}.mlir").read_text())
    result = getattr(module, function)(*args)
    return result if isinstance(result, tuple) else (result,)


def _inserted(dest: np.ndarray, update: np.ndarray, at: tuple[int, int]) -> np.ndarray:
    out = dest.copy()
    out[at[0] : at[0] + update.shape[0], at[1] : at[1] + update.shape[1]] = update
    return out


def test_pad_with_a_constant_is_a_fill_and_a_copy() -> None:
    (a,) = _inputs((4, 6))
    (got,) = _run("pad_2d", "pad", a)
    np.testing.assert_array_equal(got, np.pad(a, ((1, 1), (2, 2))))


def test_pad_3d_nonzero_low_high_and_concat_of_three_on_the_inner_dim() -> None:
    a, b, c = _inputs((2, 3, 4), (2, 3, 2), (2, 3, 1))
    padded, joined = _run("pad_3d_concat3", "pad3", a, b, c)
    np.testing.assert_array_equal(
        padded, np.pad(a, ((1, 2), (0, 1), (2, 1)), constant_values=np.float32(-2.5))
    )
    np.testing.assert_array_equal(joined, np.concatenate([a, b, c], axis=2))


def test_concat_on_an_inner_dim_writes_each_operand_in_place() -> None:
    a, b = _inputs((4, 6), (4, 3))
    (got,) = _run("concat_inner_dim", "concat", a, b)
    np.testing.assert_array_equal(got, np.concatenate([a, b], axis=1))


def test_non_contiguous_extract_and_insert_slice_of_an_argument() -> None:
    a, b = _inputs((8, 16), (2, 4))
    extracted, inserted = _run("slices_non_contiguous", "slices", a, b)
    np.testing.assert_array_equal(extracted, a[2:6, 4:12])
    np.testing.assert_array_equal(inserted, _inserted(a, b, (1, 2)))
    # the argument itself was copied before the in-place write, not overwritten
    assert not np.array_equal(a, inserted)


def test_insert_slice_into_a_computed_tensor() -> None:
    a, b = _inputs((6, 8), (2, 3))
    (got,) = _run("insert_slice_into_computed", "ins_ew", a, b)
    np.testing.assert_allclose(got, _inserted(np.exp(a), b, (1, 2)), rtol=1e-6)


def test_pad_fused_into_the_producing_elementwise_dispatch() -> None:
    (a,) = _inputs((4, 6))
    (got,) = _run("pad_of_elementwise", "pad_ew", a)
    expected = np.pad(np.exp(a), ((1, 2), (2, 1)), constant_values=np.float32(1.5))
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_concat_of_elementwise_results() -> None:
    a, b = _inputs((4, 6), (4, 3))
    (got,) = _run("concat_of_elementwise", "concat_ew", a, b)
    np.testing.assert_allclose(got, np.concatenate([np.exp(a), b + b], axis=1), rtol=1e-6)


def test_extract_slice_folded_into_the_consumer_load() -> None:
    (a,) = _inputs((8, 16))
    (got,) = _run("extract_slice_into_elementwise", "slice_ew", a)
    np.testing.assert_allclose(got, np.exp(a[2:6, 4:12]), rtol=1e-6)


# ---- contiguous slices and updates: flow.tensor.slice / update -> stream.cmd.copy ----------


def _run_slices(name: str, function: str, *args: np.ndarray, device: str = "local-sync"):
    source = (SLICE_PROGRAMS / f"{name}.mlir").read_text()
    result = getattr(ireelab.compile(source, device=device), function)(*args)
    return result if isinstance(result, tuple) else (result,)


def test_contiguous_outer_slice_and_insert_into_the_same_argument() -> None:
    a, b = _inputs((8, 16), (2, 16))
    before = a.copy()
    extracted, inserted = _run("slices_contiguous", "contig", a, b)
    np.testing.assert_array_equal(extracted, a[2:4])
    np.testing.assert_array_equal(inserted, _inserted(a, b, (5, 0)))
    np.testing.assert_array_equal(a, before)  # the update wrote into a copy


def test_contiguous_insert_into_an_argument_leaves_the_argument_unchanged() -> None:
    # IREE 3.13 writes this update into the imported buffer itself; ireelab copies it first
    a, b = _inputs((8, 16), (2, 16))
    before = a.copy()
    (got,) = _run_slices("insert_slice_into_argument", "ins", a, b)
    np.testing.assert_array_equal(got, _inserted(a, b, (3, 0)))
    np.testing.assert_array_equal(a, before)


def test_contiguous_insert_into_a_computed_tensor() -> None:
    a, b = _inputs((8, 16), (2, 16))
    (got,) = _run_slices("insert_rows_into_computed", "ins_c", a, b)
    np.testing.assert_allclose(got, _inserted(np.exp(a), b, (3, 0)), rtol=1e-6)
    np.testing.assert_array_equal(got[3:5], b)


def test_concat_of_two_on_the_outer_dim() -> None:
    a, b = _inputs((2, 4), (3, 4))
    (got,) = _run_slices("concat_outer_dim_2", "concat2", a, b)
    np.testing.assert_array_equal(got, np.concatenate([a, b]))


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_concat_of_three_on_the_outer_dim(device: str) -> None:
    # three copies into disjoint ranges of one result, concurrent on local-task
    a, b, c = _inputs((2, 4), (3, 4), (1, 4))
    module = ireelab.compile((PROGRAMS / "concat_outer_dim_3.mlir").read_text(), device=device)
    np.testing.assert_array_equal(module.concat0(a, b, c), np.concatenate([a, b, c]))


def test_concat_on_the_outer_dim_of_an_elementwise_result() -> None:
    # the dispatch writes straight into its rows of the result (EmplaceAllocations)
    a, b = _inputs((2, 4), (3, 4))
    (got,) = _run_slices("concat_outer_dim_of_elementwise", "concat_ew", a, b)
    np.testing.assert_allclose(got[:2], np.exp(a), rtol=1e-6)
    np.testing.assert_array_equal(got[2:], b)


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_a_slice_used_twice(device: str) -> None:
    (a,) = _inputs((8, 16))
    before = a.copy()
    sliced, updated = _run_slices("slice_used_twice", "twice", a, device=device)
    expected = a.copy()
    expected[0:2] = a[4:6]
    expected[6:8] = a[4:6]
    np.testing.assert_array_equal(sliced, a[4:6])
    np.testing.assert_array_equal(updated, expected)
    np.testing.assert_array_equal(a, before)


def test_a_slice_returned_and_read_by_a_dispatch() -> None:
    (a,) = _inputs((8, 16))
    sliced, exp = _run_slices("slice_returned_and_read_by_dispatch", "slice_ew", a)
    np.testing.assert_array_equal(sliced, a[2:4])
    np.testing.assert_allclose(exp, np.exp(a[2:4]), rtol=1e-6)


def test_a_slice_feeding_a_matmul() -> None:
    # as in IREE, the slice is folded into the dispatch's load of the whole argument
    a, b = _inputs((8, 16), (16, 4))
    (got,) = _run_slices("slice_folded_into_matmul", "slice_mm", a, b)
    np.testing.assert_allclose(got, a[2:4] @ b, rtol=1e-5, atol=1e-5)


def test_a_non_contiguous_rank_reducing_slice() -> None:
    (a,) = _inputs((3, 2, 2))
    (got,) = _run_slices("rank_reducing_strided_slice", "column", a)
    np.testing.assert_array_equal(got, a[:, :, 1])
