"""Buffer views as text for every element type, as IREE's tools read and print them
(`runtime/src/iree/hal/string_util.c`): integers like `strtol` base 0 wrapped to their width,
f16 through f32 and printed with `%G`, i1 as hex bytes; and numpy arrays at the Python ABI."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from ireelab.diagnostics import RuntimeInputError
from ireelab.runtime.hal.string_util import format_array, parse_input

PROGRAM = """
func.func @add_i8(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
  %r = arith.addi %a, %b : tensor<4xi8>
  return %r : tensor<4xi8>
}
func.func @add_f16(%a: tensor<4xf16>, %b: tensor<4xf16>) -> tensor<4xf16> {
  %r = arith.addf %a, %b : tensor<4xf16>
  return %r : tensor<4xf16>
}
"""

CASES = [
    ("add_i8", ["4xi8=127 -128 5 -1", "4xi8=1 -1 0x10 -1"], "4xi8=-128 127 21 -2"),
    ("add_i8", ["4xi8=200", "4xi8=010 0 0 0"], "4xi8=-48 -56 -56 -56"),
    ("add_f16", ["4xf16=1.5 2 3.33333 65504", "4xf16=1 0.001 -1e-7 100"],
     "4xf16=2.5 2.00195 3.33398 INF"),
]  # fmt: skip
"""(function, inputs, the result line `iree-run-module` 3.13 prints for them)."""


def test_integers_read_like_strtol_and_wrap():
    np.testing.assert_array_equal(
        parse_input("5xi8=200 -128 0x10 010 -0x7f"), np.array([-56, -128, 16, 8, -127], np.int8)
    )
    assert parse_input("2xi64=-1 9223372036854775807").dtype == np.int64


def test_f16_reads_through_f32_and_prints_with_percent_g():
    values = parse_input("3xf16=3.33333 65519 1e-8")
    assert values.dtype == np.float16
    np.testing.assert_array_equal(values, np.array([3.333984375, 65504, 0], np.float16))
    assert format_array(np.array([2.001953125, np.inf, -np.inf], np.float16)) == (
        "3xf16=2.00195 INF -INF"
    )


def test_i1_is_hex_bytes_both_ways():
    mask = parse_input("2x2xi1=[01 00][00 01]")
    np.testing.assert_array_equal(mask, np.array([[True, False], [False, True]]))
    assert format_array(mask) == "2x2xi1=[01 00][00 01]"
    np.testing.assert_array_equal(parse_input("3xi1=03 02 00"), [True, False, False])  # low bit
    with pytest.raises(RuntimeInputError, match="two hex digits"):
        parse_input("2xi1=1 0")


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    directory = tmp_path_factory.mktemp("text_io")
    (directory / "p.mlir").write_text(PROGRAM)
    subprocess.run(
        ["ireelab-compile", str(directory / "p.mlir"), "-o", str(directory / "p.ilvm")],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    return directory


def _result_line(tool: str, module, function: str, inputs: list[str]) -> str:
    command = [tool, f"--module={module}", f"--function={function}"]
    done = subprocess.run(
        command + [f"--input={i}" for i in inputs], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()[-1]


@pytest.mark.parametrize("function, inputs, expected", CASES)
def test_run_module_prints_what_iree_prints(modules, function, inputs, expected):
    assert _result_line("ireelab-run-module", modules / "p.ilvm", function, inputs) == expected


def test_iree_run_module_still_prints_that(modules):
    """The recorded lines above, regenerated with the installed IREE tools."""
    if shutil.which("iree-compile") is None or shutil.which("iree-run-module") is None:
        pytest.skip("the real IREE tools are not installed")
    vmfb = modules / "p.vmfb"
    subprocess.run(
        ["iree-compile", "--iree-hal-target-backends=llvm-cpu", "--iree-llvmcpu-target-cpu=host",
         str(modules / "p.mlir"), "-o", str(vmfb)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    for function, inputs, expected in CASES:
        assert _result_line("iree-run-module", vmfb, function, inputs) == expected


def test_signless_integers_take_unsigned_arrays(modules):
    """IREE's buffer view check lets a uint8 array stand for an i8 argument; the bits are the
    same, the result is i8."""
    import ireelab

    module = ireelab.load(str(modules / "p.ilvm"))
    result = module.add_i8(np.array([200, 1, 2, 3], np.uint8), np.array([100, 1, 1, 1], np.int8))
    assert result.dtype == np.int8
    np.testing.assert_array_equal(result, [44, 2, 3, 4])
    with pytest.raises(RuntimeInputError, match="dtype int16"):
        module.add_i8(np.zeros(4, np.int16), np.zeros(4, np.int8))
