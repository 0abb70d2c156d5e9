"""End to end: host reads and writes of single tensor elements (`tensor.extract` /
`tensor.insert` left in host code: `flow.tensor.load` / `flow.tensor.store`), compiled the way
IREE 3.13 does them (a copy into a staging buffer read with `hal.buffer.load`; a one-element
`stream.cmd.fill`) and run on the HAL runtime, compared with numpy.

Every value is an element copied bit for bit or one exact integer / f32 operation, so all
comparisons are exact (the 0-d f32 reduction sums small integers, exact in f32 too).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAMS = Path(__file__).parent.parent / "flow" / "programs"
RNG = np.random.default_rng(23)

EXTRACT = """
func.func @extract(%a: tensor<4x6x{T}>) -> {T} {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %v = tensor.extract %a[%c1, %c4] : tensor<4x6x{T}>
  return %v : {T}
}
"""

REDUCE_TO_SCALAR = """
func.func @total(%a: tensor<4x6x{T}>) -> {T} {
  %zero = arith.constant {ZERO} : {T}
  %e = tensor.empty() : tensor<{T}>
  %init = linalg.fill ins(%zero : {T}) outs(%e : tensor<{T}>) -> tensor<{T}>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>],
                       iterator_types = ["reduction", "reduction"]}
      ins(%a : tensor<4x6x{T}>) outs(%init : tensor<{T}>) {
  ^bb0(%x: {T}, %acc: {T}):
    %s = {ADD} %x, %acc : {T}
    linalg.yield %s : {T}
  } -> tensor<{T}>
  %v = tensor.extract %m[] : tensor<{T}>
  return %v : {T}
}
"""

DISPATCH_RESULT_AND_ELEMENT = """
#m = affine_map<(d0, d1) -> (d0, d1)>
func.func @both(%a: tensor<4x6x{T}>, %b: tensor<4x6x{T}>) -> (tensor<4x6x{T}>, {T}) {
  %e = tensor.empty() : tensor<4x6x{T}>
  %p = linalg.generic {indexing_maps = [#m, #m, #m], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x6x{T}>, tensor<4x6x{T}>) outs(%e : tensor<4x6x{T}>) {
  ^bb0(%x: {T}, %y: {T}, %o: {T}):
    %z = {MUL} %x, %y : {T}
    linalg.yield %z : {T}
  } -> tensor<4x6x{T}>
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %v = tensor.extract %p[%c2, %c3] : tensor<4x6x{T}>
  return %p, %v : tensor<4x6x{T}>, {T}
}
"""

INSERT_INTO_COMPUTED = """
#m = affine_map<(d0, d1) -> (d0, d1)>
func.func @insert(%a: tensor<4x6x{T}>, %b: tensor<4x6x{T}>) -> tensor<4x6x{T}> {
  %e = tensor.empty() : tensor<4x6x{T}>
  %p = linalg.generic {indexing_maps = [#m, #m, #m], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x6x{T}>, tensor<4x6x{T}>) outs(%e : tensor<4x6x{T}>) {
  ^bb0(%x: {T}, %y: {T}, %o: {T}):
    %z = {ADD} %x, %y : {T}
    linalg.yield %z : {T}
  } -> tensor<4x6x{T}>
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %v = tensor.extract %a[%c0, %c5] : tensor<4x6x{T}>
  %r = tensor.insert %v into %p[%c0, %c5] : tensor<4x6x{T}>
  return %r : tensor<4x6x{T}>
}
"""

TYPES = {
    "i32": dict(T="i32", ZERO="0", ADD="arith.addi", MUL="arith.muli"),
    "f32": dict(T="f32", ZERO="0.0", ADD="arith.addf", MUL="arith.mulf"),
}


def _program(template: str, dtype: str) -> str:
    text = template
    for key, value in TYPES[dtype].items():
        text = text.replace("{" + key + "}", value)
    return text


def _array(dtype: str, *shape: int) -> np.ndarray:
    return RNG.integers(-9, 10, shape).astype({"i32": np.int32, "f32": np.float32}[dtype])


@pytest.mark.parametrize("dtype", ["i32", "f32"])
def test_extract_from_an_argument(compile_cached, dtype: str) -> None:
    a = _array(dtype, 4, 6)
    result = compile_cached(_program(EXTRACT, dtype)).extract(a)
    assert result.dtype == a.dtype and result == a[1, 4]


@pytest.mark.parametrize("dtype", ["i32", "f32"])
def test_extract_of_a_0d_reduction(compile_cached, dtype: str) -> None:
    a = _array(dtype, 4, 6)
    result = compile_cached(_program(REDUCE_TO_SCALAR, dtype)).total(a)
    assert result.dtype == a.dtype and result == a.sum(dtype=a.dtype)


@pytest.mark.parametrize("dtype", ["i32", "f32"])
def test_extract_from_a_dispatch_result_returned_beside_it(compile_cached, dtype: str) -> None:
    a, b = _array(dtype, 4, 6), _array(dtype, 4, 6)
    tensor, scalar = compile_cached(_program(DISPATCH_RESULT_AND_ELEMENT, dtype)).both(a, b)
    np.testing.assert_array_equal(tensor, a * b)
    assert scalar.dtype == a.dtype and scalar == (a * b)[2, 3]


@pytest.mark.parametrize("dtype", ["i32", "f32"])
def test_insert_an_extracted_scalar_into_a_computed_tensor(compile_cached, dtype: str) -> None:
    a, b = _array(dtype, 4, 6), _array(dtype, 4, 6)
    expected = a + b
    expected[0, 5] = a[0, 5]
    np.testing.assert_array_equal(
        compile_cached(_program(INSERT_INTO_COMPUTED, dtype)).insert(a, b), expected
    )


def test_insert_a_scalar_argument_writes_one_element_and_leaves_the_argument(
    compile_cached,
) -> None:
    # IREE 3.13 fills 28 bytes here (seven elements) and writes into the argument itself.
    module = compile_cached((PROGRAMS / "insert_on_host.mlir").read_text())
    a = _array("f32", 4, 6)
    before = a.copy()
    expected = a.copy()
    expected[1, 2] = 7.5
    np.testing.assert_array_equal(module.ins(a, np.float32(7.5)), expected)
    np.testing.assert_array_equal(a, before)


def test_extract_then_splat_on_the_host(compile_cached) -> None:
    module = compile_cached((PROGRAMS / "splat_of_host_extract.mlir").read_text())
    a, b = _array("f32", 4, 6), _array("f32", 4, 6)
    np.testing.assert_array_equal(module.ex(a, b), b + a[1, 2])


def test_extract_on_local_task(compile_cached) -> None:
    a, b = _array("f32", 4, 6), _array("f32", 4, 6)
    module = compile_cached(_program(DISPATCH_RESULT_AND_ELEMENT, "f32"), device="local-task")
    tensor, scalar = module.both(a, b)
    np.testing.assert_array_equal(tensor, a * b)
    assert scalar == (a * b)[2, 3]


def test_run_module_prints_scalar_results_as_iree(tmp_path: Path) -> None:
    path = tmp_path / "both.ilvm"
    ireelab.compile(_program(DISPATCH_RESULT_AND_ELEMENT, "i32")).save(str(path))
    run = subprocess.run(
        [
            sys.executable, "-m", "ireelab.tools.run_module", f"--module={path}",
            "--function=both", "--input=4x6xi32=3", "--input=4x6xi32=2",
        ],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "EXEC @both"
    assert lines[1] == "result[0]: hal.buffer_view"
    assert lines[-1] == "result[1]: i32=6"


INSERT_I64 = """
func.func @f(%a: tensor<4xi64>, %x: i64) -> tensor<4xi64> {
  %c1 = arith.constant 1 : index
  %0 = tensor.insert %x into %a[%c1] : tensor<4xi64>
  return %0 : tensor<4xi64>
}
"""


def test_insert_an_i64_scalar_writes_both_words(compile_cached) -> None:
    """The host writes an i64 element as two 32-bit fills (low word first), so values with
    high bits set, and negative ones, land whole."""
    module = compile_cached(INSERT_I64)
    a = np.arange(4, dtype=np.int64) * 3
    for x in (2**40 + 5, -3, 7, -(2**33)):
        expected = a.copy()
        expected[1] = x
        np.testing.assert_array_equal(module.f(a, np.int64(x)), expected)


FROM_ELEMENTS = """
func.func @gather(%a: tensor<4xi64>, %b: tensor<2x3xf32>)
    -> (tensor<3xi64>, tensor<2x2xf32>, tensor<1xi64>, tensor<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %a0 = tensor.extract %a[%c0] : tensor<4xi64>
  %a2 = tensor.extract %a[%c2] : tensor<4xi64>
  %a3 = tensor.extract %a[%c3] : tensor<4xi64>
  %s = arith.addi %a0, %a3 : i64
  %v = tensor.from_elements %a3, %s, %a2 : tensor<3xi64>
  %b01 = tensor.extract %b[%c0, %c1] : tensor<2x3xf32>
  %b12 = tensor.extract %b[%c1, %c2] : tensor<2x3xf32>
  %b10 = tensor.extract %b[%c1, %c0] : tensor<2x3xf32>
  %m = tensor.from_elements %b12, %b01, %b10, %b12 : tensor<2x2xf32>
  %one = tensor.from_elements %s : tensor<1xi64>
  %onef = tensor.from_elements %b10 : tensor<1xf32>
  return %v, %m, %one, %onef : tensor<3xi64>, tensor<2x2xf32>, tensor<1xi64>, tensor<1xf32>
}
"""


def test_from_elements_on_the_host(compile_cached) -> None:
    """A host `tensor.from_elements` is a `flow.tensor.empty` and one store per element in
    row-major order, as IREE's TensorToFlow patterns write it."""
    module = compile_cached(FROM_ELEMENTS)
    a = np.array([2**36 + 1, 5, -7, 2**35], np.int64)
    b = _array("f32", 2, 3)
    v, m, one, onef = module.gather(a, b)
    np.testing.assert_array_equal(v, [a[3], a[0] + a[3], a[2]])
    np.testing.assert_array_equal(m, [[b[1, 2], b[0, 1]], [b[1, 0], b[1, 2]]])
    np.testing.assert_array_equal(one, [a[0] + a[3]])
    np.testing.assert_array_equal(onef, [b[1, 0]])
    flow = ireelab.compile(FROM_ELEMENTS, compile_to="flow").ir()
    # 3 + 4 stores; the one 64-bit element is stored too (a runtime i64 splat is not)
    assert flow.count("flow.tensor.store") == 8
    assert re.search(r"flow\.tensor\.splat %\w+ : tensor<1xf32>", flow)
