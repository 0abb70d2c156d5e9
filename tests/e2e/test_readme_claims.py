"""The README's "What it compiles", claim by claim: every op, element type and feature it lists
is a program in `readme_programs/` that compiles to a module, runs on the HAL runtime and
matches numpy; and, where the real IREE 3.13 is installed, gets the same dispatch sites and
names from `iree-compile` and the same results from `iree.runtime`.

Each test is named after the README's words. Each program is compiled once per module (numba
compile time adds up) on small shapes. Tolerances: copies, integer and boolean results are
exact; f32 results of adds and multiplies within rtol 1e-5 / atol 1e-6 of numpy (the order of
a reduction differs), f32 results through `exp` / `tanh` / `sqrt` within rtol 1e-5 (numba's
libm against numpy's); f64 within 1e-12; f16 within rtol 2e-3 / atol 2e-3 of numpy's f64
result rounded to f16 (two f16 ulps: ireelab computes f16 in f32 and rounds each op's result,
so a sum of rounded terms is off by an ulp). Against IREE: float results within
1e-5 + 1e-4 * max|IREE's result| (`ireelab.iree.comparison`'s f32 agreement), f16 as above,
the others exact.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ShapedType

import ireelab
from ireelab.diagnostics import CompileError
from ireelab.iree.availability import INSTALL_HINT, is_available
from ireelab.iree.program_inputs import entry_function, random_inputs

PROGRAMS = Path(__file__).parent / "readme_programs"
F32 = {"rtol": 1e-5, "atol": 1e-6}
F64 = {"rtol": 1e-12, "atol": 1e-12}
F16 = {"rtol": 2e-3, "atol": 2e-3}


def source(name: str) -> str:
    return (PROGRAMS / f"{name}.mlir").read_text()


def _kinds_inputs(dtype: str) -> list[np.ndarray]:
    """Inputs every kind is defined on: a > 0 for log / sqrt / rsqrt, no division by zero."""
    rng = np.random.default_rng(5)
    if dtype == "f32":
        a = rng.uniform(0.25, 2.5, (2, 8)).astype(np.float32)
        b = rng.uniform(0.5, 2.0, (2, 8)).astype(np.float32)
    else:
        a = rng.integers(-50, 50, (2, 8)).astype(np.int32)
        b = rng.choice([-7, -3, -1, 1, 2, 5], (2, 8)).astype(np.int32)
    return [a, b, rng.integers(0, 2, (2, 8)).astype(np.bool_)]


CHOSEN_INPUTS = {
    "elementwise_kinds_f32": lambda: ("kinds", _kinds_inputs("f32")),
    "elementwise_kinds_i32": lambda: ("kinds", _kinds_inputs("i32")),
}
"""Programs whose functions are not defined on every input (logarithms, integer division)."""


def inputs(name: str, function: str | None = None) -> tuple[str, list]:
    """Random arguments of the function's types: arrays, and numpy scalars for its scalars."""
    if name in CHOSEN_INPUTS:
        return CHOSEN_INPUTS[name]()
    function, args = random_inputs(source(name), function, seed=3)
    types = entry_function(source(name), function).function_type.inputs.data
    return function, [
        a if isinstance(t, ShapedType) else a[()] for a, t in zip(args, types, strict=True)
    ]


@pytest.fixture(scope="module")
def compiled():
    """`compiled(name)`: the program `readme_programs/<name>.mlir` compiled once."""
    modules: dict[str, object] = {}

    def compile_(name: str):
        if name not in modules:
            modules[name] = ireelab.compile(source(name))
        return modules[name]

    return compile_


@pytest.fixture(scope="module")
def run(compiled):
    """`run(name, function=None, *args)`: call the program on `args` (random arrays of its
    argument types when none are given); returns (args, results as a tuple)."""

    def run_(name: str, function: str | None = None, *args):
        if not args:
            function, args = inputs(name, function)
        result = compiled(name).invoke(function, *args)
        return args, result if isinstance(result, tuple) else (result,)

    return run_


def close(got, expected, tolerance=F32) -> None:
    got = np.asarray(got)
    assert got.shape == np.shape(expected)
    np.testing.assert_allclose(got, expected, **tolerance)


