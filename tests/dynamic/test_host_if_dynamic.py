"""A host `scf.if` yielding a `?`-sized tensor both branches give the same sizes, as IREE
runs it: Flow forms the dispatch in the branch and exports the result with the sizes both
yields have (`tensor<?xf32>{%d}`), Stream carries it as a resource and its size. Results
equal numpy's and the real IREE's at several lengths (0 and 1 included), both branches.
Branches yielding different sizes stay refused at input
(tests/bad_inputs/compile/unsupported_host_scf_if_dynamic_sizes.mlir).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAM = Path(__file__).parent / "programs" / "host_if_dynamic.mlir"
LENGTHS = [0, 1, 7, 100]


def _runs(rng):
    for n in LENGTHS:
        for p in (1, 0):
            yield rng.standard_normal(n).astype(np.float32), np.array([p], np.int32)


@pytest.fixture(scope="module")
def module():
    return ireelab.compile(str(PROGRAM))


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_both_branches_at_every_length_equal_numpy(module, device):
    for a, p in _runs(np.random.default_rng(0)):
        want = a + a if p[0] else a
        np.testing.assert_array_equal(module.invoke("pick", a, p, device=device), want)


def _sites(ir: str) -> list[str]:
    """The host function's dispatches (export and workload), ifs and the export's dims."""
    host = ir[ir.index("util.func public @pick(") :]
    dim = re.search(r"(%\w+) = hal\.buffer_view\.dim<%arg0", host).group(1)
    ops = re.findall(
        r"flow\.dispatch @\w+::@(\w+)\[([^\]]*)\]|(scf\.if)|hal\.tensor\.export [^{]*\{(%\w+)\}",
        host,
    )
    named = {dim: "%dim"}
    return [
        f"{e}[{named.get(w, w)}]" if e else s or f"export{{{named.get(x, x)}}}"
        for e, w, s, x in ops
    ]


def test_flow_exports_the_result_with_the_branches_sizes():
    ir = ireelab.compile(str(PROGRAM), compile_to="flow").ir()
    assert _sites(ir) == ["scf.if", "pick_dispatch_0_elementwise_D_f32[%dim]", "export{%dim}"]


@pytest.mark.iree
@pytest.mark.skipif(shutil.which("iree-compile") is None, reason="IREE not installed")
def test_flow_and_results_equal_iree_s(module):
    import ireelab.iree

    ours = ireelab.compile(str(PROGRAM), compile_to="flow").ir()
    assert _sites(ours) == _sites(ireelab.iree.compile(str(PROGRAM), compile_to="flow").ir())
    theirs = ireelab.iree.compile(str(PROGRAM))
    for a, p in _runs(np.random.default_rng(1)):
        np.testing.assert_array_equal(module.pick(a, p), theirs.pick(a, p))
