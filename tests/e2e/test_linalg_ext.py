"""`iree_linalg_ext` ops end to end: each forms its own dispatch with IREE's name, and the
numba kernel computes what numpy computes (exactly: selections, sorts, integer-valued sums),
and what the real IREE computes where it is installed."""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pytest

import ireelab

RNG = np.random.default_rng(16)

ARGMAX = """
func.func @argmax(%x: tensor<3x7xf32>) -> (tensor<3xf32>, tensor<3xi64>) {
  %ev = tensor.empty() : tensor<3xf32>
  %ei = tensor.empty() : tensor<3xi64>
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %v = linalg.fill ins(%ninf : f32) outs(%ev : tensor<3xf32>) -> tensor<3xf32>
  %i = linalg.fill ins(%c0 : i64) outs(%ei : tensor<3xi64>) -> tensor<3xi64>
  %r:2 = iree_linalg_ext.arg_compare dimension(1) ins(%x : tensor<3x7xf32>)
      outs(%v, %i : tensor<3xf32>, tensor<3xi64>) {
    ^bb0(%a: f32, %b: f32):
      %gt = arith.cmpf ogt, %a, %b : f32
      iree_linalg_ext.yield %gt : i1
  } -> tensor<3xf32>, tensor<3xi64>
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xi64>
}
"""

ARGSORT = """
func.func @argsort(%x: tensor<4x9xf32>) -> (tensor<4x9xf32>, tensor<4x9xi32>) {
  %e = tensor.empty() : tensor<4x9xi32>
  %pos = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x9xi32>) {
  ^bb0(%o: i32):
    %j = linalg.index 1 : index
    %c = arith.index_cast %j : index to i32
    linalg.yield %c : i32
  } -> tensor<4x9xi32>
  %s:2 = iree_linalg_ext.sort dimension(1) outs(%x, %pos : tensor<4x9xf32>, tensor<4x9xi32>) {
    ^bb0(%a: f32, %b: f32, %pa: i32, %pb: i32):
      %lt = arith.cmpf olt, %a, %b : f32
      iree_linalg_ext.yield %lt : i1
  } -> tensor<4x9xf32>, tensor<4x9xi32>
  return %s#0, %s#1 : tensor<4x9xf32>, tensor<4x9xi32>
}
"""

TOPK = """
func.func @topk(%x: tensor<3x10xf32>) -> (tensor<3x4xf32>, tensor<3x4xi32>) {
  %ev = tensor.empty() : tensor<3x4xf32>
  %ei = tensor.empty() : tensor<3x4xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i32
  %v = linalg.fill ins(%ninf : f32) outs(%ev : tensor<3x4xf32>) -> tensor<3x4xf32>
  %i = linalg.fill ins(%c0 : i32) outs(%ei : tensor<3x4xi32>) -> tensor<3x4xi32>
  %r:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<3x10xf32>)
      outs(%v, %i : tensor<3x4xf32>, tensor<3x4xi32>) {
    ^bb0(%a: f32, %b: f32):
      %gt = arith.cmpf ogt, %a, %b : f32
      iree_linalg_ext.yield %gt : i1
  } -> tensor<3x4xf32>, tensor<3x4xi32>
  return %r#0, %r#1 : tensor<3x4xf32>, tensor<3x4xi32>
}
"""

SCATTER_ADD = """
func.func @scatter_add(%orig: tensor<5x3xf32>, %upd: tensor<6x3xf32>, %idx: tensor<6x1xi64>) -> tensor<5x3xf32> {
  %r = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false)
      ins(%upd, %idx : tensor<6x3xf32>, tensor<6x1xi64>) outs(%orig : tensor<5x3xf32>) {
    ^bb0(%u: f32, %o: f32):
      %s = arith.addf %u, %o : f32
      iree_linalg_ext.yield %s : f32
  } -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}
"""

GATHER = """
func.func @gather(%table: tensor<6x4xf32>, %idx: tensor<5xi32>) -> tensor<5x4xf32> {
  %e = tensor.empty() : tensor<5x4xf32>
  %r = iree_linalg_ext.gather dimension_map = [0]
      ins(%table, %idx : tensor<6x4xf32>, tensor<5xi32>) outs(%e : tensor<5x4xf32>) -> tensor<5x4xf32>
  return %r : tensor<5x4xf32>
}
"""

