"""Sizes read from a tensor's contents at run time, as IREE carries them.

A `tensor.empty(%n)` whose `%n` comes from an element of an input (`tensor.extract`, ONNX's
one-hot depth, a split's sizes) is a host value: Flow makes the read a `flow.tensor.load`, the
host reads the element back once it exists, and the dispatch takes the size as its workload
(`iree-compile --compile-to=flow` prints the same). One compiled module serves every value.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAMS = Path(__file__).parent / "programs"
ROWS = [1, 3, 7, 70, 131]
"""Below, at and across the 64-row elementwise tile, most with a partial last tile."""


@pytest.fixture(scope="module")
def rows_module():
    return ireelab.compile(str(PROGRAMS / "rows_from_value.mlir"))


def _rows_reference(n: int, x: np.ndarray) -> np.ndarray:
    return np.arange(n, dtype=np.float32)[:, None] + x[None, :]


def test_rows_from_an_i64_value_at_every_size(rows_module):
    x = np.array([0.5, -1.0, 2.0, 3.25], np.float32)
    for n in ROWS:
        got = rows_module.iota(np.array(n, np.int64), x)
        assert got.shape == (n, 4)
        np.testing.assert_array_equal(got, _rows_reference(n, x))


def test_the_size_is_a_host_read_passed_as_workload():
    ir = ireelab.compile(str(PROGRAMS / "rows_from_value.mlir"), compile_to="flow").ir()
    load = re.search(r"(%\w+) = flow\.tensor\.load %\w+ : tensor<i64>", ir)
    assert load is not None
    size = re.search(rf"(%\w+) = arith\.index_cast {load.group(1)} : i64 to index", ir).group(1)
    dispatch = re.search(r"flow\.dispatch @\w+::@(\w+)\[(%\w+)\]\(([^)]*)\)", ir)
    assert dispatch.group(1) == "iota_dispatch_0_elementwise_broadcast_Dx4_f32"
    assert dispatch.group(2) == size
    # the kernel takes the size, not the tensor it was read from
    assert "tensor<i64>" not in dispatch.group(0)


def test_an_i64_element_read_on_the_host_keeps_all_64_bits():
    """The host reads an i64 as two 32-bit loads combined (IREE's HALToVM): a count of
    2**32 + n gives n rows only if the high word is read too."""
    module = ireelab.compile(str(PROGRAMS / "rows_from_wide_value.mlir"))
    x = np.array([0.5, -1.0, 2.0, 3.25], np.float32)
    for n in (1, 5):
        got = module.rows(np.array(2**32 + n, np.int64), x)
        np.testing.assert_array_equal(got, np.broadcast_to(x, (n, 4)))


def test_one_hot_depth_read_from_the_input():
    """ONNX's one-hot through IREE's importer: the depth (a float input) sizes an iota that
    the comparison reads; the result equals numpy's one-hot rows."""
    module = ireelab.compile(str(PROGRAMS / "one_hot_depth.mlir"))
    idx = np.array([0, 11, 5], np.int64)
    got = module.f(idx, np.array(12.0, np.float32))
    want = (idx[:, None] == np.arange(12)[None, :]).astype(np.int32)
    np.testing.assert_array_equal(got, want)


SPLITS = [(1, 1), (3, 5), (64, 65), (100, 200), (299, 1)]
"""(first, second) part sizes of a 300-element tensor: single elements, parts across the
64-element tile, and the whole tensor."""


@pytest.fixture(scope="module")
def split_module():
    return ireelab.compile(str(PROGRAMS / "split_by_counts.mlir"))


def test_split_at_counts_read_from_the_input(split_module):
    x = np.arange(300, dtype=np.float32) * np.float32(0.5)
    for first, second in SPLITS:
        a, b = split_module.split(x, np.array([first, second], np.int64))
        np.testing.assert_array_equal(a, x[:first])
        np.testing.assert_array_equal(b, x[first : first + second])


def test_split_parts_are_copy_dispatches_over_their_positions():
    """Each part is a `slow_memcpy` dispatch that binds the counts tensor and reads its offset
    and size from it in the kernel (IREE's ConvertTensorToFlow clones the `tensor.extract`s into
    the region); a size the host needs for the result (`{%n}`) is the workload. The kernel
    reads the binding at that offset (a load at run-time offsets, not a whole copy)."""
    path = str(PROGRAMS / "split_by_counts.mlir")
    ir = ireelab.compile(path, compile_to="flow").ir()
    sites = re.findall(r"flow\.dispatch @\w+::@(\w+)\[([^\]]*)\]", ir)
    assert [name for name, _ in sites] == [
        "split_dispatch_0_slow_memcpy",
        "split_dispatch_1_slow_memcpy",
    ]
    assert [len(workload.split(",")) for _, workload in sites] == [1, 1]
    assert re.search(r"dispatch\.tensor\.load %\w+, offsets = \[%\w+\], sizes = \[%\w+\]", ir)


def test_constant_operand_positions_are_static_slices():
    """`%a[%c2] [%c4] [1]` with constants: the canonicalizer writes 2 and 4 into the ops
    (MLIR's OpWithOffsetSizesAndStridesConstantArgumentFolder), then they are static slices."""
    path = str(PROGRAMS / "slice_constant_operand.mlir")
    ir = ireelab.compile(path, compile_to="input").ir()
    assert "tensor.extract_slice %a[2] [4] [1] : tensor<8xf32> to tensor<4xf32>" in ir
    assert "tensor.insert_slice %e into %a[4] [3] [1]" in ir
    a = np.linspace(-1, 1, 8, dtype=np.float32)
    b = np.array([0.5, 1.0, -1.0], np.float32)
    x, inserted = ireelab.compile(path).f(a, b)
    np.testing.assert_allclose(x, np.exp(a[2:6]), rtol=1e-6)
    want = a.copy()
    want[4:7] = np.exp(b)
    np.testing.assert_allclose(inserted, want, rtol=1e-6)


def test_a_slice_at_a_read_offset_fuses_into_its_consumer():
    """The slice is a load of the consumer's dispatch at the run-time offset, the 3x4 rows
    collapsed to 12 elements at offset `4 * i` (`elementwise_12_f32`, as iree-compile names
    it). The host reads the offset, as iree-compile's HoistUniformScalarComputePass has it,
    and passes `i` as the workload; the kernel linearizes it (`affine.linearize_index
    disjoint [%i, %c0] by (10, 4)`, as CollapseDimensionsPass leaves it)."""
    path = str(PROGRAMS / "rows_at_value_offset.mlir")
    ir = ireelab.compile(path, compile_to="flow").ir()
    assert re.search(r"flow\.tensor\.load %\w+ : tensor<i64>", ir)
    assert re.search(r"flow\.dispatch @\w+::@\w+\[%\w+\]", ir)
    assert re.findall(r"flow\.dispatch @\w+::@(\w+)", ir) == ["f_dispatch_0_elementwise_12_f32"]
    assert re.search(r"dispatch\.tensor\.load %\w+, offsets = \[%\w+\], sizes = \[12\]", ir)
    assert re.search(r"affine\.linearize_index disjoint \[%\w+, %\w+\] by \(10, 4\)", ir)
    module = ireelab.compile(path)
    a = np.linspace(-2, 2, 40, dtype=np.float32).reshape(10, 4)
    for i in (0, 3, 7):
        got = module.f(a, np.array(i, np.int64))
        np.testing.assert_allclose(got, np.exp(a[i : i + 3]), rtol=1e-6)


INSERTS = [(1, 0), (3, 5), (10, 0), (4, 6)]
"""(count, offset) of the part of a 10-element tensor written into another."""


def _insert_reference(x, d, count, offset):
    want = d.copy()
    want[offset : offset + count] = x[:count]
    return want


def test_insert_at_an_offset_read_from_the_input():
    module = ireelab.compile(str(PROGRAMS / "insert_at_read_offset.mlir"))
    x, d = np.arange(10, dtype=np.float32), np.full(10, -1.0, np.float32)
    for count, offset in INSERTS:
        got = module.f(x, d, np.array([count, offset], np.int64))
        np.testing.assert_array_equal(got, _insert_reference(x, d, count, offset))
    np.testing.assert_array_equal(d, np.full(10, -1.0, np.float32))  # the argument is intact


PADS = [(0, 0, 3, 7), (1, 2, 2, 5), (3, 7, 0, 0), (2, 3, 1, 4)]
"""(low0, low1, high0, high1) amounts that take a 3x5 tensor to 6x12."""


def _pad_reference(x: np.ndarray, pads, value: float) -> np.ndarray:
    lo0, lo1, hi0, hi1 = pads
    return np.pad(x, ((lo0, hi0), (lo1, hi1)), constant_values=value)


@pytest.fixture(scope="module")
def pad_module():
    return ireelab.compile(str(PROGRAMS / "pad_by_amounts.mlir"))


def test_pad_by_amounts_read_from_the_input(pad_module):
    x = np.arange(15, dtype=np.float32).reshape(3, 5) + np.float32(1)
    for pads in PADS:
        got = pad_module.pad(x, np.array(pads, np.int64), np.array(-2.5, np.float32))
        np.testing.assert_array_equal(got, _pad_reference(x, pads, -2.5))


def test_pad_is_a_splat_and_a_copy_at_run_time_offsets():
    ir = ireelab.compile(str(PROGRAMS / "pad_by_amounts.mlir"), compile_to="flow").ir()
    assert re.search(r"flow\.tensor\.splat %\w+ : tensor<6x12xf32>", ir)
    assert ir.count("flow.dispatch @") == 1
    assert "pad_dispatch_0_slow_memcpy" in ir
    store = r"dispatch\.tensor\.store %\w+, %\w+, offsets = \[%\w+, %\w+\], sizes = \[3, 5\]"
    assert re.search(store, ir)


# ---- against the real IREE -----------------------------------------------------------------

needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)


