"""A host `scf.for` carrying a `?`-sized tensor whose sizes the loop keeps, as IREE runs it.

MLIR's `DimOfIterArgFolder` (an `scf.for` canonicalization IREE runs) makes the carried
tensor's sizes its init's when what the body yields has the iter_arg's sizes, so Flow forms
the body's dispatch with the init's size as workload (`tensor<?xf32>{%d}`, `%d` defined
before the loop) and Stream carries the tensor as a resource and its byte size, as
iree-compile prints them. One module serves every length and trip count (0 included).
A loop whose carried sizes change per iteration stays refused at input
(tests/bad_inputs/compile/unsupported_host_scf_for_dynamic.mlir; IREE 3.13 returns an
empty tensor for it).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAM = Path(__file__).parent / "programs" / "host_loop_dynamic_carried.mlir"
NESTED = Path(__file__).parent / "programs" / "host_loop_dynamic_nested.mlir"
RUNS = [(0, 3), (1, 0), (1, 1), (7, 2), (33, 5), (100, 9)]
"""(length of %a, trip count)."""
RTOL, ATOL = 1e-5, 1e-5
"""2 * acc - a in float32, up to 9 times: rounding grows by about 2x per step."""

needs_iree = pytest.mark.skipif(shutil.which("iree-compile") is None, reason="IREE not installed")


def _inputs(n: int, k: int, rng) -> tuple[np.ndarray, np.ndarray]:
    return rng.standard_normal(n).astype(np.float32), np.zeros(k, np.float32)


def _reference(a: np.ndarray, k: np.ndarray) -> np.ndarray:
    acc = a.copy()
    for _ in k:
        acc = (acc + acc) - a
    return acc


@pytest.fixture(scope="module")
def module():
    return ireelab.compile(str(PROGRAM))


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_one_module_serves_every_length_and_trip_count(module, device):
    rng = np.random.default_rng(0)
    for n, k in RUNS:
        a, trips = _inputs(n, k, rng)
        got = module.invoke("carried", a, trips, device=device)
        want = _reference(a, trips)
        np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL, err_msg=f"{n}, {k} trips")


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_nested_loops_keeping_the_sizes_equal_numpy(device):
    # IREE 3.13 does not compile this one (it stops at Flow): numpy only
    module = ireelab.compile(str(NESTED))
    rng = np.random.default_rng(2)
    for n, k in RUNS:
        a = rng.standard_normal((n, 4)).astype(np.float32)
        trips = np.zeros(k, np.float32)
        want = a.copy()
        for _ in range(2 * k):
            want = want + a
        got = module.invoke("nested", a, trips, device=device)
        np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL, err_msg=f"{n}, {k} trips")


def _host(ir: str) -> str:
    start = ir.index("util.func public @carried(")
    return ir[start : ir.index("\n  }\n", start)]


def _flow_loop(ir: str) -> tuple[str, list[str]]:
    """The loop body's dispatch (export and workload as the init's dim) and the result's
    export dims."""
    host = _host(ir)
    dim = re.search(r"(%\w+) = hal\.buffer_view\.dim<%arg0", host).group(1)
    site = re.search(r"flow\.dispatch @\w+::@(\w+)\[([^\]]*)\]", host)
    assert site.group(2) == dim, host
    exported = re.findall(r"hal\.tensor\.export %\w+ \"output0\" : tensor<\?xf32>\{(%\w+)\}", host)
    return site.group(1), [e == dim for e in exported]


def test_flow_sizes_the_body_by_the_init():
    export, exported = _flow_loop(ireelab.compile(str(PROGRAM), compile_to="flow").ir())
    assert export == "carried_dispatch_0_elementwise_D_f32"
    assert exported == [True]  # the loop's result has the init's size


def _header_types(host: str) -> list[str]:
    """The loop header's argument types, without the byte size ireelab carries beside a
    resource (IREE's canonicalizer drops it when it is loop-invariant)."""
    args = re.search(r"^\s*\^bb1\(([^)]*)\)", host, re.M).group(1)
    types = [a.split(":", 1)[1].strip() for a in args.split(", ")]
    return [t for i, t in enumerate(types) if not (i > 0 and t == "index")]


@pytest.mark.iree
@needs_iree
def test_flow_and_stream_equal_iree_s():
    import ireelab.iree

    theirs = ireelab.iree.compile(str(PROGRAM), compile_to="flow", trace=False).ir()
    ours = ireelab.compile(str(PROGRAM), compile_to="flow").ir()
    assert _flow_loop(ours) == _flow_loop(theirs)
    theirs = _host(ireelab.iree.compile(str(PROGRAM), compile_to="stream", trace=False).ir())
    ours = _host(ireelab.compile(str(PROGRAM), compile_to="stream").ir())
    # index, the carried resource, its timepoint
    assert _header_types(ours) == _header_types(theirs)


@pytest.mark.iree
@needs_iree
def test_results_equal_iree(module):
    import ireelab.iree

    theirs = ireelab.iree.compile(str(PROGRAM))
    rng = np.random.default_rng(1)
    for n, k in RUNS:
        a, trips = _inputs(n, k, rng)
        np.testing.assert_allclose(
            module.carried(a, trips), theirs.carried(a, trips), rtol=1e-6, atol=1e-6
        )
