"""Host `scf.for` loops over tensors through the Flow stage, as IREE forms them.

IREE keeps a loop whose body works on tensors on the host and forms dispatch regions in its
body: a slice at the induction variable becomes a load at that index inside the body's
dispatch (the index is its workload), an update at it a host `flow.tensor.update`. ireelab's
Flow stage does the same; the Stream stage does not carry host loops yet (IREE's turns the
loop into blocks that carry resources, sizes and timepoints), so compiling further is a
located error at that stage, never a wrong answer.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

import ireelab

PROGRAM = Path(__file__).parent / "programs" / "host_loop_rows.mlir"


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


def test_compiling_past_flow_is_a_located_stream_error():
    with pytest.raises(ireelab.CompileError) as caught:
        ireelab.compile(str(PROGRAM))
    message = str(caught.value).splitlines()[0]
    assert re.search(
        r"host_loop_rows\.mlir:\d+:3: error: \[stream\] 'scf\.for' on tensors", message
    )


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
