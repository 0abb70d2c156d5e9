"""i1 tensors end to end: IREE stores i1 one byte per element (`hal.element_type<i1>` is
0x13000008, BOOL_8), so they cross the ABI as numpy bool arrays; `ireelab-run-module` reads and
prints them as `iree-run-module` does (each element its byte in two hex digits)."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from ireelab import eager
from ireelab.schemas import hal_element_types as element_types

from .programs import Program, Result

MASK_PROGRAM = Program(
    "masked",
    (("m", "i1"), ("a", "f32"), ("b", "f32")),
    (
        Result("select", "f32", "%select = arith.select %m, %a, %b : f32"),
        Result("greater", "i1", "%greater = arith.cmpf ogt, %a, %b : f32"),
        Result("differs", "i1", "%differs = arith.xori %m, %greater : i1"),
        Result("count", "i32", "%count = arith.extui %m : i1 to i32"),
        Result("minus", "i32", "%minus = arith.extsi %m : i1 to i32"),
    ),
    8,
)

XOR = """
func.func @xor(%a: tensor<4xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  %r = arith.xori %a, %b : tensor<4xi1>
  return %r : tensor<4xi1>
}
"""


def test_bool_element_type_is_iree_bool8():
    assert element_types.MLIR_TO_CODE["i1"] == 0x13000008
    assert element_types.dtype_of("i1") == np.bool_
    assert element_types.mlir_of_dtype(np.dtype(np.bool_)) == "i1"


@pytest.fixture(scope="module")
def masked(ireelab_module):
    rng = np.random.default_rng(2)
    m = np.array([1, 0, 1, 1, 0, 0, 1, 0], np.bool_)
    a = rng.standard_normal(8).astype(np.float32)
    b = rng.standard_normal(8).astype(np.float32)
    module = ireelab_module(MASK_PROGRAM.source())
    return (m, a, b), dict(zip(MASK_PROGRAM.names, module.masked(m, a, b), strict=True))


def test_mask_program_matches_eager(masked):
    args, ours = masked
    reference = eager.evaluate(MASK_PROGRAM.source(), "masked", *args)
    for name, want in zip(MASK_PROGRAM.names, reference, strict=True):
        assert ours[name].dtype == want.dtype, name
        np.testing.assert_array_equal(ours[name], want, err_msg=name)
    m = args[0]
    np.testing.assert_array_equal(ours["minus"], -m.astype(np.int32))  # true is -1 signed


def test_mask_program_matches_real_iree(masked, iree_call):
    args, ours = masked
    theirs = iree_call(MASK_PROGRAM.source(), "masked", *args)
    for name, want in zip(MASK_PROGRAM.names, theirs, strict=True):
        np.testing.assert_array_equal(ours[name], want, err_msg=name)


def test_i1_through_python_api(ireelab_module):
    module = ireelab_module(XOR)
    a = np.array([True, False, True, False])
    b = np.array([True, True, False, False])
    result = module.xor(a, b)
    assert result.dtype == np.bool_
    np.testing.assert_array_equal(result, a ^ b)


def _run(tool: str, module_path, *inputs: str) -> str:
    command = [tool, f"--module={module_path}", "--function=xor", *(f"--input={i}" for i in inputs)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def xor_module(tmp_path_factory):
    directory = tmp_path_factory.mktemp("i1")
    (directory / "xor.mlir").write_text(XOR)
    compiled = subprocess.run(
        ["ireelab-compile", str(directory / "xor.mlir"), "-o", str(directory / "xor.ilvm")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert compiled.returncode == 0, compiled.stderr
    return directory


def test_run_module_reads_and_prints_i1_as_iree(xor_module):
    out = _run("ireelab-run-module", xor_module / "xor.ilvm", "4xi1=01 00 01 00", "4xi1=01")
    assert out.splitlines()[-2:] == ["result[0]: hal.buffer_view", "4xi1=00 01 00 01"]
    np.save(xor_module / "a.npy", np.array([True, False, True, False]))
    out = _run("ireelab-run-module", xor_module / "xor.ilvm", "@" + str(xor_module / "a.npy"),
               "4xi1=00 00 00 01")  # fmt: skip
    assert out.splitlines()[-1] == "4xi1=01 00 01 01"


def test_run_module_output_equals_iree_run_module(xor_module):
    if shutil.which("iree-compile") is None or shutil.which("iree-run-module") is None:
        pytest.skip("the real IREE tools are not installed")
    vmfb = xor_module / "xor.vmfb"
    subprocess.run(
        ["iree-compile", "--iree-hal-target-backends=llvm-cpu",
         "--iree-llvmcpu-target-cpu=host", str(xor_module / "xor.mlir"), "-o", str(vmfb)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    inputs = ("4xi1=01 00 01 00", "4xi1=[01 01][00 00]")
    ours = _run("ireelab-run-module", xor_module / "xor.ilvm", *inputs)
    theirs = _run("iree-run-module", vmfb, *inputs)
    assert ours.splitlines()[-2:] == theirs.splitlines()[-2:]


def test_run_module_rejects_i1_without_hex_bytes(xor_module):
    done = subprocess.run(
        ["ireelab-run-module", f"--module={xor_module / 'xor.ilvm'}", "--function=xor",
         "--input=4xi1=1 0 1 0", "--input=4xi1=00"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode != 0
    assert "two hex digits" in done.stderr
    assert "Traceback" not in done.stderr
