"""Issue 17: offsets and sizes given as scalar function arguments, as IREE compiles them.

`tensor.extract_slice %a[%i]`, `insert_slice ... [%i]`, `tensor.empty(%n)`, an
`expand_shape` to `[%r, 4]` and a `tensor.pad` by `%lo` / `%hi`, with `%i` an `index`
argument or an `i32` / `i64` one through `arith.index_cast`: iree-compile keeps the scalar
a host value (a VM register; an `index` argument is an i64 one) and hands it to the
dispatch as a workload operand (`flow.dispatch @..[%i](%a, %i)`, a push constant in the
kernel), or to a host `flow.tensor.update` / `splat` / `reshape`. ireelab's input stage
takes such arguments as host sizes like shapes and read-back elements; the later stages
already carry those. Each function runs at several offsets and sizes (0 and 1 included)
against numpy (exact, or float32 `exp` at 1e-6) and the real IREE.

Out-of-range offsets are undefined in IREE (no bounds check: a read past the end returns
neighbouring memory, a negative insert offset crashed the process in IREE 3.13), so
they are not compared; ireelab's kernels refuse an insert out of range with a
DispatchError instead of writing outside the buffer.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import ireelab
from ireelab.runtime.errors import DispatchError

PROGRAM = Path(__file__).parent / "programs" / "scalar_argument_sizes.mlir"
RTOL = ATOL = 1e-6
A8 = np.arange(8, dtype=np.float32) / 4
A65 = np.arange(30, dtype=np.float32).reshape(6, 5)
A11 = np.linspace(-1, 1, 11).astype(np.float32)
B4 = np.array([0, 1, 2, -1], np.float32)


def _insert_reference(i: int) -> np.ndarray:
    out = A8.copy()
    out[i : i + 4] = np.exp(B4)
    return out + out


def _pad_reference(lo: int, hi: int) -> np.ndarray:
    return np.pad(np.arange(4, dtype=np.float32), (lo, hi), constant_values=-1.0)


CASES = [
    *[(f"slice_at {i}", "slice_at", (A8, np.int64(i)), np.exp(A8[i : i + 4])) for i in range(5)],
    *[
        (f"slice_at_index {r},{c}", "slice_at_index", (A65, r, c), 2 * A65[r : r + 2, c : c + 3])
        for r, c in [(0, 0), (4, 2), (2, 1)]
    ],
    *[
        (f"window {o},{n}", "window", (A11, np.int32(o), np.int32(n)), np.exp(A11[o : o + n]))
        for o, n in [(0, 11), (3, 5), (10, 1), (4, 0)]
    ],
    *[
        (f"filled {n}", "filled", (n, np.float32(2.5)), np.full(n, 2.5, np.float32))
        for n in (0, 1, 7)
    ],
    *[
        (
            f"filled_rows {n}",
            "filled_rows",
            (np.int64(n), np.float32(-1)),
            np.full((n + 1, 3), -1, np.float32),
        )
        for n in (0, 1, 7)
    ],
    *[(f"insert_at {i}", "insert_at", (A8, B4, i), _insert_reference(i)) for i in range(5)],
    *[(f"plus_two {n}", "plus_two", (n,), np.int64(n + 2)) for n in (0, 5, -3)],
    *[
        (
            f"rows_of {r}",
            "rows_of",
            (np.arange(4 * r, dtype=np.float32), np.int64(r)),
            np.square(np.arange(4 * r, dtype=np.float32)).reshape(r, 4),
        )
        for r in (0, 1, 3)
    ],
    *[
        (
            f"padded {lo},{hi}",
            "padded",
            (np.arange(4, dtype=np.float32), lo, np.int64(hi)),
            _pad_reference(lo, hi),
        )
        for lo, hi in [(0, 0), (1, 0), (2, 3)]
    ],
]


@pytest.fixture(scope="module")
def ours():
    return ireelab.compile(str(PROGRAM))


def test_every_offset_and_size_equals_numpy(ours):
    for label, name, args, want in CASES:
        got = ours.invoke(name, *args)
        assert got.shape == want.shape, label
        np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL, err_msg=label)


def test_an_insert_out_of_range_is_a_dispatch_error(ours):
    for i in (5, -1):
        with pytest.raises(DispatchError):
            ours.insert_at(A8, B4, i)


def test_the_offset_is_the_dispatch_s_workload():
    ir = ireelab.compile(str(PROGRAM), compile_to="flow").ir()
    at = re.search(r"(%\w+) = arith\.index_cast %arg1 : i64 to index", ir).group(1)
    assert re.search(rf"flow\.dispatch @slice_at_dispatch_0::@\w+\[{at}\]\(%\w+, {at}\)", ir)


_SITES = r"flow\.dispatch @\w+::@(\w+)(\[[^\]]*\])?|(flow\.tensor\.\w+)"


def _sites(ir: str) -> list[tuple[str, int]]:
    """Each host op that places work: a dispatch by export name and workload count, or a
    host `flow.tensor.*` op."""
    return [(m[1] or m[3], m[2].count(",") + 1 if m[2] else 0) for m in re.finditer(_SITES, ir)]


@pytest.mark.iree
@pytest.mark.skipif(shutil.which("iree-compile") is None, reason="IREE not installed")
def test_flow_equals_iree_s():
    import ireelab.iree

    ours = ireelab.compile(str(PROGRAM), compile_to="flow").ir()
    theirs = ireelab.iree.compile(str(PROGRAM), compile_to="flow", trace=False).ir()
    assert _sites(ours) == _sites(theirs)


def _push_constants(ir: str) -> dict[str, int]:
    """Per dispatch function, how many `hal.interface.constant.load`s its body has."""
    counts = {}
    for m in re.finditer(r"func\.func @(\w+_dispatch_\d+\w*)\(", ir):
        body = ir[m.end() : ir.find("\n      }\n", m.end())]
        counts[m[1]] = body.count("hal.interface.constant.load")
    return counts


@pytest.mark.iree
@pytest.mark.skipif(shutil.which("iree-compile") is None, reason="IREE not installed")
def test_offsets_reach_kernels_as_iree_s_push_constants():
    import ireelab.iree

    # an index offset or size is two i32 push constants (IREE packs an i64 as lo, hi)
    ours = _push_constants(ireelab.compile(str(PROGRAM), compile_to="executable-sources").ir())
    theirs = ireelab.iree.compile(str(PROGRAM), compile_to="executable-sources", trace=False)
    assert ours["slice_at_index_dispatch_0_elementwise_2x3_f32"] == 4
    assert ours == _push_constants(theirs.ir())


@pytest.mark.iree
@pytest.mark.skipif(shutil.which("iree-compile") is None, reason="IREE not installed")
def test_results_equal_iree_s(ours):
    import ireelab.iree

    theirs = ireelab.iree.compile(str(PROGRAM), device="local-sync")
    for label, name, args, _ in CASES:
        mine, real = ours.invoke(name, *args), theirs.invoke(name, *args)
        np.testing.assert_allclose(mine, real, rtol=RTOL, atol=ATOL, err_msg=label)


def test_run_module_takes_index_inputs_as_iree_run_module_does(ours, tmp_path, capsys):
    from ireelab.tools import run_module

    path = tmp_path / "m.vmfb"
    ours.save(str(path))
    values = ",".join(str(v) for v in range(30))
    args = [f"--module={path}", "--input=3", "--input=2.5"]
    assert run_module.main([*args[:1], "--function=filled", *args[1:]]) == 0
    table = [f"--input=6x5xf32={values}", "--input=4", "--input=2"]
    assert run_module.main([*args[:1], "--function=slice_at_index", *table]) == 0
    assert run_module.main([*args[:1], "--function=plus_two", "--input=5"]) == 0
    # the text iree-run-module 3.13 prints for the same calls (an index result as i64)
    assert capsys.readouterr().out == (
        "EXEC @filled\nresult[0]: hal.buffer_view\n3xf32=2.5 2.5 2.5\n"
        "EXEC @slice_at_index\nresult[0]: hal.buffer_view\n2x3xf32=[44 46 48][54 56 58]\n"
        "EXEC @plus_two\nresult[0]: i64=7\n"
    )
