"""End to end: scalar function arguments and results, as IREE 3.13 compiles and runs them.

A scalar argument (`%s: f32`) stays a scalar through the ABI (`util.func @f(%arg0:
!hal.buffer_view, %arg1: f32)`), becomes a dispatch operand at flow, a 32-bit push constant at
stream (`arith.bitcast %arg1 : f32 to i32`; an i64 split into two words), is read in the kernel
with `hal.interface.constant.load` and bitcast back, and in the VM is bitcast with
`vm.bitcast.f32.i32` before `hal.command_buffer.dispatch`. Results are compared with numpy
exactly (one f32 multiply or add per element, done the same way by both).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import ireelab
from ireelab.diagnostics import RuntimeInputError
from ireelab.tools import run_module

PROGRAMS = Path(__file__).parent.parent / "flow" / "programs"
RNG = np.random.default_rng(5)
ELEMENTWISE = (
    "indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], "
    'iterator_types = ["parallel", "parallel"]'
)

SCALE_F32 = f"""
func.func @scale(%x: tensor<4x6xf32>, %s: f32) -> tensor<4x6xf32> {{
  %e = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {{{ELEMENTWISE}}} ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {{
  ^bb0(%i: f32, %o: f32):
    %m = arith.mulf %i, %s : f32
    linalg.yield %m : f32
  }} -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}}