# ---- Ops: linalg named ops --------------------------------------------------------------------


def test_fill(run) -> None:
    _, (got,) = run("fill", "fill", np.float32(2.5))
    np.testing.assert_array_equal(got, np.full((4, 8), 2.5, np.float32))


def test_matmul(run) -> None:
    (a, b), (got,) = run("matmul")
    close(got, a @ b)


def test_batch_matmul(run) -> None:
    (a, b), (got,) = run("batch_matmul")
    close(got, a @ b)


def test_matvec_vecmat_dot(run) -> None:
    (m, v, u), (mv, vm, d) = run("matvec_vecmat_dot")
    close(mv, m @ v)
    close(vm, u @ m)
    close(d, np.dot(u, u))


def test_transpose_broadcast_reduce(run) -> None:
    (x, row, m), (t, b, r) = run("transpose_broadcast_reduce")
    np.testing.assert_array_equal(t, np.transpose(x, (2, 0, 1)))
    np.testing.assert_array_equal(b, np.broadcast_to(row, (5, 8)))
    close(r, m.sum(axis=1))


def test_map_in_mlirs_current_form(run) -> None:
    # The body's last argument is the init's element, as IREE 3.13 requires.
    (a, b), (got,) = run("map")
    close(got, np.exp(a * b))


def test_map_short_form(run) -> None:
    (a, b), (got,) = run("map_short_form")
    np.testing.assert_array_equal(got, a - b)


def test_map_inputs_only_form_is_refused_with_a_located_error() -> None:
    # MLIR's old form (no init argument) is what IREE 3.13 rejects too.
    old = source("map").replace("(%x: f32, %y: f32, %init: f32)", "(%x: f32, %y: f32)")
    with pytest.raises(CompileError) as err:
        ireelab.compile(old)
    assert err.value.location is not None and err.value.location.line == 5
    assert "one per input and a last one for the init" in err.value.message


def _conv_nhwc(x, k, stride=1, dilation=1):
    n, h, w, c = x.shape
    kh, kw, _, f = k.shape
    oh = (h - dilation * (kh - 1) - 1) // stride + 1
    ow = (w - dilation * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, oh, ow, f), np.float64)
    for i in range(kh):
        for j in range(kw):
            rows = slice(i * dilation, i * dilation + (oh - 1) * stride + 1, stride)
            cols = slice(j * dilation, j * dilation + (ow - 1) * stride + 1, stride)
            out += np.einsum("nhwc,cf->nhwf", x[:, rows, cols, :], k[i, j])
    return out


def _nchw(a):
    return np.transpose(a, (0, 2, 3, 1))


def _nhwc(a):
    return np.transpose(a, (0, 3, 1, 2))


def test_conv_2d_nhwc_hwcf(run) -> None:
    (x, k), (got,) = run("conv_2d_nhwc_hwcf")
    close(got, _conv_nhwc(x, k, stride=2))


def test_conv_2d_nchw_fchw(run) -> None:
    (x, k), (got,) = run("conv_2d_nchw_fchw")
    hwcf = np.transpose(k, (2, 3, 1, 0))
    close(got, _nhwc(_conv_nhwc(_nchw(x), hwcf, dilation=2)))


def test_depthwise_conv_2d_nhwc_hwc(run) -> None:
    (x, k), (got,) = run("depthwise_conv_2d_nhwc_hwc")
    expected = np.zeros((1, 4, 4, 4))
    for i in range(3):
        for j in range(3):
            expected += x[:, i : i + 4, j : j + 4, :] * k[i, j]
    close(got, expected)


def _pool_nhwc(x, window, reduce, stride=(1, 1), dilation=(1, 1)):
    """Pooling over (h, w) of an NHWC array: `reduce` of the window's strided, dilated views."""
    _, h, w, _ = x.shape
    (kh, kw), (sh, sw), (dh, dw) = window, stride, dilation
    oh = (h - dh * (kh - 1) - 1) // sh + 1
    ow = (w - dw * (kw - 1) - 1) // sw + 1
    views = [
        x[:, i * dh : i * dh + (oh - 1) * sh + 1 : sh, j * dw : j * dw + (ow - 1) * sw + 1 : sw, :]
        for i in range(kh)
        for j in range(kw)
    ]
    return reduce(np.stack(views), axis=0)