CUMSUM = """
func.func @cumsum(%x: tensor<3x8xi32>) -> (tensor<3x8xi32>, tensor<3xi32>) {
  %e = tensor.empty() : tensor<3x8xi32>
  %ea = tensor.empty() : tensor<3xi32>
  %c0 = arith.constant 0 : i32
  %a = linalg.fill ins(%c0 : i32) outs(%ea : tensor<3xi32>) -> tensor<3xi32>
  %r:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<3x8xi32>)
      outs(%e, %a : tensor<3x8xi32>, tensor<3xi32>) {
    ^bb0(%p: i32, %q: i32):
      %s = arith.addi %p, %q : i32
      iree_linalg_ext.yield %s : i32
  } -> tensor<3x8xi32>, tensor<3xi32>
  return %r#0, %r#1 : tensor<3x8xi32>, tensor<3xi32>
}
"""

ATTENTION = """
func.func @attention(%q: tensor<2x3x4xf32>, %k: tensor<2x5x4xf32>, %v: tensor<2x5x2xf32>, %m: tensor<2x3x5xf32>) -> tensor<2x3x2xf32> {
  %scale = arith.constant 0.7 : f32
  %init = tensor.empty() : tensor<2x3x2xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>,
      affine_map<(d0, d1, d2, d3, d4) -> ()>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]}
      ins(%q, %k, %v, %scale, %m : tensor<2x3x4xf32>, tensor<2x5x4xf32>, tensor<2x5x2xf32>, f32, tensor<2x3x5xf32>)
      outs(%init : tensor<2x3x2xf32>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<2x3x2xf32>
  return %o : tensor<2x3x2xf32>
}
"""


def _ties(shape, distinct: bool = False) -> np.ndarray:
    """Small integer-valued floats: many ties, so tie-breaking is exercised (or, with
    `distinct`, none: IREE's CPU sort is not stable, so it is compared without ties)."""
    if distinct:
        return (RNG.permutation(int(np.prod(shape))) - 10).reshape(shape).astype(np.float32)
    return RNG.integers(-4, 5, shape).astype(np.float32)


def _argmax_case(distinct: bool = False):
    x = _ties((3, 7), distinct)
    return (x,), (x.max(axis=1), x.argmax(axis=1).astype(np.int64))


def _argsort_case(distinct: bool = False):
    x = _ties((4, 9), distinct)
    order = np.argsort(x, axis=1, kind="stable")
    return (x,), (np.take_along_axis(x, order, 1), order.astype(np.int32))


def _topk_case(distinct: bool = False):
    x = _ties((3, 10), distinct)
    order = np.argsort(-x, axis=1, kind="stable")[:, :4]
    return (x,), (np.take_along_axis(x, order, 1), order.astype(np.int32))


def _scatter_case(distinct: bool = False):
    orig = _ties((5, 3))
    upd = _ties((6, 3))
    idx = np.array([[4], [0], [4], [2], [4], [0]], dtype=np.int64)
    expected = orig.copy()
    np.add.at(expected, idx[:, 0], upd)
    return (orig, upd, idx), (expected,)


def _gather_case(distinct: bool = False):
    table = _ties((6, 4))
    idx = np.array([5, 0, 5, 2, 1], dtype=np.int32)
    return (table, idx), (table[idx],)


def _cumsum_case(distinct: bool = False):
    x = RNG.integers(-50, 50, (3, 8)).astype(np.int32)
    return (x,), (np.cumsum(x, axis=1, dtype=np.int32), x.sum(axis=1, dtype=np.int32))


CASES = {
    "argmax": (ARGMAX, _argmax_case, "argmax_dispatch_0_arg_compare_3x7xf32"),
    "argsort": (ARGSORT, _argsort_case, "argsort_dispatch_1_sort_4x9xf32"),
    "topk": (TOPK, _topk_case, "topk_dispatch_0_topk_3x10xf32"),
    "scatter_add": (
        SCATTER_ADD,
        _scatter_case,
        "scatter_add_dispatch_0_scatter_6x3xf32_dispatch_tensor_store",
    ),
    "gather": (GATHER, _gather_case, "gather_dispatch_0_gather_6x4xf32_dispatch_tensor_store"),
    "cumsum": (CUMSUM, _cumsum_case, "cumsum_dispatch_0_scan_3x8xi32"),
}


