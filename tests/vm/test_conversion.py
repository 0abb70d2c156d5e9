"""ConversionPass (iree-vm-conversion) on IREE's own HAL-phase program for the tiny matmul."""

from __future__ import annotations

import re

import numpy as np
import pytest
from vm_programs import REFERENCE_VM, parse_ir

from ireelab.compiler.context import make_context
from ireelab.compiler.vm.conversion import ConversionPass
from ireelab.diagnostics import CompileError
from ireelab.dialects import vm
from ireelab.runtime import load_module


def _vm_module(module) -> vm.ModuleOp:
    (found,) = [op for op in module.body.ops if isinstance(op, vm.ModuleOp)]
    return found


def test_imports_are_exactly_ireess(converted_module):
    # The module imports exactly the hal functions IREE's VM output imports, with the same
    # signatures (names, argument names, types, attributes) and in the same order.
    expected = [
        line.strip() for line in REFERENCE_VM.read_text().splitlines() if "vm.import" in line
    ]
    printed = [line.strip() for line in str(converted_module).splitlines() if "vm.import" in line]
    assert printed == expected


def test_structure_matches_iree(converted_module):
    # Globals, executable rodata, the exported entry point with its ABI, and one __init.
    text = str(converted_module)
    module = _vm_module(converted_module)
    names = [op.name for op in module.body.ops]
    assert names.count("vm.global.ref") == 3
    assert "vm.global.ref private mutable @__device_0 : !vm.ref<!hal.device>" in text
    assert re.search(
        r"vm.rodata private @matmul_dispatch_0_embedded_elf_x86_64 <alignment = 16, "
        r'mime_type = "text/x-python"> dense<"0x7B',
        text,
    )
    assert (
        "vm.export @matmul attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration"
        in text
    )
    assert text.count("vm.func private @__init()") == 1
    assert "vm.export @__init" in text
    # hal.fence.await is a yieldable call continuing in a block taking the status.
    assert re.search(r"vm.call.variadic.yieldable @hal.fence.await\(.*\) -> \^bb\d+ \(i32\)", text)
    # util.status.check_ok became a branch to vm.fail with IREE's message.
    assert 'vm.fail %status, "failed to wait on timepoint"' in text


def test_converted_program_runs(converted_bytes):
    # The converted program computes the matmul on both devices.
    module = load_module(converted_bytes)
    a = np.arange(8, dtype=np.float32).reshape(2, 4)
    b = np.arange(8, dtype=np.float32).reshape(4, 2) - 3
    for device in ("local-sync", "local-task"):
        (result,) = module.invoke("matmul", a, b, device=device)
        np.testing.assert_allclose(result, a @ b, rtol=1e-6)


def test_unsupported_op_is_a_located_error():
    # An op the VM conversion does not know is a CompileError naming it and the stage
    # (f32 arithmetic converts, as IREE's EXT_F32; math.exp on the host does not, yet).
    module = parse_ir(
        """
        util.func public @f(%arg0: f32) -> f32 {
          %0 = math.exp %arg0 : f32
          util.return %0 : f32
        }
        """
    )
    with pytest.raises(CompileError) as info:
        ConversionPass().apply(make_context(), module)
    assert info.value.stage == "vm"
    assert "math.exp" in info.value.message


def test_initializers_chain_in_order():
    # Several util.initializers run in source order inside the one __init.
    module = parse_ir(
        """
        util.global private @a : i32
        util.global private @b : i64
        util.initializer {
          %c7 = arith.constant 7 : i32
          util.global.store %c7, @a : i32
          util.return
        }
        util.initializer {
          %0 = util.global.load @a : i32
          %1 = arith.extsi %0 : i32 to i64
          %c5 = arith.constant 5 : i64
          %2 = arith.muli %1, %c5 : i64
          util.global.store %2, @b : i64
          util.return
        }
        util.func public @get() -> i64 {
          %0 = util.global.load @b : i64
          util.return %0 : i64
        }
        """
    )
    ConversionPass().apply(make_context(), module)
    module.verify()
    from ireelab.compiler.vm.module_file import write_module

    loaded = load_module(write_module(module))
    context = loaded.context("local-sync")
    assert context.function("get")() == (35,)


FLOOR_DIVISION = """
func.func @floor(%a: tensor<2xi64>, %b: tensor<2xi32>) -> (i64, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = tensor.extract %a[%c0] : tensor<2xi64>
  %y = tensor.extract %a[%c1] : tensor<2xi64>
  %u = tensor.extract %b[%c0] : tensor<2xi32>
  %v = tensor.extract %b[%c1] : tensor<2xi32>
  %q = arith.floordivsi %x, %y : i64
  %r = arith.floordivsi %u, %v : i32
  return %q, %r : i64, i32
}
"""


@pytest.fixture(scope="module")
def floor_module():
    import ireelab

    return ireelab.compile(FLOOR_DIVISION)


@pytest.mark.parametrize("x,y", [(7, 2), (-7, 2), (7, -2), (-7, -2), (6, 3), (-6, 3), (0, -5)])
def test_host_floor_division_rounds_down(floor_module, x, y):
    """`arith.floordivsi` on the host: the VM divides toward zero, the expansion corrects
    the quotient where signs differ and the division is inexact (Python's `//`)."""
    q, r = floor_module.floor(np.array([x, y], np.int64), np.array([x, y], np.int32))
    assert int(q) == x // y and int(r) == x // y