def test_pooling_nhwc_max(run) -> None:
    (x,), (got,) = run("pooling_nhwc_max")
    np.testing.assert_array_equal(got, _pool_nhwc(x, (2, 2), np.max, stride=(2, 2)))


def test_pooling_nhwc_sum_with_strides_and_dilations(run) -> None:
    (x,), (got,) = run("pooling_nhwc_sum")
    close(got, _pool_nhwc(x, (3, 2), np.sum, stride=(1, 2), dilation=(2, 1)))


def test_pooling_nchw_max_with_strides_and_dilations(run) -> None:
    (x,), (got,) = run("pooling_nchw_max")
    expected = _pool_nhwc(_nchw(x), (2, 3), np.max, stride=(2, 1), dilation=(1, 2))
    np.testing.assert_array_equal(got, _nhwc(expected))


def test_pooling_nchw_sum(run) -> None:
    (x,), (got,) = run("pooling_nchw_sum")
    close(got, _nhwc(_pool_nhwc(_nchw(x), (2, 2), np.sum, stride=(2, 2))))


def test_pooling_after_tensor_pad(run) -> None:
    # Padding as frameworks emit it: tensor.pad with -inf (max) or 0 (sum) before the pool.
    (x,), (got,) = run("pooling_padded_max")
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)), constant_values=-np.inf)
    np.testing.assert_array_equal(got, _pool_nhwc(padded, (3, 3), np.max, stride=(2, 2)))
    (x,), (got,) = run("pooling_padded_nchw_sum")
    padded = np.pad(_nchw(x), ((0, 0), (1, 1), (1, 1), (0, 0)))
    close(got, _nhwc(_pool_nhwc(padded, (2, 2), np.sum, stride=(2, 2))))


def test_pooling_after_a_convolution(run) -> None:
    (x, k), (got,) = run("conv_relu_pool_nhwc", "block")
    relu = np.maximum(_conv_nhwc(x, k), 0.0)
    close(got, _pool_nhwc(relu, (2, 2), np.max, stride=(2, 2)))
    (x, k), (got,) = run("conv_pool_nchw", "block")
    conv = _conv_nhwc(_nchw(x), np.transpose(k, (2, 3, 1, 0)))
    close(got, _nhwc(_pool_nhwc(conv, (2, 2), np.sum, stride=(2, 2))))


def test_elementwise_named_ops(run) -> None:
    # linalg.add, sub, mul, div, exp, tanh, negf, max, abs, sqrt (IREE 3.13 parses none).
    (a, b), (got,) = run("elementwise_named", "ew")
    s = a + b
    expected = np.sqrt(np.abs(np.maximum(-np.tanh(np.exp(s * a - b) / s), a)))
    close(got, expected)


def test_linalg_elementwise(run) -> None:
    # `linalg.elementwise <kind>`, the form IREE 3.13 parses, with explicit indexing maps.
    (a, b, t, row, c), (chain, mapped, selected) = run("elementwise", "ew")
    s = a + b
    close(chain, np.sqrt(np.abs(np.maximum(-np.tanh(np.exp(s * a - b) / s), a))))
    close(mapped, t.T + row)
    np.testing.assert_array_equal(selected, np.where(c, a, b))


def _erf(x: np.ndarray) -> np.ndarray:
    import math

    return np.vectorize(math.erf)(x.astype(np.float64))


FLOAT_KINDS = {
    "exp": lambda a, b: np.exp(a),
    "log": lambda a, b: np.log(a),
    "abs": lambda a, b: np.abs(a),
    "ceil": lambda a, b: np.ceil(a),
    "floor": lambda a, b: np.floor(a),
    "negf": lambda a, b: -a,
    "reciprocal": lambda a, b: 1 / a,
    "round": lambda a, b: np.sign(a) * np.floor(np.abs(a) + 0.5),  # half away from zero
    "sqrt": lambda a, b: np.sqrt(a),
    "rsqrt": lambda a, b: 1 / np.sqrt(a),
    "square": lambda a, b: a * a,
    "tanh": lambda a, b: np.tanh(a),
    "erf": lambda a, b: _erf(a),
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "max_signed": np.maximum,
    "min_signed": np.minimum,
    "powf": np.power,
}