"""

OFFSET_I32 = f"""
func.func @offset(%x: tensor<3x5xi32>, %k: i32) -> tensor<3x5xi32> {{
  %e = tensor.empty() : tensor<3x5xi32>
  %r = linalg.generic {{{ELEMENTWISE}}} ins(%x : tensor<3x5xi32>) outs(%e : tensor<3x5xi32>) {{
  ^bb0(%i: i32, %o: i32):
    %m = arith.addi %i, %k : i32
    linalg.yield %m : i32
  }} -> tensor<3x5xi32>
  return %r : tensor<3x5xi32>
}}
"""

OFFSET_I64 = OFFSET_I32.replace("i32", "i64")

SCALARS_RESULT = """
func.func @mul(%a: f32, %b: f32) -> f32 {
  %m = arith.mulf %a, %b : f32
  return %m : f32
}
"""

TENSOR_AND_I32_RESULT = """
func.func @next(%n: i32, %x: tensor<4xf32>) -> (tensor<4xf32>, i32) {
  %c1 = arith.constant 1 : i32
  %m = arith.addi %n, %c1 : i32
  return %x, %m : tensor<4xf32>, i32
}
"""


@pytest.fixture(scope="module")
def scale():
    return ireelab.compile(SCALE_F32)


def _f32(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def test_f32_scale_matches_numpy(scale) -> None:
    x = _f32(4, 6)
    np.testing.assert_array_equal(scale.scale(x, 2.5), x * np.float32(2.5))


def test_different_scalars_give_different_results(scale) -> None:
    # the argument is a push constant read at run time, not folded into the kernel
    x = _f32(4, 6)
    for s in (np.float32(-1.0), 0.125, 3, np.float64(1e-3)):
        np.testing.assert_array_equal(scale.scale(x, s), x * np.float32(s))


def test_special_f32_values_pass_bit_exactly(scale) -> None:
    x = np.ones((4, 6), np.float32)
    out = scale.scale(x, -0.0)
    assert np.all(np.signbit(out)) and np.all(out == 0)
    assert np.all(np.isinf(scale.scale(x, np.inf)))
    assert np.all(np.isnan(scale.scale(x, np.nan)))


def test_invoke_takes_a_numpy_scalar(scale) -> None:
    x = _f32(4, 6)
    np.testing.assert_array_equal(scale.invoke("scale", x, np.float32(0.5)), x * 0.5)


def test_i32_offset_added_to_an_i32_tensor() -> None:
    module = ireelab.compile(OFFSET_I32)
    x = RNG.integers(-1000, 1000, (3, 5)).astype(np.int32)
    np.testing.assert_array_equal(module.offset(x, 7), x + 7)
    np.testing.assert_array_equal(module.offset(x, np.int32(-(2**31))), x + np.int32(-(2**31)))
    # a signless i32 also takes an unsigned 32-bit value: its bits
    np.testing.assert_array_equal(module.offset(x, 2**32 - 1), x - 1)


def test_i64_offset_crosses_the_32_bit_words() -> None:
    # an i64 operand travels as two i32 push constants (low word, high word)
    module = ireelab.compile(OFFSET_I64)
    x = RNG.integers(-1000, 1000, (3, 5)).astype(np.int64)
    for k in (5_000_000_001, -9, -(2**40) - 3, 2**63 - 1001):
        np.testing.assert_array_equal(module.offset(x, k), x + np.int64(k))


def test_two_scalar_arguments() -> None:
    source = f"""
    func.func @axpb(%x: tensor<4x6xf32>, %a: f32, %b: f32) -> tensor<4x6xf32> {{
      %e = tensor.empty() : tensor<4x6xf32>
      %r = linalg.generic {{{ELEMENTWISE}}} ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {{
      ^bb0(%i: f32, %o: f32):
        %m = arith.mulf %i, %a : f32
        %s = arith.addf %m, %b : f32
        linalg.yield %s : f32
      }} -> tensor<4x6xf32>
      return %r : tensor<4x6xf32>
    }}
    """
    module = ireelab.compile(source)
    # x * a is exact here, so a fused multiply-add (fast-math contraction) rounds the same
    x = RNG.integers(-64, 64, (4, 6)).astype(np.float32) / 8
    a, b = np.float32(1.5), np.float32(-0.25)
    np.testing.assert_array_equal(module.axpb(x, a, b), x * a + b)
    np.testing.assert_array_equal(module.axpb(x, b, a), x * b + a)


def test_scalar_used_in_two_dispatches() -> None:
    # a reduction and an elementwise op that reads its result: two dispatches, one scalar
    source = """
    func.func @two(%x: tensor<4x6xf32>, %s: f32) -> (tensor<4xf32>, tensor<4x6xf32>) {
      %z = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<4xf32>
      %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
      %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x6xf32>) outs(%f : tensor<4xf32>) {
      ^bb0(%i: f32, %o: f32):
        %m = arith.mulf %i, %s : f32
        %a = arith.addf %m, %o : f32
        linalg.yield %a : f32
      } -> tensor<4xf32>
      %e2 = tensor.empty() : tensor<4x6xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<4x6xf32>, tensor<4xf32>) outs(%e2 : tensor<4x6xf32>) {
      ^bb0(%i: f32, %t: f32, %o: f32):
        %m = arith.mulf %i, %s : f32
        %a = arith.subf %m, %t : f32
        linalg.yield %a : f32
      } -> tensor<4x6xf32>
      return %sum, %r : tensor<4xf32>, tensor<4x6xf32>
    }
    """
    module = ireelab.compile(source)
    stream_ir = module.trace.find("iree-stream-fold-uniform-operands")[-1].ir
    assert stream_ir.count("stream.cmd.dispatch @") == 2
    # both sites pass the same i32 push constant: the bits of %arg1 (CSE'd, as in IREE)
    assert stream_ir.count("arith.bitcast %arg1 : f32 to i32") == 1
    x = np.arange(24, dtype=np.float32).reshape(4, 6) / 8  # exact sums in any order
    for s in (np.float32(2.0), np.float32(-0.5)):
        total = (x * s).sum(axis=1)
        got_sum, got_r = module.two(x, s)
        np.testing.assert_array_equal(got_sum, total)
        np.testing.assert_array_equal(got_r, x * s - total[:, None])


def test_scalar_result_from_scalar_arguments() -> None:
    module = ireelab.compile(SCALARS_RESULT)
    result = module.mul(np.float32(2.5), 3.0)
    assert isinstance(result, np.float32) and result == np.float32(7.5)
    big = module.mul(np.float32(3.0e38), 10.0)  # f32 arithmetic: overflows to inf
    assert np.isinf(big)


def test_tensor_and_i32_results() -> None:
    module = ireelab.compile(TENSOR_AND_I32_RESULT)
    x = _f32(4)
    out, n = module.next(7, x)
    np.testing.assert_array_equal(out, x)
    assert isinstance(n, np.int32) and n == 8
    assert module.next(2**31 - 1, x)[1] == -(2**31)  # i32 wraps


@pytest.mark.parametrize(
    ("value", "needle"),
    [
        (np.ones((4, 6), np.float32), "expected f32, got an array of shape 4x6"),
        ("2.5", "expected f32, got a str"),
        (True, "expected f32, got a bool"),
        (None, "expected f32, got a NoneType"),
    ],
)
def test_bad_f32_argument_is_one_located_line(scale, value, needle) -> None:
    with pytest.raises(RuntimeInputError) as info:
        scale.scale(_f32(4, 6), value)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("@scale argument 1 (%input1): ") and needle in message


@pytest.mark.parametrize(
    ("value", "needle"),
    [
        (2.5, "expected i32, got a float (2.5)"),
        (np.float32(1.0), "expected i32, got a float (1.0)"),
        (2**40, "out of range for i32"),
        (np.arange(3, dtype=np.int32), "got an array of shape 3"),
    ],
)
def test_bad_i32_argument_is_one_located_line(value, needle) -> None:
    module = ireelab.compile(OFFSET_I32)
    with pytest.raises(RuntimeInputError) as info:
        module.offset(np.zeros((3, 5), np.int32), value)
    assert str(info.value).startswith("@offset argument 1 (%input1): ")
    assert needle in str(info.value)


def test_a_scalar_for_a_tensor_argument_is_refused(scale) -> None:
    with pytest.raises(
        RuntimeInputError, match=r"argument 0 \(%input0\): expected tensor<4x6xf32>"
    ):
        scale.scale(2.5, _f32(4, 6))


# ---- ireelab-run-module, compared with iree-run-module -------------------------------------


def _run_ireelab(tmp_path: Path, source: str, args: list[str], capsys) -> tuple[int, str, str]:
    path = tmp_path / "m.ilvm"
    ireelab.compile(source).save(path)
    code = run_module.main([f"--module={path}", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _run_iree(tmp_path: Path, source: str, args: list[str]) -> subprocess.CompletedProcess:
    mlir, vmfb = tmp_path / "m.mlir", tmp_path / "m.vmfb"
    mlir.write_text(source)
    subprocess.run(
        ["iree-compile", "--iree-hal-target-backends=llvm-cpu", str(mlir), "-o", str(vmfb)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return subprocess.run(
        ["iree-run-module", f"--module={vmfb}", *args], capture_output=True, text=True, timeout=60
    )


needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None or shutil.which("iree-run-module") is None,
    reason="IREE (iree-compile, iree-run-module) not installed",
)

TOOL_CASES = [
    (SCALE_F32, ["--function=scale", "--input=4x6xf32=1", "--input=2.5"]),
    (SCALE_F32, ["--function=scale", "--input=4x6xf32=3", "--input=-0.5"]),
    (OFFSET_I32, ["--function=offset", "--input=3x5xi32=4", "--input=-7"]),
    (OFFSET_I64, ["--function=offset", "--input=3x5xi64=1", "--input=5000000000"]),
    (SCALARS_RESULT, ["--function=mul", "--input=2.5", "--input=3"]),
    (SCALARS_RESULT, ["--function=mul", "--input=100000", "--input=100000"]),
    (TENSOR_AND_I32_RESULT, ["--function=next", "--input=7", "--input=4xf32=1"]),
]  # fmt: skip


@pytest.mark.parametrize(("source", "args"), TOOL_CASES)
def test_run_module_prints_scalars(tmp_path, capsys, source, args) -> None:
    code, out, err = _run_ireelab(tmp_path, source, args, capsys)
    assert code == 0, err
    assert out.startswith("EXEC @")


@needs_iree
@pytest.mark.iree
@pytest.mark.parametrize(("source", "args"), TOOL_CASES)
def test_run_module_output_is_iree_run_modules(tmp_path, capsys, source, args) -> None:
    iree = _run_iree(tmp_path, source, args)
    assert iree.returncode == 0, iree.stderr
    code, out, err = _run_ireelab(tmp_path, source, args, capsys)
    assert code == 0, err
    assert out.strip() == iree.stdout.strip()


@needs_iree
@pytest.mark.iree
def test_run_module_refuses_a_typed_scalar_as_iree_does(tmp_path, capsys) -> None:
    # iree-run-module reads a scalar argument as a bare number; `f32=2.5` is refused by both
    args = ["--function=scale", "--input=4x6xf32=1", "--input=f32=2.5"]
    iree = _run_iree(tmp_path, SCALE_F32, args)
    assert iree.returncode != 0 and "parsing value `f32=2.5` as f32" in iree.stderr
    code, out, err = _run_ireelab(tmp_path, SCALE_F32, args, capsys)
    assert code == 1
    assert err.strip() == "ireelab-run-module: error: parsing value `f32=2.5` as f32"


def test_run_module_refuses_a_float_for_an_i32(tmp_path, capsys) -> None:
    # stricter than iree-run-module, which reads the leading digits of `7.5` as 7
    args = ["--function=offset", "--input=3x5xi32=4", "--input=7.5"]
    code, _out, err = _run_ireelab(tmp_path, OFFSET_I32, args, capsys)
    assert code == 1
    assert err.strip() == "ireelab-run-module: error: parsing value `7.5` as i32"


def test_flow_program_runs() -> None:
    # the flow differential corpus program (%a read by two dispatches) runs too; small
    # integers and halves keep the matmul exact in any summation order
    module = ireelab.compile((PROGRAMS / "scalar_argument_elementwise.mlir").read_text())
    x = RNG.integers(-3, 4, (4, 6)).astype(np.float32)
    w = RNG.integers(-3, 4, (6, 3)).astype(np.float32)
    for a, b in ((2.0, 0.5), (-1.0, 4.0)):
        want = ((x * np.float32(a) + np.float32(b)) @ w) * np.float32(a)
        np.testing.assert_array_equal(module.scale_shift(x, w, a, b), want)