def _results(value) -> tuple:
    return tuple(value) if isinstance(value, tuple | list) else (value,)


@pytest.mark.parametrize("name", list(CASES))
def test_matches_numpy_exactly(compile_cached, name: str) -> None:
    source, make_case, _ = CASES[name]
    module = compile_cached(source)
    args, expected = make_case()
    got = _results(getattr(module, name)(*args))
    assert len(got) == len(expected)
    for actual, wanted in zip(got, expected, strict=True):
        assert actual.dtype == wanted.dtype
        np.testing.assert_array_equal(actual, wanted)


EXPORT = re.compile(r"flow\.executable\.export public @(\w+)")


@pytest.mark.parametrize("name", list(CASES))
def test_own_dispatch_with_iree_name(name: str) -> None:
    source, _, export = CASES[name]
    flow = ireelab.compile(source, compile_to="flow").ir()
    assert export in EXPORT.findall(flow)


needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)


@needs_iree
@pytest.mark.iree
@pytest.mark.parametrize("name", list(CASES))
def test_matches_the_real_iree(compile_cached, name: str) -> None:
    from ireelab.iree import compile as iree_compile

    source, make_case, _ = CASES[name]
    args, _ = make_case(distinct=True)
    ours = _results(getattr(compile_cached(source), name)(*args))
    theirs = _results(getattr(iree_compile(source, trace=False), name)(*args))
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(a, np.asarray(b))


@needs_iree
@pytest.mark.iree
@pytest.mark.parametrize("name", list(CASES))
def test_dispatch_names_are_iree_compiles(tmp_path, name: str) -> None:
    """The flow-phase export names equal `iree-compile --compile-to=flow`'s on the same
    program (IREE's carry a leading underscore: it names them after the wrapped callee)."""
    source, _, _ = CASES[name]
    path = tmp_path / f"{name}.mlir"
    path.write_text(source)
    iree = subprocess.run(
        ["iree-compile", "--compile-to=flow", str(path)], capture_output=True, text=True
    )
    assert iree.returncode == 0, iree.stderr
    theirs = [n.removeprefix("_") for n in EXPORT.findall(iree.stdout)]
    ours = EXPORT.findall(ireelab.compile(source, compile_to="flow").ir())
    assert ours == theirs


def _attention_case():
    q = RNG.uniform(-1, 1, (2, 3, 4)).astype(np.float32)
    k = RNG.uniform(-1, 1, (2, 5, 4)).astype(np.float32)
    v = RNG.uniform(-1, 1, (2, 5, 2)).astype(np.float32)
    m = RNG.uniform(-2, 0, (2, 3, 5)).astype(np.float32)
    s = np.einsum("bmk,bnk->bmn", q.astype(np.float64), k) * np.float32(0.7) + m
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    return (q, k, v, m), np.einsum("bmn,bnd->bmd", p, v)


def _iree_313_syntax(source: str) -> str:
    """IREE 3.13 reads attention's indexing maps as a property dict (`<{...}>`), the newer
    IREE its e2e tests are written for (and ireelab) as an attribute dict."""
    source = source.replace("attention {indexing_maps", "attention <{indexing_maps")
    return source.replace("(d0, d1, d4)>]}", "(d0, d1, d4)>]}>")


ATTENTION_TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}
"""f32 against numpy's f64 softmax: the online recurrence and exp2 round differently."""


def test_attention_matches_numpy(compile_cached) -> None:
    args, expected = _attention_case()
    got = compile_cached(ATTENTION).attention(*args)
    np.testing.assert_allclose(got, expected, **ATTENTION_TOLERANCE)


def test_attention_dispatch_name() -> None:
    flow = ireelab.compile(ATTENTION, compile_to="flow").ir()
    assert EXPORT.findall(flow) == ["attention_dispatch_0_attention_2x3x4x5x2"]