def _unsigned(op):
    def apply(a, b):
        return op(a.view(np.uint32), b.view(np.uint32)).astype(np.uint32).view(np.int32)

    return apply


INTEGER_KINDS = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: (np.sign(a) * np.sign(b) * (np.abs(a) // np.abs(b))).astype(np.int32),
    "div_unsigned": _unsigned(np.floor_divide),
    "max_signed": np.maximum,
    "min_signed": np.minimum,
    "max_unsigned": _unsigned(np.maximum),
    "min_unsigned": _unsigned(np.minimum),
}


def test_linalg_elementwise_every_kind_on_floats(run) -> None:
    (a, b, c), results = run("elementwise_kinds_f32")
    assert len(results) == len(FLOAT_KINDS) + 1
    for (kind, reference), got in zip(FLOAT_KINDS.items(), results, strict=False):
        expected = reference(a.astype(np.float64), b.astype(np.float64))
        np.testing.assert_allclose(got, expected, **F32, err_msg=kind)
    np.testing.assert_array_equal(results[-1], np.where(c, a, b))


def test_linalg_elementwise_every_kind_on_integers(run) -> None:
    (a, b, c), results = run("elementwise_kinds_i32")
    assert len(results) == len(INTEGER_KINDS) + 1
    for (kind, reference), got in zip(INTEGER_KINDS.items(), results, strict=False):
        np.testing.assert_array_equal(got, reference(a, b), err_msg=kind)
    np.testing.assert_array_equal(results[-1], np.where(c, a, b))


def test_linalg_elementwise_kind_on_the_wrong_type_is_refused_with_a_located_error() -> None:
    # `abs` is `math.absf` in MLIR: IREE 3.13 rejects it on integers (and crashes on the
    # unsigned kinds with floats); ireelab says so at the op.
    text = """func.func @f(%a: tensor<4xi32>) -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  %r = linalg.elementwise <abs> ins(%a : tensor<4xi32>) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}"""
    with pytest.raises(CompileError) as err:
        ireelab.compile(text)
    assert err.value.location is not None and err.value.location.line == 3
    assert "defined on floats, not i32" in err.value.message


# ---- linalg.generic ---------------------------------------------------------------------------


def test_generic_with_any_maps_iterators_and_results(run) -> None:
    # A transposed and a broadcast input, a reduction, two results, arith and math in the body.
    (a, b), (total, biggest) = run("generic")
    products = a * b[:, None]
    close(total, np.tanh(products).sum(axis=0))
    np.testing.assert_array_equal(biggest, products.max(axis=0))


# ---- tensor ops, constants, calls ---------------------------------------------------------------


def test_tensor_extract_slice_returned_directly(run) -> None:
    # Contiguous rows, a unit-stride block and a strided slice, each a function result.
    (a,), (rows, block, strided) = run("extract_slice", "slices")
    np.testing.assert_array_equal(rows, a[2:6])
    np.testing.assert_array_equal(block, a[2:6, 4:12])
    np.testing.assert_array_equal(strided, a[1:8:2, 0:16:2])


def test_tensor_insert_slice(run) -> None:
    (a, b), (into_argument, into_computed) = run("insert_slice", "insert")
    expected = a.copy()
    expected[1:3, 2:5] = b
    np.testing.assert_array_equal(into_argument, expected)
    expected = np.exp(a)
    expected[3:5, 4:7] = b
    close(into_computed, expected)


def test_tensor_expand_shape_and_collapse_shape(run) -> None:
    (a,), (expanded, collapsed) = run("expand_collapse_shape", "reshape")
    np.testing.assert_array_equal(expanded, (a * a).reshape(2, 2, 6))
    np.testing.assert_array_equal(collapsed, (a * a).reshape(24))


def test_tensor_pad(run) -> None:
    (a,), (got,) = run("pad")
    np.testing.assert_array_equal(got, np.pad(a, ((1, 2), (2, 1)), constant_values=-1.5))


def test_tensor_concat(run) -> None:
    (a, b, c), (outer, inner) = run("concat")
    np.testing.assert_array_equal(outer, np.concatenate([a, b], axis=0))
    np.testing.assert_array_equal(inner, np.concatenate([a, c], axis=1))


def test_tensor_extract_and_insert(run) -> None:
    (a,), (value, inserted) = run("extract_insert", "elements")
    assert value == a[1, 2]
    expected = a.copy()
    expected[1, 0] = a[1, 2]
    np.testing.assert_array_equal(inserted, expected)


def test_tensor_splat(run) -> None:
    # Of a constant, of a scalar argument and of an element read on the host.
    a = np.arange(6, dtype=np.float32).reshape(3, 2)
    _, (got,) = run("splat", "splat", a, np.float32(-2.0))
    np.testing.assert_array_equal(got, (a + 0.5) * -2.0 - a[1, 1])


def test_arith_constant_dense_tensors(run) -> None:
    (a,), (got,) = run("constant_tensors", "constants")
    w = np.array([[1.0, -2.0], [0.5, 3.0], [-1.0, 0.25]], np.float32)
    close(got, a @ w + 0.5)


def test_several_functions_with_func_call(run) -> None:
    (a, b), (layer,) = run("func_call", "layer")
    close(layer, np.maximum(a @ b, 0.0))
    (a,), (twice,) = run("func_call", "twice")
    np.testing.assert_array_equal(twice, np.maximum(np.maximum(a, 0.0) + a, 0.0))


# ---- Types ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dtype", "tolerance"),
    [("f32", F32), ("f16", F16), ("f64", F64)],
)
def test_float_tensors(run, dtype: str, tolerance: dict) -> None:
    (a, b), (x, m, s) = run(f"type_{dtype}", "typed")
    wide_a, wide_b = a.astype(np.float64), b.astype(np.float64)
    expected_x = np.exp(wide_a * wide_b.T) - wide_a
    for got, expected in ((x, expected_x), (m, wide_a @ wide_b), (s, expected_x.sum(axis=1))):
        assert got.dtype == a.dtype
        close(got.astype(np.float64), expected.astype(a.dtype).astype(np.float64), tolerance)


