"""`complex<f32>` tensors through every stage, as iree-compile carries them on llvm-cpu.

IREE keeps complex tensors whole through Flow and Stream (8 bytes an element, dispatch names
spelling the type `complex_f32_`), and its CPU codegen lowers complex arithmetic to float
arithmetic on the parts (ConvertComplexToStandardPass), a complex value being a pair of
floats. ireelab does the same; its kernels hold the pair as numba's complex64. Compared with
numpy (complex64 arithmetic: rtol 1e-5, the parts' float rounding differs by an ulp or two)
and, where installed, with the real IREE.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAMS = Path(__file__).parent / "programs"
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}
"""complex64 results against numpy's complex64 (f32 parts, a few ulps apart)."""

X = np.array([1 + 2j, -3 + 0.5j, 0, 1e30 + 1e30j, 2 - 2j, 5j], np.complex64)
Y = np.array([3 - 1j, 1e-3 + 2j, 1 + 1j, 1e30 - 1e30j, 2 - 2j, -4j], np.complex64)
"""Divisors with either part the larger, and a pair whose naive quotient overflows f32."""


def _parts_inputs():
    rng = np.random.default_rng(3)
    return [rng.standard_normal((4, 8)).astype(np.float32) for _ in range(2)]


def _parts_reference(re: np.ndarray, im: np.ndarray):
    c = (re + 1j * im).astype(np.complex64)
    z = c * c + c
    t = z.T
    return np.abs(z) + (z.real - z.imag), np.stack([t.real, t.imag], -1)


@pytest.fixture(scope="module")
def parts_module():
    return ireelab.compile(str(PROGRAMS / "complex_parts.mlir"))


@pytest.fixture(scope="module")
def arithmetic_module():
    return ireelab.compile(str(PROGRAMS / "complex_arithmetic.mlir"))


def test_create_mul_abs_transpose_and_bitcast(parts_module):
    got = parts_module.cplx(*_parts_inputs())
    for g, w in zip(got, _parts_reference(*_parts_inputs()), strict=True):
        assert g.shape == w.shape and g.dtype == np.float32
        np.testing.assert_allclose(g, w, **TOLERANCE)


def test_complex_arguments_and_results(arithmetic_module):
    quotient, equal = arithmetic_module.ops(X, Y)
    assert quotient.dtype == np.complex64
    np.testing.assert_allclose(quotient, -(X / Y) - np.conj(Y), **TOLERANCE)
    np.testing.assert_array_equal(equal, X == Y)


def test_dispatches_keep_complex_tensors_and_spell_the_type(parts_module):
    flow = ireelab.compile(str(PROGRAMS / "complex_parts.mlir"), compile_to="flow").ir()
    exports = re.findall(r"flow\.executable\.export public @(\w+)", flow)
    # the names iree-compile 3.13 gives these two dispatches
    assert exports == [
        "cplx_dispatch_0_elementwise_32_f32xf32xcomplex_f32_xf32",
        "cplx_dispatch_1_transpose_4x8_complex_f32_",
    ]
    assert re.search(
        r"flow\.tensor\.bitcast %\w+ : tensor<8x4xcomplex<f32>> -> tensor<8x4x2xf32>", flow
    )


def test_codegen_leaves_only_pairs_built_and_read(arithmetic_module):
    records = {r.name: r for r in arithmetic_module.trace}
    after = records["ConvertComplexToStandardPass"].ir
    before = arithmetic_module.trace[
        [r.name for r in arithmetic_module.trace].index("ConvertComplexToStandardPass") - 1
    ].ir
    for name in ("complex.div", "complex.neg", "complex.conj", "complex.sub", "complex.eq"):
        assert name in before and name not in after
    left = set(re.findall(r"complex\.\w+", after))
    assert left <= {"complex.create", "complex.re", "complex.im"}


def test_an_unexpanded_complex_op_is_a_located_codegen_error():
    from ireelab.diagnostics import CompileError

    source = (PROGRAMS / "complex_arithmetic.mlir").read_text()
    # complex.constant: MLIR's pass lowers it to a create of two constants; ireelab not yet
    source = source.replace("%n = complex.neg %q", "%n = complex.constant [1.0 : f32, 2.0 : f32]")
    with pytest.raises(CompileError) as info:
        ireelab.compile(source)
    message = str(info.value)
    assert "[codegen]" in message and "'complex.constant'" in message and ":10:" in message


# ---- against the real IREE -----------------------------------------------------------------

needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)


@pytest.mark.iree
@needs_iree
def test_dispatch_names_match_iree():
    import ireelab.iree

    for name in ("complex_parts", "complex_arithmetic"):
        path = str(PROGRAMS / f"{name}.mlir")
        theirs = ireelab.iree.compile(path, compile_to="flow", trace=False).ir()
        ours = ireelab.compile(path, compile_to="flow").ir()
        exports = r"flow\.executable\.export public @(\w+)"
        assert re.findall(exports, ours) == re.findall(exports, theirs)


@pytest.mark.iree
@needs_iree
def test_results_match_iree(parts_module, arithmetic_module):
    import ireelab.iree

    theirs = ireelab.iree.compile(str(PROGRAMS / "complex_parts.mlir"), trace=False)
    args = _parts_inputs()
    for g, w in zip(parts_module.cplx(*args), theirs.invoke_all("cplx", *args), strict=True):
        np.testing.assert_allclose(g, w, **TOLERANCE)
    theirs = ireelab.iree.compile(str(PROGRAMS / "complex_arithmetic.mlir"), trace=False)
    want = theirs.invoke_all("ops", X, Y)
    got = arithmetic_module.ops(X, Y)
    np.testing.assert_allclose(got[0], want[0], **TOLERANCE)
    np.testing.assert_array_equal(got[1], want[1])


@pytest.mark.iree
@needs_iree
def test_division_special_values_match_iree(arithmetic_module):
    # C99's recovery: x / 0 is infinite, inf / finite stays infinite, finite / inf is 0
    import ireelab.iree

    x = np.array([1 + 2j, -3j, complex(np.inf, 1), complex(1, -np.inf), 2 + 2j, 0], np.complex64)
    y = np.array([0, -0.0, 1 + 1j, 2, complex(np.inf, 0), complex(np.nan, 0)], np.complex64)
    theirs = ireelab.iree.compile(str(PROGRAMS / "complex_arithmetic.mlir"), trace=False)
    want = theirs.invoke_all("ops", x, y)[0]
    got = arithmetic_module.ops(x, y)[0]
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
    np.testing.assert_allclose(got, want, equal_nan=True, **TOLERANCE)