@needs_iree
@pytest.mark.iree
def test_attention_matches_the_real_iree(tmp_path, compile_cached) -> None:
    from ireelab.iree import compile as iree_compile

    args, _ = _attention_case()
    ours = compile_cached(ATTENTION).attention(*args)
    theirs = iree_compile(_iree_313_syntax(ATTENTION), trace=False).attention(*args)
    np.testing.assert_allclose(ours, np.asarray(theirs), **ATTENTION_TOLERANCE)
    path = tmp_path / "attention.mlir"
    path.write_text(_iree_313_syntax(ATTENTION))
    iree = subprocess.run(
        ["iree-compile", "--compile-to=flow", str(path)], capture_output=True, text=True
    )
    assert EXPORT.findall(iree.stdout) == ["attention_dispatch_0_attention_2x3x4x5x2"]


HEADS = """
func.func @heads(%q: tensor<5x2x8xf32>, %k: tensor<5x2x8xf32>, %v: tensor<5x2x8xf32>) -> tensor<5x2x8xf32> {
  %scale = arith.constant 0.353553385 : f32
  %e = tensor.empty() : tensor<2x5x8xf32>
  %qt = linalg.transpose ins(%q : tensor<5x2x8xf32>) outs(%e : tensor<2x5x8xf32>) permutation = [1, 0, 2]
  %kt = linalg.transpose ins(%k : tensor<5x2x8xf32>) outs(%e : tensor<2x5x8xf32>) permutation = [1, 0, 2]
  %vt = linalg.transpose ins(%v : tensor<5x2x8xf32>) outs(%e : tensor<2x5x8xf32>) permutation = [1, 0, 2]
  %o = iree_linalg_ext.attention {indexing_maps = [
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>,
      affine_map<(d0, d1, d2, d3, d4) -> ()>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>]}
      ins(%qt, %kt, %vt, %scale : tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, f32)
      outs(%e : tensor<2x5x8xf32>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<2x5x8xf32>
  %eo = tensor.empty() : tensor<5x2x8xf32>
  %r = linalg.transpose ins(%o : tensor<2x5x8xf32>) outs(%eo : tensor<5x2x8xf32>) permutation = [1, 0, 2]
  return %r : tensor<5x2x8xf32>
}
"""
"""Heads split `[S, H, D] -> [H, S, D]` around an attention, as a transformer block exports it:
IREE reads the inputs through the attention's maps (ElementwiseOpFusionPass's transpose fusion)
and fuses the output transpose into the attention's dispatch, so there is one dispatch."""


def _heads_case():
    q, k, v = (RNG.uniform(-1, 1, (5, 2, 8)).astype(np.float32) for _ in range(3))
    s = np.einsum("shd,thd->hst", q.astype(np.float64), k) * np.float32(0.353553385)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    return (q, k, v), np.einsum("hst,thd->shd", p, v)


def test_attention_reads_split_heads_in_one_dispatch(compile_cached) -> None:
    flow = ireelab.compile(HEADS, compile_to="flow").ir()
    assert EXPORT.findall(flow) == ["heads_dispatch_0_attention_2x5x8x8x5"]
    args, expected = _heads_case()
    got = compile_cached(HEADS).heads(*args)
    np.testing.assert_allclose(got, expected, **ATTENTION_TOLERANCE)


@needs_iree
@pytest.mark.iree
def test_attention_split_heads_as_the_real_iree(tmp_path, compile_cached) -> None:
    from ireelab.iree import compile as iree_compile

    source = HEADS.replace("attention {indexing_maps", "attention <{indexing_maps")
    source = source.replace("(d0, d1, d2)>]}", "(d0, d1, d2)>]}>")
    args, _ = _heads_case()
    theirs = iree_compile(source, trace=False).heads(*args)
    got = compile_cached(HEADS).heads(*args)
    np.testing.assert_allclose(got, np.asarray(theirs), **ATTENTION_TOLERANCE)
    path = tmp_path / "heads.mlir"
    path.write_text(source)
    iree = subprocess.run(
        ["iree-compile", "--compile-to=flow", str(path)], capture_output=True, text=True
    )
    assert EXPORT.findall(iree.stdout) == ["heads_dispatch_0_attention_2x5x8x8x5"]


