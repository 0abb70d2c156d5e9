"""Push constants end to end (issue 4): scalar dispatch operands -> `hal.interface.constant.load`
-> kernel arguments -> `hal.command_buffer.dispatch ... constants([...])` -> the runtime.

The program is the random-program regression `matmul_chain_push_constant.mlir`: the two sites
of `f_dispatch_0` write their result at different offsets of one allocation, so the offset
stays a dispatch operand (an i32 after `PackDispatchOperandsPass`), as in IREE.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.parser import Parser

import ireelab
from ireelab.compiler.api import compile_text
from ireelab.compiler.context import make_context
from ireelab.compiler.driver import CompileOptions
from ireelab.dialects import hal

PROGRAM = (
    Path(__file__).resolve().parents[1]
    / "robustness"
    / "random_regressions"
    / "matmul_chain_push_constant.mlir"
).read_text()

LAYOUT = (
    '<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, '
    "#hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>"
)
IREE_PRINTED = f"""func.func @f() {{
  %0 = hal.interface.constant.load layout({LAYOUT}) ordinal(0) : i32
  %1 = hal.interface.constant.load layout({LAYOUT}) ordinal(1) : i32
  func.return
}}"""
"""What iree-compile 3.13 prints for a dynamic-shape elementwise dispatch (two constants)."""


def _ir(phase: str) -> str:
    return compile_text(PROGRAM, options=CompileOptions(compile_to=phase)).ir()


def test_iree_printed_constant_load_parses_and_prints_back():
    module = Parser(make_context(), IREE_PRINTED).parse_module()
    module.verify()
    loads = [op for op in module.walk() if isinstance(op, hal.InterfaceConstantLoadOp)]
    assert [op.ordinal.value.data for op in loads] == [0, 1]
    assert f"hal.interface.constant.load layout({LAYOUT}) ordinal(1) : i32" in str(module)


def test_ordinal_outside_the_layout_does_not_verify():
    text = IREE_PRINTED.replace("ordinal(1)", "ordinal(2)")
    module = Parser(make_context(), text).parse_module()
    with pytest.raises(Exception, match=r"ordinal\(2\) is not a constant"):
        module.verify()


def test_materialize_interfaces_turns_the_operand_into_a_push_constant():
    text = _ir("executable-sources")
    dispatch_0 = text[text.index("hal.executable private @f_dispatch_0") :]
    dispatch_0 = dispatch_0[: dispatch_0.index("hal.executable private @f_dispatch_2")]
    assert "layout(#hal.pipeline.layout<constants = 1, bindings = [" in dispatch_0
    assert "func.func @f_dispatch_0_matmul_4x4x4_f32() {" in dispatch_0
    load = "= hal.interface.constant.load layout(<constants = 1, bindings = ["
    assert load in dispatch_0 and ") ordinal(0) : i32" in dispatch_0
    assert "arith.extui %0 : i32 to i64" in dispatch_0
    # the other executable has no operand: no constants in its layout
    assert (
        "constants"
        not in text[text.index("hal.executable private @f_dispatch_2") :].split("util.func")[0]
    )


def test_kernel_takes_the_constants_after_the_bindings():
    text = _ir("executable-targets")
    assert "def dispatch_0(wg_begin, wg_end, wg_count_x, wg_count_y, wg_count_z, b0, b1, c0):" in (
        text.encode().decode("unicode_escape")
    )


def test_convert_to_hal_records_the_constants():
    text = _ir("hal")
    dispatches = [line for line in text.splitlines() if "hal.command_buffer.dispatch<" in line]
    with_constants = [line for line in dispatches if " constants([%" in line]
    assert len(dispatches) == 3 and len(with_constants) == 2
    assert all("workgroups([" in line and "]) constants([" in line for line in with_constants)


def test_vm_passes_the_constants_to_the_dispatch_import():
    text = _ir("vm")
    calls = [
        line
        for line in text.splitlines()
        if "vm.call.variadic @hal.command_buffer.dispatch" in line
    ]
    assert len(calls) == 3
    # after the seven fixed operands: the constants list, then the binding tuples
    constants = sorted(line.split(", [", 1)[1].split("]", 1)[0] for line in calls)
    assert [len(c.split(", ")) if c else 0 for c in constants] == [0, 1, 1]
    assert all(c.startswith("%") for c in constants if c)


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_runs_and_matches_numpy(device):
    module = ireelab.compile(PROGRAM, device=device)
    rng = np.random.default_rng(4)
    a = rng.uniform(-2, 2, (4, 4)).astype(np.float32)
    b = rng.uniform(-2, 2, (4, 5)).astype(np.float32)
    for _ in range(2):  # the second call takes the kernels' compiled entry points
        chain, product = module.f(a, b)
        np.testing.assert_allclose(chain, (a @ a) @ (a @ a), rtol=1e-5, atol=1e-4)
        np.testing.assert_allclose(product, a @ b, rtol=1e-5, atol=1e-5)
