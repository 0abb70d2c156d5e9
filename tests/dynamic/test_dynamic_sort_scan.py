"""`iree_linalg_ext.sort` and `scan` on `?` sizes: one module at every size.

The loop lowerings (LinalgExtToLoopsPass) bound the sort's bubble passes and the scan's
running loop by the buffers' run-time extents (`memref.dim` of the push-constant dims), so
one compiled kernel serves every size. Checked against numpy at sizes 1, non-multiples and
larger, and against IREE (its `_D` export names, workload order and results) where installed.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAMS = Path(__file__).parent / "programs"
ROWS = [(1, 1), (3, 5), (7, 13), (64, 33), (70, 9)]
VECTORS = [1, 2, 7, 100, 131]
RTOL, ATOL = 1e-5, 1e-5
"""float32 running sums / products of up to 70 terms, summed in numpy's order (sequential
along the axis, as the scan's loop): equal up to rounding of the last bit."""

needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)


def _argsort(keys: np.ndarray, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(-keys, kind="stable")
    return keys[order], ids[order]


def _cumprod(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The exclusive scan, and the accumulator as IREE leaves it: the scan's last row (the
    last element is never combined in an exclusive scan)."""
    exclusive = np.concatenate([np.ones((1, a.shape[1]), a.dtype), np.cumprod(a, 0)[:-1]], 0)
    return exclusive, exclusive[-1]


def _inputs(name: str, size, rng) -> list[np.ndarray]:
    if name == "sort_pairs_dx":
        # ties among the keys: the sort keeps their positions in order (stable)
        keys = rng.integers(0, max(size // 2, 1), size).astype(np.float32)
        return [keys, np.arange(size, dtype=np.int32)]
    if name == "sort_dx":
        return [rng.standard_normal(size, dtype=np.float32)]
    if name == "scan_columns_exclusive_dxd":
        # factors near 1, so products of 70 of them stay in range
        return [rng.uniform(0.9, 1.1, size).astype(np.float32)]
    return [rng.standard_normal(size, dtype=np.float32)]


CASES = {
    "sort_dx": ("sorted", VECTORS, lambda a: np.sort(a)),
    "sort_rows_dxd": ("sorted", ROWS, lambda a: np.sort(a, axis=1)),
    "sort_pairs_dx": ("argsort", VECTORS, _argsort),
    "scan_rows_dxd": ("cumsum", ROWS, lambda a: np.cumsum(a, axis=1)),
    "scan_columns_exclusive_dxd": ("cumprod", ROWS, _cumprod),
}
EXPORTS = {
    "sort_dx": "sorted_dispatch_0_sort_Dxf32_dispatch_tensor_store",
    "sort_rows_dxd": "sorted_dispatch_0_sort_DxDxf32_dispatch_tensor_store",
    "sort_pairs_dx": "argsort_dispatch_0_sort_Dxf32",
    "scan_rows_dxd": "cumsum_dispatch_0_scan_DxDxf32_dispatch_tensor_store",
    "scan_columns_exclusive_dxd": "cumprod_dispatch_0_scan_DxDxf32",
}
"""The export names IREE 3.13 gives these dispatches."""


def _tuple(result) -> tuple[np.ndarray, ...]:
    return tuple(result) if isinstance(result, tuple | list) else (result,)


@pytest.fixture(scope="module")
def modules():
    return {name: ireelab.compile(str(PROGRAMS / f"{name}.mlir")) for name in CASES}


@pytest.mark.parametrize("name", sorted(CASES))
def test_one_module_every_size_matches_numpy(name, modules):
    function, sizes, reference = CASES[name]
    rng = np.random.default_rng(23)
    for size in sizes:
        args = _inputs(name, size, rng)
        got = _tuple(getattr(modules[name], function)(*args))
        for g, w in zip(got, _tuple(reference(*args)), strict=True):
            np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL, err_msg=f"size {size}")


@pytest.mark.parametrize("name", sorted(CASES))
def test_export_names_and_workloads(name):
    # IREE's `_D` names; the workload is the `?` dims in operand order, passed again as
    # the dispatch's index operands
    ir = ireelab.compile(str(PROGRAMS / f"{name}.mlir"), compile_to="flow").ir()
    site = re.search(r"flow\.dispatch @\w+::@(\w+)\[([^\]]*)\]\(([^)]*)\)", ir)
    assert site.group(1) == EXPORTS[name]
    workload = site.group(2).split(", ")
    assert site.group(3).split(", ")[-len(workload) :] == workload


def test_one_kernel_reads_its_extent_at_run_time():
    # the bubble passes are bounded by the buffer's dim, not by a number in the kernel
    ir = ireelab.compile(str(PROGRAMS / "sort_dx.mlir"), compile_to="executable-targets").ir()
    source = re.search(r'ireelab\.numba\.source = "(.*?)"', ir, re.S).group(1)
    assert ".shape[0]" in source


@pytest.mark.iree
@needs_iree
@pytest.mark.parametrize("name", sorted(CASES))
def test_names_workloads_and_results_match_iree(name, modules):
    import ireelab.iree

    path = PROGRAMS / f"{name}.mlir"
    iree_flow = ireelab.iree.compile(str(path), compile_to="flow", trace=False).ir()
    assert re.findall(r"flow\.executable\.export public @(\w+)", iree_flow) == [EXPORTS[name]]
    theirs = ireelab.iree.compile(path.read_text(), trace=False)
    function, sizes, _ = CASES[name]
    rng = np.random.default_rng(29)
    for size in sizes:
        args = _inputs(name, size, rng)
        if name == "sort_pairs_dx":
            # distinct keys: IREE's sort need not keep equal keys in order
            args[0] = rng.permutation(size).astype(np.float32)
        got = _tuple(getattr(modules[name], function)(*args))
        want = _tuple(getattr(theirs, function)(*args))
        for g, w in zip(got, want, strict=True):
            np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL, err_msg=f"size {size}")