WINOGRAD_INPUT = """
func.func @winograd_input(%x: tensor<1x10x10x2xf32>) -> tensor<8x8x1x2x2x2xf32> {
  %init = tensor.empty() : tensor<8x8x1x2x2x2xf32>
  %t = iree_linalg_ext.winograd.input_transform output_tile_size(6) kernel_size(3)
      image_dimensions([1, 2]) ins(%x : tensor<1x10x10x2xf32>)
      outs(%init : tensor<8x8x1x2x2x2xf32>) -> tensor<8x8x1x2x2x2xf32>
  return %t : tensor<8x8x1x2x2x2xf32>
}
"""

WINOGRAD_OUTPUT = """
func.func @winograd_output(%t: tensor<8x8x1x2x2x3xf32>) -> tensor<1x3x12x12xf32> {
  %init = tensor.empty() : tensor<1x3x12x12xf32>
  %y = iree_linalg_ext.winograd.output_transform output_tile_size(6) kernel_size(3)
      image_dimensions([2, 3]) ins(%t : tensor<8x8x1x2x2x3xf32>)
      outs(%init : tensor<1x3x12x12xf32>) -> tensor<1x3x12x12xf32>
  return %y : tensor<1x3x12x12xf32>
}
"""

WINOGRAD_TOLERANCE = {"rtol": 1e-5, "atol": 1e-4}
"""f32 sums of up to 64 products with coefficients up to 32 (numpy reference in f64)."""


def _winograd_matrices():
    from ireelab.compiler.codegen.winograd_to_loops import _AT, _BT

    return np.array(_BT, np.float64), np.array(_AT, np.float64)


def test_winograd_input_transform_matches_numpy(compile_cached) -> None:
    bt, _ = _winograd_matrices()
    x = RNG.uniform(-1, 1, (1, 10, 10, 2)).astype(np.float32)
    padded = np.zeros((1, 14, 14, 2))
    padded[:, :10, :10] = x
    expected = np.zeros((8, 8, 1, 2, 2, 2))
    for th in range(2):
        for tw in range(2):
            for c in range(2):
                d = padded[0, 6 * th : 6 * th + 8, 6 * tw : 6 * tw + 8, c]
                expected[:, :, 0, th, tw, c] = bt @ d @ bt.T
    got = compile_cached(WINOGRAD_INPUT).winograd_input(x)
    np.testing.assert_allclose(got, expected, **WINOGRAD_TOLERANCE)


@needs_iree
@pytest.mark.iree
@pytest.mark.parametrize("name", ["winograd_input", "winograd_output"])
def test_winograd_matches_the_real_iree(tmp_path, compile_cached, name: str) -> None:
    from ireelab.iree import compile as iree_compile

    source = WINOGRAD_INPUT if name == "winograd_input" else WINOGRAD_OUTPUT
    shape = (1, 10, 10, 2) if name == "winograd_input" else (8, 8, 1, 2, 2, 3)
    x = RNG.uniform(-1, 1, shape).astype(np.float32)
    ours = getattr(compile_cached(source), name)(x)
    theirs = getattr(iree_compile(source, trace=False), name)(x)
    np.testing.assert_allclose(ours, np.asarray(theirs), **WINOGRAD_TOLERANCE)
    path = tmp_path / f"{name}.mlir"
    path.write_text(source)
    iree = subprocess.run(
        ["iree-compile", "--compile-to=flow", str(path)], capture_output=True, text=True
    )
    ours_names = EXPORT.findall(ireelab.compile(source, compile_to="flow").ir())
    assert ours_names == EXPORT.findall(iree.stdout)


def test_winograd_output_transform_matches_numpy(compile_cached) -> None:
    _, at = _winograd_matrices()
    t = RNG.uniform(-1, 1, (8, 8, 1, 2, 2, 3)).astype(np.float32)
    full = np.zeros((1, 3, 12, 12))
    for th in range(2):
        for tw in range(2):
            for f in range(3):
                tile = at @ t[:, :, 0, th, tw, f] @ at.T
                full[0, f, 6 * th : 6 * th + 6, 6 * tw : 6 * tw + 6] = tile
    got = compile_cached(WINOGRAD_OUTPUT).winograd_output(t)
    np.testing.assert_allclose(got, full, **WINOGRAD_TOLERANCE)
