"""`tensor.reshape` to a shape the host builds, static and over a `?` batch.

torch-mlir imports ONNX's Reshape of a `?` batch (and GroupNormalization's grouping) as a
`tensor.reshape` to a `tensor.from_elements` of sizes. IREE keeps it on the host through
GlobalOptimization and DispatchCreation; ConvertTensorToFlowPass makes it a
`flow.tensor.reshape` whose `?` dims are those elements. The group norm here also reads
its input through an identity copy and sums it twice from two equal fills: IREE's
canonicalizer erases the copy (MLIR's EraseIdentityLinalgOp) and CSE merges the fills and
the two sums, which leaves iree-compile's two reduction dispatches.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from test_dynamic_workloads import _sites, iree_flow

import ireelab
from ireelab.diagnostics import CompileError

PROGRAMS = Path(__file__).parent / "programs"

needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)

SIZES = (1, 3, 7, 64)


def _group_norm(x: np.ndarray) -> np.ndarray:
    g = x.reshape(x.shape[0], 2, 8).astype(np.float64)
    mean = g.mean(axis=2, keepdims=True)
    var = ((g - mean) ** 2).mean(axis=2, keepdims=True)
    return ((g - mean) / np.sqrt(var + 1e-5)).reshape(x.shape)


@pytest.fixture(scope="module")
def group_norm():
    return ireelab.compile(str(PROGRAMS / "group_norm_reshape_dx.mlir"))


def test_one_module_every_batch_matches_numpy(group_norm):
    rng = np.random.default_rng(3)
    for n in SIZES:
        x = rng.standard_normal((n, 4, 2, 2), dtype=np.float32)
        got = group_norm.gn(x)
        assert got.shape == x.shape
        np.testing.assert_allclose(got, _group_norm(x), rtol=1e-5, atol=1e-5, err_msg=str(n))


def test_the_reshape_is_a_host_flow_reshape_with_the_batch_as_its_dim():
    ir = ireelab.compile(str(PROGRAMS / "group_norm_reshape_dx.mlir"), compile_to="flow").ir()
    assert " tensor.reshape" not in ir and "tensor.from_elements" not in ir
    assert re.search(
        r"flow\.tensor\.reshape %\w+ : tensor<\?x4x2x2xf32>\{(%\w+)\} -> tensor<\?x2x8xf32>\{\1\}",
        ir,
    )
    exports = [export for export, _, _ in _sites(ir)]
    # the copy is gone and the two sums of the input are one: the sum, then the squares'
    # sum with the normalization fused after it (four reductions without the copy's erasure
    # and the CSE of linalg ops)
    assert exports == ["gn_dispatch_0_reduction_Dx8_f32", "gn_dispatch_1_reduction_Dx8_f32"]


def test_a_reshape_to_a_constant_shape_compiles():
    module = ireelab.compile(str(PROGRAMS / "reshape_static_shape.mlir"))
    x = np.arange(48, dtype=np.float32).reshape(3, 4, 2, 2)
    np.testing.assert_array_equal(module.rs(x), 2 * x.reshape(3, 2, 8))


@pytest.mark.parametrize(
    ("name", "line"),
    [("refused_reshape_shape_argument", 3), ("refused_reshape_i64_size", 10)],
)
def test_sizes_not_carried_yet_are_refused_at_their_line(name, line):
    # a shape read from an argument's contents; a `?` size computed in i64 arithmetic
    with pytest.raises(CompileError) as error:
        ireelab.compile(str(PROGRAMS / f"{name}.mlir"))
    message = str(error.value).splitlines()[0]
    assert f"{name}.mlir:{line}:3: error: [input] dynamic shape" in message, message
    assert "'tensor.reshape' is not supported yet" in message


@pytest.mark.iree
@needs_iree
@pytest.mark.parametrize("name", ["group_norm_reshape_dx", "reshape_static_shape"])
def test_export_names_and_workloads_match_iree(name):
    ours = _sites(ireelab.compile(str(PROGRAMS / f"{name}.mlir"), compile_to="flow").ir())
    assert [s[:2] for s in ours] == [s[:2] for s in _sites(iree_flow(name))]


@pytest.mark.iree
@needs_iree
def test_results_equal_iree_at_several_batches(group_norm):
    from ireelab.iree import compile as iree_compile

    theirs = iree_compile((PROGRAMS / "group_norm_reshape_dx.mlir").read_text(), trace=False)
    rng = np.random.default_rng(5)
    for n in SIZES:
        x = rng.standard_normal((n, 4, 2, 2), dtype=np.float32)
        (reference,) = theirs.invoke_all("gn", x)
        np.testing.assert_allclose(group_norm.gn(x), np.asarray(reference), rtol=1e-5, atol=1e-6)
