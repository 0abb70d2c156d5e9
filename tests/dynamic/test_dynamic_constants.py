"""`flow.tensor.dynamic_constant`, `flow.tensor.tie_shape` and `tensor.cast` between static and
`?` sizes, against numpy and the real IREE: the constant's sizes are hidden behind
`util.optimization_barrier`, so the kernels are the `?`-sized ones IREE forms (`_D_f32`: the
`?x3` dispatch collapsed to one `?` loop)
and read their sizes at run time. (tests/check/dynamic_constants.mlir checks the same ops in
IREE's check format.)"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import ireelab

CHECK_FILE = Path(__file__).parents[1] / "check" / "dynamic_constants.mlir"
RTOL = 1e-6
"""float32 exp and add: a rounding or two each."""

VALUES = np.array([[0.5, -1.0, 2.0], [1.5, 0.0, -0.25]], dtype=np.float32)

PROGRAM = """
func.func @exp_plus_one() -> tensor<?x3xf32> {
  %c = flow.tensor.dynamic_constant dense<[[0.5, -1.0, 2.0], [1.5, 0.0, -0.25]]> : tensor<2x3xf32> -> tensor<?x3xf32>
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %c, %c0 : tensor<?x3xf32>
  %init = tensor.empty(%n) : tensor<?x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<?x3xf32>) outs(%init : tensor<?x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    %s = arith.addf %e, %one : f32
    linalg.yield %s : f32
  } -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
"""

needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)


def _exports(ir: str) -> list[str]:
    return re.findall(r"flow\.executable\.export public @(\w+)", ir)


def test_dynamic_constant_is_a_barriered_reshape_and_a_dynamic_kernel():
    flow_ir = ireelab.compile(PROGRAM, compile_to="flow").ir()
    assert re.search(r"= util\.optimization_barrier %\w+ : index", flow_ir)
    assert re.search(
        r"flow\.tensor\.reshape %\w+ : tensor<2x3xf32> -> tensor<\?x3xf32>\{%", flow_ir
    )
    assert _exports(flow_ir) == ["exp_plus_one_dispatch_0_elementwise_D_f32"]


def test_result_matches_numpy():
    got = ireelab.compile(PROGRAM).exp_plus_one()
    np.testing.assert_allclose(got, np.exp(VALUES) + 1, rtol=RTOL)


def test_a_dynamic_collapse_shape_of_a_dynamic_constant_runs():
    """The `?x1` constant collapsed to `?` on the host: a `flow.tensor.reshape` carrying the
    constant's `?` size, read by the dispatch that doubles it."""
    source = """
func.func @f() -> tensor<?xf32> {
  %c = flow.tensor.dynamic_constant dense<[[1.0], [2.0], [3.0], [4.0]]> : tensor<4x1xf32> -> tensor<?x1xf32>
  %r = tensor.collapse_shape %c [[0, 1]] : tensor<?x1xf32> into tensor<?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %r, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%r : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<?xf32>
  return %d : tensor<?xf32>
}
"""
    flow_ir = ireelab.compile(source, compile_to="flow").ir()
    assert re.search(
        r"flow\.tensor\.reshape .* tensor<\?x1xf32>\{%\w+\} -> tensor<\?xf32>\{%", flow_ir
    )
    got = ireelab.compile(source).f()
    np.testing.assert_array_equal(got, np.array([2.0, 4.0, 6.0, 8.0], np.float32))


@pytest.mark.iree
@needs_iree
def test_result_and_dispatch_sites_equal_iree():
    import ireelab.iree

    theirs = ireelab.iree.compile(PROGRAM).exp_plus_one()
    np.testing.assert_allclose(ireelab.compile(PROGRAM).exp_plus_one(), theirs, rtol=RTOL)
    iree_ir = ireelab.iree.compile(PROGRAM, compile_to="flow", trace=False).ir()
    ours = ireelab.compile(PROGRAM, compile_to="flow").ir()
    # IREE's CollapseDimensionsPass also flattens a `?x3` elementwise dispatch to `?`
    # (`_elementwise_D_f32`); ireelab's collapses static dims only, so only the sites compare.
    assert ours.count("flow.dispatch @") == iree_ir.count("flow.dispatch @") == 1
    assert "util.optimization_barrier" in iree_ir and "{%" in iree_ir


@pytest.mark.iree
@needs_iree
def test_check_file_dispatch_sites_equal_iree():
    import ireelab.iree

    iree_ir = ireelab.iree.compile(str(CHECK_FILE), compile_to="flow", trace=False).ir()
    ours = ireelab.compile(str(CHECK_FILE), compile_to="flow").ir()
    assert ours.count("flow.dispatch @") == iree_ir.count("flow.dispatch @")


def test_a_dynamic_pack_into_a_cast_static_init_packs_at_run_time():
    """The cast on the pack's dest folds into the pack (MLIR's FoldTensorCastPackOp): the
    pack of the `?`-sized constant writes a static 2x2x2x2, cast back to `?` for the return."""
    source = """
func.func @f() -> tensor<?x?x2x2xi32> {
  %c = flow.tensor.dynamic_constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]> : tensor<4x4xi32> -> tensor<?x?xi32>
  %init = tensor.empty() : tensor<2x2x2x2xi32>
  %d = tensor.cast %init : tensor<2x2x2x2xi32> to tensor<?x?x2x2xi32>
  %p = linalg.pack %c inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %d : tensor<?x?xi32> -> tensor<?x?x2x2xi32>
  return %p : tensor<?x?x2x2xi32>
}
"""
    got = ireelab.compile(source).f()
    want = np.arange(16, dtype=np.int32).reshape(2, 2, 2, 2).transpose(0, 2, 1, 3)
    np.testing.assert_array_equal(got, want)


def test_a_dynamic_topk_runs_where_it_once_was_refused():
    """A topk_v2 over a `?`-sized input (once refused at input, and before that rejected by
    the verifier): the kernel reads the input's length from its pushed dim."""
    source = """
func.func @f() -> (tensor<2xf32>, tensor<2xi32>) {
  %c = flow.tensor.dynamic_constant dense<[3.0, 1.0, 2.0, 5.0]> : tensor<4xf32> -> tensor<?xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %ve = tensor.empty() : tensor<2xf32>
  %ie = tensor.empty() : tensor<2xi32>
  %v = linalg.fill ins(%ninf : f32) outs(%ve : tensor<2xf32>) -> tensor<2xf32>
  %i = linalg.fill ins(%zero : i32) outs(%ie : tensor<2xi32>) -> tensor<2xi32>
  %r:2 = iree_linalg_ext.topk_v2 dimension(0) is_sorted ins(%c : tensor<?xf32>) outs(%v, %i : tensor<2xf32>, tensor<2xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2xf32>, tensor<2xi32>
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xi32>
}
"""
    values, indices = ireelab.compile(source).f()
    np.testing.assert_array_equal(values, np.array([5.0, 3.0], np.float32))
    np.testing.assert_array_equal(indices, np.array([3, 0], np.int32))