def _first(results):
    return results[0] if isinstance(results, tuple | list) and len(results) == 1 else results


@pytest.mark.iree
@needs_iree
def test_split_dispatches_and_results_match_iree(split_module):
    """Same export names and dispatch count as iree-compile. (IREE's second dispatch
    recomputes its offset from the counts tensor, which it binds; ireelab passes the offset
    the host computed as a second workload entry, as IREE does for ONNX's Split.)"""
    import ireelab.iree

    path = str(PROGRAMS / "split_by_counts.mlir")
    iree_ir = ireelab.iree.compile(path, compile_to="flow", trace=False).ir()
    ours = ireelab.compile(path, compile_to="flow").ir()
    exports = r"flow\.executable\.export public @(\w+)"
    assert re.findall(exports, ours) == re.findall(exports, iree_ir)
    assert ours.count("flow.dispatch @") == iree_ir.count("flow.dispatch @")
    iree_module = ireelab.iree.compile(path, trace=False)
    x = np.arange(300, dtype=np.float32) * np.float32(0.5)
    for first, second in SPLITS:
        counts = np.array([first, second], np.int64)
        want = iree_module.invoke_all("split", x, counts)
        got = split_module.split(x, counts)
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(g, w)


@pytest.mark.iree
@needs_iree
def test_insert_dispatches_match_iree():
    """One slow_memcpy dispatch, as iree-compile forms it. (IREE 3.13 then fails in its own
    codegen on this program, "failed to resolve workgroup count hint in terms of workload
    ordinals", so its results are checked against numpy only.)"""
    import ireelab.iree

    path = str(PROGRAMS / "insert_at_read_offset.mlir")
    iree_ir = ireelab.iree.compile(path, compile_to="flow", trace=False).ir()
    ours = ireelab.compile(path, compile_to="flow").ir()
    exports = r"flow\.executable\.export public @(\w+)"
    assert re.findall(exports, ours) == re.findall(exports, iree_ir) == ["f_dispatch_0_slow_memcpy"]


