"""LoadedModule: signatures from reflection, argument checks, results, devices."""

from __future__ import annotations

import numpy as np
import pytest

from ireelab.diagnostics import RuntimeInputError
from ireelab.runtime import VMError, load_module

A = np.ones((2, 4), np.float32)
B = np.full((4, 2), 2.0, np.float32)


def test_functions_come_from_the_abi_declaration(matmul_bytes):
    module = load_module(matmul_bytes)
    signature = module.functions["matmul"]
    assert [s.type_string() for s in signature.inputs] == ["tensor<2x4xf32>", "tensor<4x2xf32>"]
    assert [s.type_string() for s in signature.outputs] == ["tensor<2x2xf32>"]
    assert str(signature).startswith("sync func @matmul(%input0: tensor<2x4xf32>")


def test_result_matches_numpy(matmul_bytes):
    (result,) = load_module(matmul_bytes).invoke("matmul", A, B)
    np.testing.assert_array_equal(result, A @ B)
    assert result.dtype == np.float32 and result.shape == (2, 2)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        ((A,), "expects 2 argument(s) but got 1"),
        ((A, B, B), "expects 2 argument(s) but got 3"),
        ((np.ones((2, 3), np.float32), B), "argument 0 (%input0): expected tensor<2x4xf32>"),
        (
            (A, B.astype(np.float64)),
            "argument 1 (%input1): expected tensor<4x2xf32>, got an array with dtype float64",
        ),
    ],
)
def test_bad_arguments_are_one_line_errors(matmul_bytes, args, needle):
    module = load_module(matmul_bytes)
    with pytest.raises(RuntimeInputError) as info:
        module.invoke("matmul", *args)
    assert needle in str(info.value)
    assert "\n" not in str(info.value)


def test_unknown_function_and_device(matmul_bytes):
    module = load_module(matmul_bytes)
    with pytest.raises(RuntimeInputError, match="no function 'nope'"):
        module.invoke("nope", A, B)
    with pytest.raises(RuntimeInputError, match="unknown device 'gpu'"):
        module.invoke("matmul", A, B, device="gpu")


def test_non_contiguous_inputs_are_copied(matmul_bytes):
    # A transposed view is accepted (copied to dense row-major) and gives the right answer.
    a = np.ascontiguousarray(np.arange(8, dtype=np.float32).reshape(4, 2)).T
    (result,) = load_module(matmul_bytes).invoke("matmul", a, B)
    np.testing.assert_array_equal(result, a @ B)


def test_device_without_format_fails_init_like_iree(reference_vm_bytes_elf):
    # IREE's unmodified program wants embedded-elf-x86_64: __init fails with IREE's message.
    module = load_module(reference_vm_bytes_elf)
    with pytest.raises(VMError, match="INCOMPATIBLE; HAL device `__device_0` not found"):
        module.invoke("matmul", A, B)


@pytest.fixture(scope="module")
def reference_vm_bytes_elf() -> bytes:
    from vm_programs import REFERENCE_VM, parse_vm

    from ireelab.compiler.vm.module_file import write_module

    return write_module(parse_vm(REFERENCE_VM.read_text()))
