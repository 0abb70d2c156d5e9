"""Issue 9.2: bad calls are one-line errors naming the argument and the expected type.

Through the Python API (`CompiledModule.f(...)`) and `ireelab-run-module`: wrong shape, dtype
or number of arguments, malformed `--input` specs, a missing `.npy`, an unknown function, and a
program whose buffers cannot fit in memory (refused before anything is allocated).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import ireelab
from ireelab.diagnostics import RuntimeInputError
from ireelab.runtime.errors import HALError
from ireelab.tools import run_module

BAD_INPUTS = Path(__file__).resolve().parent.parent / "bad_inputs"
SIGNATURE = "tensor<2x3xf32>"


@pytest.fixture(scope="module")
def module_path(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("runtime_inputs") / "add.ilvm"
    ireelab.compile(str(BAD_INPUTS / "valid_add.mlir"), device="local-sync").save(str(path))
    return path


@pytest.fixture(scope="module")
def mod(module_path):
    return ireelab.load(str(module_path), device="local-sync")


def one_line(err: BaseException) -> str:
    text = str(err)
    assert "\n" not in text and "Traceback" not in text
    return text


A = np.ones((2, 3), np.float32)


@pytest.mark.parametrize(
    "args, fragments",
    [
        ((A, np.ones((3, 2), np.float32)), ["argument 1", SIGNATURE, "shape 3x2"]),
        ((A, np.ones((2, 3), np.float64)), ["argument 1", SIGNATURE, "float64"]),
        ((np.ones((2, 3), np.int32), A), ["argument 0", SIGNATURE, "int32"]),
        ((A,), ["expects 2 argument(s) but got 1", SIGNATURE]),
        ((A, A, A), ["expects 2 argument(s) but got 3"]),
        ((A, np.ones(6, np.float32)), ["argument 1", SIGNATURE]),
        ((A, 1.0), ["argument 1", SIGNATURE]),
    ],
)
def test_python_call_with_bad_arguments(mod, args, fragments):
    with pytest.raises(RuntimeInputError) as info:
        mod.add(*args)
    message = one_line(info.value)
    for fragment in fragments:
        assert fragment in message


def test_python_unknown_function(mod):
    with pytest.raises(AttributeError, match="no function or attribute 'sub'"):
        mod.sub(A, A)
    with pytest.raises(RuntimeInputError, match=r"no function 'sub' .*exports: add"):
        mod.invoke("sub", A, A)


def test_a_good_call_still_works_after_bad_ones(mod):
    np.testing.assert_array_equal(mod.add(A, 2 * A), 3 * A)


def run_cli(argv: list[str], capsys) -> tuple[int, str, list[str]]:
    code = run_module.main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err.splitlines()


@pytest.mark.parametrize(
    "inputs, fragments",
    [
        (["2x3xf32=1"], ["expects 2 argument(s) but got 1"]),
        (["2x3xf32=1", "3x2xf32=1"], ["argument 1", SIGNATURE, "shape 3x2"]),
        (["2x3xi32=1", "2x3xf32=1"], ["argument 0", SIGNATURE, "int32"]),
        (["2x3xf32=1", "garbage"], ["invalid input `garbage`"]),
        (["2x3xq32=1", "2x3xf32=1"], ["element type `q32`"]),
        (["-1x3xf32=1", "2x3xf32=1"], ["`-1x3xf32`"]),
        (["2x3xf32=1 2", "2x3xf32=1"], ["2 values given for 6 elements"]),
        (["2x3xf32=one", "2x3xf32=1"], ["cannot parse the values as f32"]),
        (["2x3xf32=1", "@{tmp}/missing.npy"], ["not found", "missing.npy"]),
        (["2x3xf32=1", "2x3xf32=@{tmp}/missing.bin"], ["not found", "missing.bin"]),
        (["2x3xf32=1", "@{tmp}/not_npy.npy"], ["not_npy.npy"]),
        (["99999999999x99999999999xf32=1", "2x3xf32=1"], ["cannot allocate"]),
    ],
)
def test_run_module_bad_inputs(module_path, tmp_path, capsys, inputs, fragments):
    (tmp_path / "not_npy.npy").write_text("this is not numpy")
    argv = [f"--module={module_path}", "--function=add"]
    argv += [f"--input={spec.format(tmp=tmp_path)}" for spec in inputs]
    code, out, err = run_cli(argv, capsys)
    assert code == 1
    assert len(err) == 1 and err[0].startswith("ireelab-run-module: error: "), err
    for fragment in fragments:
        assert fragment in err[0]
    assert "result[" not in out


def test_run_module_unknown_function_and_missing_module(module_path, tmp_path, capsys):
    code, out, err = run_cli([f"--module={module_path}", "--function=sub"], capsys)
    assert code == 1 and out == ""
    assert err == ["ireelab-run-module: error: no function 'sub' in module 'module' (exports: add)"]
    code, out, err = run_cli([f"--module={tmp_path}/none.ilvm", "--function=add"], capsys)
    assert code == 1 and len(err) == 1 and "module file not found" in err[0]


def test_run_module_good_call(module_path, tmp_path, capsys):
    np.save(tmp_path / "b.npy", np.full((2, 3), 2, np.float32))
    argv = [f"--module={module_path}", "--function=add", "--input=2x3xf32=1"]
    code, out, err = run_cli(argv + [f"--input=@{tmp_path}/b.npy"], capsys)
    assert (code, err) == (0, [])
    assert out.splitlines() == ["EXEC @add", "result[0]: hal.buffer_view", "2x3xf32=[3 3 3][3 3 3]"]


HUGE = """
func.func @f(%a: tensor<4xf32>) -> tensor<100000x100000x4xf32> {
  %e = tensor.empty() : tensor<100000x100000x4xf32>
  %0 = linalg.broadcast ins(%a : tensor<4xf32>) outs(%e : tensor<100000x100000x4xf32>) dimensions = [0, 1]
  return %0 : tensor<100000x100000x4xf32>
}
"""


def test_buffers_that_cannot_fit_are_refused_before_allocation():
    import tracemalloc

    mod = ireelab.compile(HUGE, device="local-sync")
    tracemalloc.start()
    try:
        with pytest.raises(HALError) as info:
            mod.f(np.ones(4, np.float32))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    message = one_line(info.value)
    assert "RESOURCE_EXHAUSTED" in message and "160000000000 bytes" in message
    assert peak < 64 * 2**20, f"{peak} bytes were allocated before refusing"
    with pytest.raises(HALError, match="RESOURCE_EXHAUSTED"):  # the same again, nothing leaked
        mod.f(np.ones(4, np.float32))
