"""An ONNX loop (test_rnn_seq_length: an RNN over its sequence, ONNX's Scan-like recurrence
imported as a host `scf.for`) at the stream phase: ireelab's loop has the real IREE's shape -
one loop header carrying the induction variable, each resource with (after its byte size,
which IREE's canonicalizer drops when it is loop-invariant) its timepoint, the same number
of executions and dispatches, the same allocations per iteration (what the body yields, and
a transient it frees), and the host waiting once, after the loop."""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

import pytest
from frontend_support import needs, real_iree

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

NAME = "test_rnn_seq_length"


def _host(ir: str) -> str:
    return ir[ir.index("util.func public") :]


def _header(host: str) -> list[str]:
    args = re.search(r"^\s*\^bb1\(([^)]*)\)", host, re.M).group(1)
    types = [a.split(":", 1)[1].strip() for a in args.split(", ")]
    return [t for i, t in enumerate(types) if not (i > 0 and t == "index")]


@pytest.fixture(scope="module")
def input_program() -> str:
    import onnx_node_tests

    (test,) = onnx_node_tests.load_tests(1, {NAME})
    with tempfile.TemporaryDirectory() as folder:
        source, problem = onnx_node_tests.front_end(test.model, Path(folder))
    assert source is not None, problem
    return source


@needs("onnx", "iree.compiler")
@real_iree
def test_rnn_loop_has_iree_s_shape_at_stream(input_program):
    import ireelab
    import ireelab.iree

    ours = _host(ireelab.compile(input_program, compile_to="stream").ir())
    theirs = _host(ireelab.iree.compile(input_program, compile_to="stream", trace=False).ir())
    assert _header(ours) == _header(theirs)
    for op in ("cf.cond_br", "stream.cmd.execute", "stream.cmd.dispatch", "stream.timepoint.await"):
        assert ours.count(op) == theirs.count(op), op
    # allocation per iteration: the body allocates what it yields and a transient it frees
    for op in ("stream.resource.alloca", "stream.resource.dealloca", "<transient>"):
        assert _body(ours).count(op) == _body(theirs).count(op), op


def _body(host: str) -> str:
    start = re.search(r"^\s*\^bb2", host, re.M).start()
    return host[start : host.index("cf.br ^bb1(", start)]