@pytest.mark.parametrize("dtype", ["i8", "i32", "i64"])
def test_integer_tensors(run, dtype: str) -> None:
    # Wrapping arithmetic in the element type, as arith's integer ops define it.
    (a, b), (x, m, s) = run(f"type_{dtype}", "typed")
    with np.errstate(over="ignore"):
        expected_x = np.maximum(a * b.T - a, b.T)
        expected_m = (a.astype(np.int64) @ b.astype(np.int64)).astype(a.dtype)
    np.testing.assert_array_equal(x, expected_x)
    np.testing.assert_array_equal(m, expected_m)
    np.testing.assert_array_equal(s, np.maximum(expected_x.max(axis=1), a.dtype.type(-128)))


def test_i1_tensors(run) -> None:
    (a, b, x), (logic, selected) = run("type_i1", "typed")
    expected = (a & b) ^ (x > 0)
    assert logic.dtype == np.bool_
    np.testing.assert_array_equal(logic, expected)
    np.testing.assert_array_equal(selected, np.where(expected, x, -x))


def test_scalar_arguments_and_results(run) -> None:
    # f32 and i8 / i16 / i32 / i64 scalars in, an i64 scalar out.
    x = np.arange(16, dtype=np.float32).reshape(4, 4)
    n = np.array([1, -2, 3, -4], np.int32)
    args = (x, 2.5, n, 3, np.int8(-7), np.int16(300), np.int64(1 << 40))
    _, (y, z, c) = run("scalar_arguments", "scale", *args)
    np.testing.assert_array_equal(y, x * np.float32(2.5))
    np.testing.assert_array_equal(z, n * 3 - 7 + 300)
    assert c == 1 << 40


# ---- Dynamic shapes -------------------------------------------------------------------------------

DYNAMIC_ROW_SUM = """func.func @rowsum(%a: tensor<?x?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]} ins(%a : tensor<?x?xf32>) outs(%f : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}"""


