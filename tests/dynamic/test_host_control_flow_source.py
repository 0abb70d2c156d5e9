"""Host `scf.if` / `scf.while` on tensors from the source through ireelab's whole pipeline.

As iree-compile does, Flow keeps the control flow on the host and forms dispatch regions in
each of its regions: one per branch of an `scf.if`, in a while's `before` region (a reduction
whose value the host reads back with `flow.tensor.load` for the condition) and in its body;
a tensor computed before an `scf.if` keeps its own dispatch there and the branches read it.
The flow IR is checked against the real IREE's dispatch sites, and the modules' results
against numpy and the real IREE's, for both branches and 0, 1 and several iterations.
Unlike IREE, whose canonicalizer rotates a `scf.while` into an `scf.if` around a do-while
(the condition's dispatch is then duplicated before the loop), ireelab keeps the loop as
written; both compute the same values.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAMS = Path(__file__).parent / "programs"
SIMPLE = PROGRAMS / "host_if_while.mlir"
FUSED = PROGRAMS / "host_if_while_fused.mlir"

needs_iree = [
    pytest.mark.iree,
    pytest.mark.skipif(shutil.which("iree-compile") is None, reason="IREE not installed"),
]


@pytest.fixture(scope="module")
def ours():
    return {p.name: ireelab.compile(str(p)) for p in (SIMPLE, FUSED)}


def _host(ir: str, name: str) -> str:
    """The host function `name` of a flow-phase module."""
    start = ir.index(f"util.func public @{name}(")
    return ir[start : ir.index("\n  }\n", start)]


def _sites(host: str) -> list[str]:
    """Each host op that matters to the placement, in order: dispatches by export, loads,
    and the control flow ops."""
    ops = re.findall(r"flow\.dispatch @\w+::@(\w+)|(flow\.tensor\.load)|(scf\.\w+)", host)
    return [next(x for x in op if x) for op in ops]


def test_flow_keeps_the_if_and_while_on_the_host():
    ir = ireelab.compile(str(SIMPLE), compile_to="flow").ir()
    assert _sites(_host(ir, "pick")) == [
        "flow.tensor.load",
        "scf.if",
        "pick_dispatch_0_elementwise_4_f32",
        "scf.yield",
        "pick_dispatch_1_elementwise_4_f32",
        "scf.yield",
    ]
    assert _sites(_host(ir, "double_until")) == [
        "flow.tensor.load",
        "scf.while",
        "flow.tensor.load",
        "scf.condition",
        "double_until_dispatch_0_elementwise_4_f32",
        "scf.yield",
    ]
    for name in ("pick", "double_until"):  # no tensor math left on the host
        assert not re.search(r"arith\.(add|sub)f|linalg\.", _host(ir, name))


def test_while_condition_computes_a_reduction_dispatch():
    ir = ireelab.compile(str(FUSED), compile_to="flow").ir()
    assert _sites(_host(ir, "halve_while_big")) == [
        "flow.tensor.load",
        "scf.while",
        "halve_while_big_dispatch_0_reduction_4_f32",
        "flow.tensor.load",
        "scf.condition",
        "halve_while_big_dispatch_1_elementwise_4_f32",
        "scf.yield",
    ]


@pytest.mark.parametrize("program, name", [(SIMPLE, "pick"), (FUSED, "shift")])
@pytest.mark.iree
@pytest.mark.skipif(shutil.which("iree-compile") is None, reason="IREE not installed")
def test_if_dispatch_sites_equal_iree(program, name):
    import ireelab.iree

    ours = _sites(_host(ireelab.compile(str(program), compile_to="flow").ir(), name))
    theirs = ireelab.iree.compile(str(program), compile_to="flow", trace=False).ir()
    assert ours == _sites(_host(theirs, name))


@pytest.mark.iree
@pytest.mark.skipif(shutil.which("iree-compile") is None, reason="IREE not installed")
def test_results_equal_numpy_and_iree(ours):
    import ireelab.iree

    theirs = {p.name: ireelab.iree.compile(str(p)) for p in (SIMPLE, FUSED)}
    rng = np.random.default_rng(1)
    a, b = (rng.standard_normal(4).astype(np.float32) for _ in range(2))
    for flag in (1, 0, -3, 5):
        f = np.array(flag, np.int32)
        for key, fn, want in (
            (SIMPLE.name, "pick", a + b if flag else a - b),
            (FUSED.name, "shift", a * b + a if flag > 0 else a * b - b),
        ):
            got = getattr(ours[key], fn)(f, a, b)
            np.testing.assert_array_equal(got, want)
            np.testing.assert_array_equal(got, getattr(theirs[key], fn)(f, a, b))
    x = np.array([1.5, -2.0, 3.0, 0.25], np.float32)
    # sum |x| = 6.75: halved 3, 2, 0 and 1 times before it is at most the limit
    for limit, doublings, halvings in ((1.0, 0, 3), (2.0, 1, 2), (100.0, 7, 0), (4.0, 2, 1)):
        lim = np.array(limit, np.float32)
        got = ours[SIMPLE.name].double_until(x, lim)
        np.testing.assert_array_equal(got, x * np.float32(2**doublings))
        np.testing.assert_array_equal(got, theirs[SIMPLE.name].double_until(x, lim))
        got = ours[FUSED.name].halve_while_big(x, lim)
        np.testing.assert_array_equal(got, x * np.float32(0.5**halvings))
        np.testing.assert_array_equal(got, theirs[FUSED.name].halve_while_big(x, lim))


def _stream_blocks(ir: str, name: str) -> tuple[list[list[str]], int]:
    """A host function's block headers by argument type (sizes left out: IREE folds the
    constant ones) and its number of host awaits, at the stream phase."""
    start = ir.index(f"util.func public @{name}(")
    host = ir[start : ir.index("\n  }\n", start)]
    headers = re.findall(r"^\s*\^bb\d+\(([^)]*)\):", host, re.M)
    types = [[t for t in re.findall(r": (![\w.]+)", h)] for h in headers]
    return types, host.count("stream.timepoint.await")


def test_timepoints_cross_the_branches_and_the_loop():
    # PropagateTimepoints through scf.if / scf.while: each branch passes its result's
    # timepoint to the join block and the loop header carries one, so the host waits only
    # where it reads a value (the flag, the limit, the loop test) and after the control flow
    ir = ireelab.compile(str(SIMPLE), compile_to="stream").ir()
    assert _stream_blocks(ir, "pick") == ([["!stream.resource", "!stream.timepoint"]], 2)
    loop_types = ["!stream.resource", "!stream.timepoint"]
    assert _stream_blocks(ir, "double_until") == ([loop_types] * 3, 3)
    body = ir[ir.index("util.func public @pick(") :]
    for branch in re.findall(r"\^bb[12]:\n(.*?)cf\.br", body, re.S):
        assert "stream.timepoint.await" not in branch  # the branches do not block the host


@pytest.mark.iree
@pytest.mark.skipif(shutil.which("iree-compile") is None, reason="IREE not installed")
def test_timepoints_through_the_branches_as_iree_compile():
    import subprocess

    out = subprocess.run(
        ["iree-compile", str(SIMPLE), "--iree-hal-target-backends=llvm-cpu", "--compile-to=stream"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    ours = ireelab.compile(str(SIMPLE), compile_to="stream").ir()
    assert _stream_blocks(ours, "pick") == _stream_blocks(out.stdout, "pick")
    # IREE rotates the while into a do-while guarded by an if (see above): its header
    # carries the same resource and timepoint, and it awaits as often
    theirs_types, theirs_awaits = _stream_blocks(out.stdout, "double_until")
    ours_types, ours_awaits = _stream_blocks(ours, "double_until")
    assert ["!stream.resource", "!stream.timepoint"] in theirs_types
    assert set(map(tuple, ours_types)) == set(map(tuple, theirs_types)) - {()}
    assert ours_awaits == theirs_awaits
