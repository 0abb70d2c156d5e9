"""`?` concats and slices of `?`-shaped tensors at positions the host computes from shapes.

An outer-dimension concat or a slice that is one contiguous run of rows stays on the host
(`flow.tensor.empty` / `.slice` / `.update` with their dims, then `stream.cmd.copy` at byte
offsets the host computes); an inner-dimension concat or a column slice is a copy dispatch
(`slow_memcpy`) whose workload carries its offset and sizes. One compiled module serves
every size; results are compared with numpy (exact: these programs only move elements, or
apply `exp`, checked at a float32 tolerance) and with the real IREE where it is installed,
as are the host ops and dispatch names `iree-compile --compile-to=flow` prints.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAMS = Path(__file__).parent / "programs"
SIZES = [(1, 1), (1, 5), (3, 64), (65, 7), (130, 131)]
"""(first, second) run-time extents: ones, across the 64-wide copy and elementwise tiles,
most not multiples of anything."""


def _concat_rows(rng, n, m):
    a = rng.standard_normal((n, 4), dtype=np.float32)
    b = rng.standard_normal((m, 4), dtype=np.float32)
    return [a, b], [np.concatenate([a, b])]


def _concat_cols(rng, n, m):
    a = rng.standard_normal((4, n), dtype=np.float32)
    b = rng.standard_normal((4, 2), dtype=np.float32)
    c = rng.standard_normal((4, m), dtype=np.float32)
    return [a, b, c], [np.concatenate([a, b, c], axis=1)]


def _parts(rng, n, _m):
    a = rng.standard_normal((n, 4), dtype=np.float32)
    row = rng.standard_normal((1, 4), dtype=np.float32)
    last = a.copy()
    last[-1] = row[0]
    return [a, row], [a[1:], a[:, 1:3], last]


def _tail_exp(rng, n, _m):
    a = rng.standard_normal((n, 4), dtype=np.float32)
    return [a], [np.exp(a[1:])]


def _at_other_shape(rng, n, _m):
    a = rng.standard_normal(8, dtype=np.float32)
    offset = n % 7  # the slice's offset is the second argument's length: 0 to 6
    return [a, np.zeros(offset, np.float32)], [a[offset : offset + 2]]


def _at_read_offsets(rng, n, m):
    a = rng.standard_normal((n + 1, 4), dtype=np.float32)
    row = rng.standard_normal((1, 4), dtype=np.float32)
    i, j = (n + m) % n, m % (n + 1)  # rows 0..n-1 (two rows from i fit), 0..n
    replaced = a.copy()
    replaced[j] = row[0]
    return [a, np.array([i, j], np.int64), row], [a[i : i + 2], replaced, a[i:, 1:3]]


CASES = {
    "concat_rows_dx4": ("cat", _concat_rows),
    "concat_cols_4xd": ("cat", _concat_cols),
    "concat_chain_rows": ("stack", _concat_rows),
    "slices_of_dx4": ("parts", _parts),
    "slice_rows_exp": ("tail_exp", _tail_exp),
    "slice_at_other_shape": ("f", _at_other_shape),
    "slices_at_read_offsets_dx4": ("f", _at_read_offsets),
}
RTOL = 1e-6
"""`exp` in float32 (numba's libm against numpy's); the others move elements exactly."""


@pytest.fixture(scope="module")
def modules():
    return {name: ireelab.compile(str(PROGRAMS / f"{name}.mlir")) for name in CASES}


@pytest.mark.parametrize("name", sorted(CASES))
def test_one_module_at_every_size_equals_numpy(name, modules):
    function, make = CASES[name]
    rng = np.random.default_rng(17)
    for n, m in SIZES:
        args, want = make(rng, n, m)
        got = getattr(modules[name], function)(*args)
        got = got if isinstance(got, tuple) else (got,)
        assert len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            assert g.shape == w.shape, f"sizes {(n, m)}"
            np.testing.assert_allclose(g, w, rtol=RTOL, atol=0, err_msg=f"sizes {(n, m)}")


def _flow(name: str) -> str:
    return ireelab.compile(str(PROGRAMS / f"{name}.mlir"), compile_to="flow").ir()


def test_outer_concat_is_host_updates_at_the_running_row_count():
    ir = _flow("concat_rows_dx4")
    assert "flow.dispatch @" not in ir
    n = re.search(r"(%\w+) = hal\.buffer_view\.dim<%arg0 : !hal\.buffer_view>\[0\]", ir).group(1)
    m = re.search(r"(%\w+) = hal\.buffer_view\.dim<%arg1 : !hal\.buffer_view>\[0\]", ir).group(1)
    total = re.search(rf"(%\w+) = arith\.addi {n}, {m} : index", ir).group(1)
    assert re.search(rf"flow\.tensor\.empty : tensor<\?x4xf32>\{{{total}\}}", ir)
    # the second input goes at row n of the result
    assert re.search(
        rf"flow\.tensor\.update %\w+, %\w+\[{n}, %c0\] : tensor<\?x4xf32>\{{{m}\}}", ir
    )


def test_inner_concat_copies_take_offset_and_sizes_as_workload():
    ir = _flow("concat_cols_4xd")
    sites = re.findall(r"flow\.dispatch @\w+::@(\w+)\[([^\]]*)\]", ir)
    assert [s for s, _ in sites] == [f"cat_dispatch_{i}_slow_memcpy" for i in range(3)]
    # the third input goes at column n + 2: its workload is (offset, its width, the total)
    n = re.search(r"(%\w+) = hal\.buffer_view\.dim<%arg0 : !hal\.buffer_view>\[1\]", ir).group(1)
    offset = sites[2][1].split(", ")[0]
    assert re.search(rf"{offset} = arith\.addi {n}, %c2\w* : index", ir)


def test_slices_by_shape_are_one_host_slice_one_copy_and_one_update():
    ir = _flow("slices_of_dx4")
    assert len(re.findall(r"flow\.tensor\.slice %\w+\[%c1, %c0 for %\w+, %c4\]", ir)) == 1
    assert re.findall(r"flow\.dispatch @\w+::@(\w+)", ir) == ["parts_dispatch_0_slow_memcpy"]
    assert len(re.findall(r"flow\.tensor\.update %\w+, %\w+\[%\w+, %c0\]", ir)) == 1


def test_host_copies_at_run_time_byte_offsets():
    """The stream stage copies the second input of a `?x4xf32` concat to byte `n * 16`,
    the same host value as the first input's byte size."""
    ir = ireelab.compile(str(PROGRAMS / "concat_rows_dx4.mlir"), compile_to="stream").ir()
    copies = re.findall(r"stream\.cmd\.copy %\w+\[(%\w+)\], %\w+\[(%\w+)\], (%\w+)", ir)
    assert len(copies) == 2
    assert copies[1][1] == copies[0][2]  # the second lands where the first one ends
    # ... so the two copies touch adjacent bytes and run in one concurrent wave, as in IREE
    (region,) = re.findall(r"stream\.cmd\.concurrent \{(.*?)\n\s*\}", ir, re.S)
    assert region.count("stream.cmd.copy") == 2


