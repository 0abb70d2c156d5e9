"""CollapseDimensionsPass on `?` dispatches whose bodies read `linalg.index`.

As IREE does, the loops still collapse into one; the body recovers an original loop's index
from the linear one by dividing by (and taking the remainder of) the run-time sizes of the
later loops, which the dispatch then takes as an operand. (A `?`-sized `tensor.extract_slice`
is refused at input, so slices are not collapsed on `?` shapes yet.)
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from test_dynamic_workloads import _sites, iree_flow

import ireelab

PROGRAMS = Path(__file__).parent / "programs"

needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)

CASES = {
    "col_index_dxd": (lambda x: x + np.arange(x.shape[1], dtype=np.float32)[None, :]),
    "row_index_dx4": (lambda x: x + np.arange(x.shape[0], dtype=np.float32)[:, None]),
    "row_index_4xd": (lambda x: x + np.arange(4, dtype=np.float32)[:, None]),
}
SHAPES = {
    "col_index_dxd": [(1, 1), (3, 5), (7, 13), (64, 33), (70, 9)],
    "row_index_dx4": [(1, 4), (3, 4), (131, 4)],
    "row_index_4xd": [(4, 1), (4, 5), (4, 131)],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_one_module_every_size_matches_numpy(name):
    module = ireelab.compile(str(PROGRAMS / f"{name}.mlir"))
    rng = np.random.default_rng(7)
    for shape in SHAPES[name]:
        x = rng.standard_normal(shape, dtype=np.float32)
        np.testing.assert_array_equal(module.idx(x), CASES[name](x), err_msg=str(shape))


def test_the_dispatch_is_collapsed_and_takes_the_row_length():
    # one loop over all elements; the body divides by the run-time row length, an operand
    ir = ireelab.compile(str(PROGRAMS / "row_index_4xd.mlir"), compile_to="flow").ir()
    ((export, workload, _),) = _sites(ir)
    assert export == "idx_dispatch_0_elementwise_D_f32"
    assert workload == ["%arg0[1]*4", "%arg0[1]"]
    assert re.search(r"arith\.divsi %\w+, %\w+ : index", ir)


@pytest.mark.iree
@needs_iree
@pytest.mark.parametrize("name", sorted(CASES))
def test_export_names_and_workloads_match_iree(name):
    ours = _sites(ireelab.compile(str(PROGRAMS / f"{name}.mlir"), compile_to="flow").ir())
    # the export, its workload and its operands: the row length comes after the tensor,
    # read through a tensor.dim of the uncollapsed input that the dispatch folds to its size
    assert ours == _sites(iree_flow(name))