@pytest.mark.iree
@needs_iree
def test_pad_results_match_iree(pad_module):
    """One splat and one slow_memcpy dispatch, as iree-compile forms them (both compute the
    offsets inside the kernel from the pads tensor the dispatch binds)."""
    import ireelab.iree

    path = str(PROGRAMS / "pad_by_amounts.mlir")
    iree_ir = ireelab.iree.compile(path, compile_to="flow", trace=False).ir()
    ours = ireelab.compile(path, compile_to="flow").ir()
    exports = r"flow\.executable\.export public @(\w+)"
    assert re.findall(exports, ours) == re.findall(exports, iree_ir)
    assert ours.count("flow.tensor.splat") == iree_ir.count("flow.tensor.splat") == 1
    iree_module = ireelab.iree.compile(path, trace=False)
    x = np.arange(15, dtype=np.float32).reshape(3, 5) + np.float32(1)
    for pads in PADS:
        args = (x, np.array(pads, np.int64), np.array(-2.5, np.float32))
        want = _first(iree_module.invoke_all("pad", *args))
        np.testing.assert_array_equal(pad_module.pad(*args), want)


@pytest.mark.iree
@needs_iree
def test_dispatches_and_results_match_iree(rows_module):
    import ireelab.iree

    path = str(PROGRAMS / "rows_from_value.mlir")
    iree_ir = ireelab.iree.compile(path, compile_to="flow", trace=False).ir()
    ours = ireelab.compile(path, compile_to="flow").ir()
    exports = r"flow\.executable\.export public @(\w+)"
    assert re.findall(exports, ours) == re.findall(exports, iree_ir)
    iree_module = ireelab.iree.compile(path, trace=False)
    x = np.array([0.5, -1.0, 2.0, 3.25], np.float32)
    for n in ROWS:
        want = _first(iree_module.invoke_all("iota", np.array(n, np.int64), x))
        np.testing.assert_array_equal(rows_module.iota(np.array(n, np.int64), x), want)