# ---- against the real IREE -----------------------------------------------------------------

needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)
HOST_OPS = ("flow.dispatch @", "flow.tensor.empty", "flow.tensor.slice", "flow.tensor.update")


def _exports(ir: str) -> list[str]:
    return re.findall(r"flow\.executable\.export public @(\w+)", ir)


@pytest.mark.iree
@needs_iree
@pytest.mark.parametrize(
    "name",
    [
        "concat_rows_dx4",
        "concat_cols_4xd",
        "concat_chain_rows",
        "slices_of_dx4",
        "slice_at_other_shape",
        "slice_rows_exp",
        "slices_at_read_offsets_dx4",
    ],
)
def test_dispatch_sites_names_and_host_ops_match_iree(name):
    import ireelab.iree

    path = PROGRAMS / f"{name}.mlir"
    theirs = ireelab.iree.compile(str(path), compile_to="flow", trace=False).ir()
    ours = _flow(name)
    assert _exports(ours) == _exports(theirs)
    for host_op in HOST_OPS:
        assert ours.count(host_op) == theirs.count(host_op), host_op


STREAM_OPS = (
    "stream.cmd.execute",
    "stream.cmd.concurrent",
    "stream.cmd.copy",
    "stream.cmd.dispatch",
)


@pytest.mark.iree
@needs_iree
@pytest.mark.parametrize("name", ["concat_rows_dx4", "concat_chain_rows", "concat_cols_4xd"])
def test_stream_schedules_match_iree(name):
    """The execution regions, their concurrent waves and the copies in them, as
    iree-compile --compile-to=stream prints them."""
    import ireelab.iree

    path = str(PROGRAMS / f"{name}.mlir")
    theirs = ireelab.iree.compile(path, compile_to="stream", trace=False).ir()
    ours = ireelab.compile(path, compile_to="stream").ir()
    for stream_op in STREAM_OPS:
        assert ours.count(stream_op) == theirs.count(stream_op), stream_op


@pytest.mark.iree
@needs_iree
@pytest.mark.parametrize("name", sorted(CASES))
def test_results_equal_iree_at_several_sizes(name, modules):
    import ireelab.iree

    function, make = CASES[name]
    theirs = ireelab.iree.compile((PROGRAMS / f"{name}.mlir").read_text())
    rng = np.random.default_rng(23)
    for n, m in SIZES:
        args, _ = make(rng, n, m)
        got = getattr(modules[name], function)(*args)
        want = getattr(theirs, function)(*args)
        got, want = (x if isinstance(x, tuple) else (x,) for x in (got, want))
        for g, w in zip(got, want, strict=True):
            np.testing.assert_allclose(g, w, rtol=RTOL, atol=0, err_msg=f"sizes {(n, m)}")


def test_a_window_of_a_dynamic_tensor_at_constant_offsets_at_several_sizes() -> None:
    """A contiguous slice of a `?`-sized tensor at constant offsets (refused at Stream until
    run-time slice positions were carried): one module, right at every size that holds it."""
    module = ireelab.compile(
        """func.func @f(%a: tensor<?xf32>) -> tensor<4xf32> {
  %s = tensor.extract_slice %a[2] [4] [1] : tensor<?xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}"""
    )
    for n in (6, 9, 130):
        a = np.arange(n, dtype=np.float32) * 0.5
        np.testing.assert_array_equal(module.f(a), a[2:6])
