"""Host `scf.for` loops over tensors through Flow, Stream, HAL and the VM, as IREE runs them.

IREE keeps a loop whose body works on tensors on the host and forms dispatch regions in its
body: a slice at the induction variable becomes a load at that index inside the body's
dispatch (the index is its workload), an update at it a host `flow.tensor.update`. Stream
carries each tensor as a resource and its size through the loop, schedules the body's
work in its own execute regions, and turns the loop into blocks (`cf.br` / `cf.cond_br`);
HAL carries buffers through the blocks and the VM branches with block arguments (`vm.br`,
`vm.cond_br`). One module serves every trip count, 0 and 1 included.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAM = Path(__file__).parent / "programs" / "host_loop_rows.mlir"
SUM_ROWS = Path(__file__).parent / "programs" / "host_loop_sum_rows.mlir"
TRIP_COUNTS = [0, 1, 2, 5, 37]
RTOL, ATOL = 1e-6, 1e-6
"""float32 sums of up to 37 rows, added in the same order as numpy's `cumsum` of rows."""


def _loop_body(ir: str) -> str:
    return ir[ir.index("scf.for") : ir.index("scf.yield")]


def test_the_loop_body_forms_a_dispatch_at_the_induction_variable():
    ir = ireelab.compile(str(PROGRAM), compile_to="flow").ir()
    index = re.search(r"scf\.for (%\w+) = ", ir).group(1)
    body = _loop_body(ir)
    sites = re.findall(r"flow\.dispatch @\w+::@(\w+)\[([^\]]*)\]", body)
    assert sites == [("rows_dispatch_0_elementwise_4_f32", index)]
    # the row is written back on the host at the same index
    assert re.search(rf"flow\.tensor\.update %\w+, %\w+\[{index}, %c0\]", body)
    # the kernel reads row i of the input at its workload ordinal (iree-compile folds the
    # rank-reducing slice into the load; ireelab keeps it as a slice of the loaded rows)
    ordinal = re.search(r"(%\w+) = iree_tensor_ext\.dispatch\.workload\.ordinal", ir).group(1)
    assert re.search(rf"tensor\.extract_slice %\w+\[{ordinal}, 0\] \[1, 4\]", ir)


def _sum_rows_inputs(n: int, rng) -> tuple[np.ndarray, np.ndarray]:
    a = rng.standard_normal((n, 4)).astype(np.float32)
    return a, rng.standard_normal(4).astype(np.float32)


def _sum_rows_reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    acc = b.copy()
    for row in a:
        acc = acc + row
    return acc


def test_the_loop_writes_each_row_at_its_index():
    module = ireelab.compile(str(PROGRAM))
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 4)).astype(np.float32)
    b = rng.standard_normal(4).astype(np.float32)
    np.testing.assert_allclose(module.rows(a, b), a + b, rtol=RTOL, atol=ATOL)


def test_an_in_place_update_of_the_carried_tensor():
    # formerly tests/bad_inputs' unsupported_host_scf_for: the dispatch writes the carried
    # value's own storage, so each iteration copies it first (as IREE's copy-on-write)
    module = ireelab.compile(
        str(Path(__file__).parent / "programs" / "host_loop_add_in_place.mlir")
    )
    a = np.array([1.5, -2.0, 3.25, 0.0], np.float32)
    np.testing.assert_array_equal(module.f(a), a + a + a + a)
    np.testing.assert_array_equal(a, [1.5, -2.0, 3.25, 0.0])  # the argument is unchanged


def test_one_module_runs_every_trip_count():
    module = ireelab.compile(str(SUM_ROWS))
    rng = np.random.default_rng(1)
    for n in TRIP_COUNTS:
        a, b = _sum_rows_inputs(n, rng)
        got = module.sum_rows(a, b)
        want = _sum_rows_reference(a, b)
        np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL, err_msg=f"{n} trips")


def test_iterations_chain_on_fences_on_local_task():
    # local-task returns from each queue operation at once: iteration i+1's execution waits
    # on iteration i's fence, carried by the loop, and the host waits once after the loop
    module = ireelab.compile(str(SUM_ROWS))
    rng = np.random.default_rng(3)
    for n in TRIP_COUNTS:
        a, b = _sum_rows_inputs(n, rng)
        got = module.invoke("sum_rows", a, b, device="local-task")
        got = got[0] if isinstance(got, tuple) else got
        want = _sum_rows_reference(a, b)
        np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL, err_msg=f"{n} trips")


def test_the_loop_carries_a_timepoint_and_the_host_waits_after_it():
    ir = ireelab.compile(str(SUM_ROWS), compile_to="stream").ir()
    host = ir[ir.index("util.func public @sum_rows") :]
    header = re.search(r"\^bb1\(([^)]*)\)", host).group(1)
    assert header.endswith("!stream.timepoint"), header
    body = host[host.index("^bb2") : host.index("cf.br ^bb1", host.index("^bb2"))]
    assert "stream.timepoint.await" not in body
    exit_block = host[host.index("cf.br ^bb1", host.index("^bb2")) :]
    assert exit_block.count("stream.timepoint.await") == 1