def test_dynamic_shapes() -> None:
    """One module with `?` sizes runs at every size (more in `tests/dynamic/`)."""
    module = ireelab.compile(DYNAMIC_ROW_SUM)
    rng = np.random.default_rng(3)
    for shape in [(1, 1), (5, 7), (33, 64)]:
        a = rng.standard_normal(shape, dtype=np.float32)
        np.testing.assert_allclose(module.rowsum(a), a.sum(axis=1), rtol=1e-5, atol=1e-6)


DYNAMIC_CONCAT_TAIL = """func.func @f(%a: tensor<?x4xf32>, %b: tensor<4x?xf32>) -> (tensor<?x4xf32>, tensor<4x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?x4xf32>
  %m = arith.subi %n, %c1 : index
  %tail = tensor.extract_slice %a[1, 0] [%m, 4] [1, 1] : tensor<?x4xf32> to tensor<?x4xf32>
  %rows = tensor.concat dim(0) %tail, %a : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %cols = tensor.concat dim(1) %b, %b : (tensor<4x?xf32>, tensor<4x?xf32>) -> tensor<4x?xf32>
  return %rows, %cols : tensor<?x4xf32>, tensor<4x?xf32>
}"""


def test_dynamic_concat_and_slices() -> None:
    """`?` concats and a slice positioned by a shape, one module at every size (more in
    `tests/dynamic/test_dynamic_slices_concat.py`)."""
    module = ireelab.compile(DYNAMIC_CONCAT_TAIL)
    rng = np.random.default_rng(4)
    for n in (1, 5, 70):
        a = rng.standard_normal((n, 4), dtype=np.float32)
        b = rng.standard_normal((4, n + 1), dtype=np.float32)
        rows, cols = module.f(a, b)
        np.testing.assert_array_equal(rows, np.concatenate([a[1:], a]))
        np.testing.assert_array_equal(cols, np.concatenate([b, b], axis=1))


# ---- Refused with a located error ---------------------------------------------------------------

REFUSED = {
    "dynamic shapes outside the first family": """func.func @f(%a: tensor<1x2x6x6xf32>, %w: tensor<2x2x?x?xf32>, %o: tensor<1x2x?x?xf32>) -> tensor<1x2x?x?xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a, %w : tensor<1x2x6x6xf32>, tensor<2x2x?x?xf32>) outs(%o : tensor<1x2x?x?xf32>) -> tensor<1x2x?x?xf32>
  return %r : tensor<1x2x?x?xf32>
}""",
    "dynamic slice offsets from float arguments": """func.func @f(%a: tensor<8x4xf32>, %x: f32) -> tensor<2x4xf32> {
  %n = arith.fptosi %x : f32 to i32
  %i = arith.index_cast %n : i32 to index
  %s = tensor.extract_slice %a[%i, 0] [2, 4] [1, 1] : tensor<8x4xf32> to tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}""",
    "a pad value that depends on the position": """func.func @f(%a: tensor<3x5xf32>) -> tensor<4x6xf32> {
  %p = tensor.pad %a low[1, 1] high[0, 0] {
  ^bb0(%i: index, %j: index):
    %k = arith.index_cast %i : index to i32
    %v = arith.sitofp %k : i32 to f32
    tensor.yield %v : f32
  } : tensor<3x5xf32> to tensor<4x6xf32>
  return %p : tensor<4x6xf32>
}""",
    "math in host code": """func.func @f(%s: f32) -> f32 {
  %r = math.exp %s : f32
  return %r : f32
}""",
    **{
        f"{t} scalar arguments": f"""func.func @f(%a: tensor<4xf32>, %s: {t}) -> tensor<4xf32> {{
  return %a : tensor<4xf32>
}}"""
        for t in ("f16", "f64", "i1")
    },
}


def test_f32_constants_in_host_code_compile() -> None:
    """Host f32 arithmetic with a constant (the VM's `vm.const.f32`), once refused."""
    module = ireelab.compile(
        """func.func @f(%s: f32) -> f32 {
  %c = arith.constant 2.5 : f32
  %r = arith.mulf %s, %c : f32
  return %r : f32
}"""
    )
    assert float(module.f(np.float32(3.0))) == 7.5


@pytest.mark.parametrize("text", list(REFUSED.values()), ids=list(REFUSED))
def test_refused_with_a_located_error(text: str) -> None:
    with pytest.raises(CompileError) as err:
        ireelab.compile(text)
    assert err.value.location is not None and err.value.location.line >= 1
    assert err.value.stage is not None
    assert "\n" not in err.value.message


# ---- As IREE 3.13 places them (the real compiler, where installed) ---------------------------

skip_without_iree = pytest.mark.skipif(not is_available(), reason=INSTALL_HINT)

NOT_IREE_INPUT = {"elementwise_named"}
"""Programs IREE 3.13 does not parse (MLIR's named elementwise ops are gone from its LLVM)."""

IREE_DOES_NOT_COMPILE = {
    "splat": "IREE 3.13 fails to legalize a tensor.splat of a runtime value "
    "(`failed to legalize operation 'tensor.splat'`); only splats of constants compile",
}
IREE_COMPUTES_OTHERWISE = {
    **IREE_DOES_NOT_COMPILE,
    "extract_insert": "IREE 3.13's tensor.insert of one f32 at [1, 0] of a 4x4 fills 20 "
    "bytes (five elements) with it; ireelab writes the one element numpy writes",
}
"""Programs where IREE 3.13 itself fails; strict xfails, so an IREE that gets them right turns
the test red and the README's note gets revisited."""

IREE_FLAGS = {"type_f64": ("--iree-input-demote-f64-to-f32=false",)}
"""IREE demotes f64 to f32 by default (DemoteF64ToF32Pass), which ireelab does not model: the
f64 program is compared with that demotion off."""


def iree_cases(known: dict[str, str]) -> list:
    names = sorted(p.stem for p in PROGRAMS.glob("*.mlir") if p.stem not in NOT_IREE_INPUT)
    return [
        pytest.param(
            name,
            marks=[pytest.mark.xfail(reason=known[name], strict=True)] if name in known else [],
        )
        for name in names
    ]


@pytest.fixture(scope="module")
def iree_compiled():
    from ireelab.iree import compile as iree_compile
    from ireelab.iree.iree_compile import DEFAULT_FLAGS

    modules: dict[str, object] = {}

    def compile_(name: str):
        if name not in modules:
            flags = (*DEFAULT_FLAGS, *IREE_FLAGS.get(name, ()))
            modules[name] = iree_compile(source(name), flags=flags, trace=False, keep=("flow",))
        return modules[name]

    return compile_


def _public_functions(name: str) -> list[str]:
    return {"func_call": ["layer", "twice"]}.get(name, [None])


@pytest.mark.iree
@skip_without_iree
@pytest.mark.parametrize("name", iree_cases(IREE_DOES_NOT_COMPILE))
def test_as_iree_places_them_same_dispatch_sites_and_names(
    name: str, compiled, iree_compiled
) -> None:
    from ireelab.iree.ir_summary import summarize_dispatches

    theirs = iree_compiled(name).dispatches()
    ours = summarize_dispatches(compiled(name).trace.stage("flow")[-1].ir)
    assert [(s.export, s.ops) for s in ours.sites] == [(s.export, s.ops) for s in theirs.sites]


@pytest.mark.iree
@skip_without_iree
@pytest.mark.parametrize("name", iree_cases(IREE_COMPUTES_OTHERWISE))
def test_as_iree_computes_them_same_results(name: str, run, iree_compiled) -> None:
    for function in _public_functions(name):
        entry, args = inputs(name, function)
        _, ours = run(name, entry, *args)
        theirs = iree_compiled(name).invoke_all(entry, *args, device="local-sync")
        assert len(ours) == len(theirs)
        for mine, real in zip(ours, theirs, strict=True):
            mine, real = np.asarray(mine), np.asarray(real)
            if real.ndim == 0:  # iree.runtime returns a scalar result as a Python number
                real = real.astype(mine.dtype)
            assert mine.shape == real.shape and mine.dtype == real.dtype
            if mine.dtype.kind == "f":
                scale = float(np.nanmax(np.abs(real))) if real.size else 0.0
                if mine.dtype == np.float16:
                    np.testing.assert_allclose(mine, real, **F16)
                else:
                    np.testing.assert_allclose(mine, real, rtol=0, atol=1e-5 + 1e-4 * scale)
            else:
                np.testing.assert_array_equal(mine, real)