def test_stream_turns_the_loop_into_blocks_carrying_resources():
    ir = ireelab.compile(str(SUM_ROWS), compile_to="stream").ir()
    host = ir[ir.index("util.func public @sum_rows") :]
    # the header block takes the induction variable and the carried resource
    header = re.search(r"\^bb1\(%\w+: index, %\w+: !stream\.resource<external>", host)
    assert header, host
    assert re.search(r"cf\.cond_br %\w+, \^bb2, \^bb\d", host)
    body = host[host.index("^bb2") : host.index("cf.br ^bb1", host.index("^bb2"))]
    # the body's work is one execution of the dispatch at the induction variable
    assert body.count("stream.cmd.execute") == 1
    assert body.count("stream.cmd.dispatch @sum_rows_dispatch_0") == 1
    assert "scf.for" not in host


def test_vm_branches_with_block_arguments():
    ir = ireelab.compile(str(SUM_ROWS), compile_to="vm").ir()
    host = ir[ir.index("vm.func private @sum_rows") : ir.index("vm.func private @__init")]
    assert re.search(r"vm\.br \^bb1\(%\w+, %\w+(, %\w+)* : i64, !vm\.ref<!hal\.buffer>", host)
    assert re.search(r"vm\.cond_br %\w+, \^bb2, \^bb\d", host)


@pytest.mark.iree
@pytest.mark.skipif(shutil.which("iree-compile") is None, reason="IREE not installed")
def test_flow_loop_matches_iree():
    import ireelab.iree

    theirs = ireelab.iree.compile(str(PROGRAM), compile_to="flow", trace=False).ir()
    ours = ireelab.compile(str(PROGRAM), compile_to="flow").ir()
    exports = r"flow\.executable\.export public @(\w+)"
    assert re.findall(exports, ours) == re.findall(exports, theirs)
    for host_op in ("flow.dispatch @", "flow.tensor.update", "flow.tensor.slice", "scf.for"):
        assert _loop_body(ours).count(host_op) == _loop_body(theirs).count(host_op), host_op


@pytest.mark.iree
@pytest.mark.skipif(shutil.which("iree-compile") is None, reason="IREE not installed")
def test_results_equal_iree_at_every_trip_count():
    import ireelab.iree

    ours = ireelab.compile(str(SUM_ROWS))
    theirs = ireelab.iree.compile(str(SUM_ROWS))
    rng = np.random.default_rng(2)
    for n in TRIP_COUNTS:
        a, b = _sum_rows_inputs(n, rng)
        np.testing.assert_allclose(
            ours.sum_rows(a, b), theirs.sum_rows(a, b), rtol=RTOL, atol=ATOL, err_msg=f"{n}"
        )


_BODY_OPS = {
    "stream": ("stream.cmd.execute", "stream.cmd.dispatch", "stream.timepoint.await"),
    "hal": ("hal.device.queue.execute", "hal.command_buffer.dispatch", "hal.fence.await"),
    "vm": ("@hal.device.queue.execute", "@hal.command_buffer.dispatch", "@hal.fence.await"),
}


def _host(ir: str, phase: str) -> str:
    if phase == "vm":
        start = ir.index("vm.func private @sum_rows")
        return ir[start : ir.index("vm.func", start + 10)]
    start = ir.index("util.func public @sum_rows")
    return ir[start : ir.index("\n  }", start)]


def _header_types(host: str) -> list[str]:
    """The loop header's argument types, without the byte size ireelab carries beside a
    resource whose size is loop-invariant (IREE's canonicalizer drops that argument)."""
    args = re.search(r"^\s*\^bb1\(([^)]*)\)", host, re.M).group(1)
    types = [a.split(":", 1)[1].strip() for a in args.split(", ")]
    return [t for i, t in enumerate(types) if not (i > 0 and t in ("index", "i64"))]


def _loop_blocks(host: str) -> str:
    """The loop body's blocks: from `^bb2` to the branch back to the header."""
    start = re.search(r"^\s*\^bb2", host, re.M).start()
    return host[start : host.index("br ^bb1(", start)]


@pytest.mark.iree
@pytest.mark.skipif(shutil.which("iree-compile") is None, reason="IREE not installed")
@pytest.mark.parametrize("phase", ["stream", "hal", "vm"])
def test_the_loop_has_iree_s_shape_at_each_phase(phase):
    import ireelab.iree

    ours = _host(ireelab.compile(str(SUM_ROWS), compile_to=phase).ir(), phase)
    theirs = _host(ireelab.iree.compile(str(SUM_ROWS), compile_to=phase, trace=False).ir(), phase)
    # the header carries the induction variable, the resource (buffer) and its timepoint
    # (fence) in both
    assert _header_types(ours) == _header_types(theirs)
    # one submission and one dispatch per iteration, and no host wait inside the loop
    for op in _BODY_OPS[phase]:
        assert _loop_blocks(ours).count(op) == _loop_blocks(theirs).count(op), op
