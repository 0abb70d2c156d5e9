"""How the check dialect and util's compiler hints travel through the stages: the ops as IREE
prints them at each phase, the `check` imports of the VM module, parse-back of every form."""

from __future__ import annotations

import pytest

import ireelab

PROGRAM = """
func.func @sum() {
  %a = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = util.unfoldable_constant dense<[3.0, 4.0]> : tensor<2xf32>
  %r = arith.addf %a, %b : tensor<2xf32>
  check.expect_almost_eq_const(%r, dense<[4.0, 6.0]> : tensor<2xf32>, atol 1.0e-3) : tensor<2xf32>
  %i = util.unfoldable_constant 7 : i32
  check.expect_true(%i) : i32
  return
}
"""


def _ir(phase: str) -> str:
    return ireelab.compile(PROGRAM, compile_to=phase).ir()


def test_input_expands_the_unfoldable_constants_and_the_const_check():
    ir = _ir("input")
    assert "util.unfoldable_constant" not in ir
    assert ir.count("util.optimization_barrier") == 3
    assert "check.expect_almost_eq(%r, %0, atol 1.000000e-03) : tensor<2xf32>" in ir


def test_flow_keeps_the_barriers_so_the_dispatch_reads_its_inputs():
    ir = _ir("flow")
    assert "util.optimization_barrier %__constant_tensor_2xf32 : tensor<2xf32>" in ir
    assert "flow.dispatch @sum_dispatch_0::@sum_dispatch_0_elementwise_2_f32(%a, %b)" in ir
    assert "check.expect_almost_eq(%r, " in ir


def test_stream_exports_the_checked_tensors_as_buffer_views():
    ir = _ir("stream")
    assert "-> !hal.buffer_view" in ir
    assert "check.expect_almost_eq(%" in ir and ") : !hal.buffer_view" in ir


def test_hal_gives_the_checks_their_device():
    ir = _ir("hal")
    assert "check.expect_almost_eq<%__device>(%view, %view_1, atol 1.000000e-03)" in ir
    assert "check.expect_true(%i_1) : i32" in ir


def test_vm_calls_the_imported_check_module():
    ir = _ir("vm")
    assert "vm.import private @check.expect_almost_eq(%device : !vm.ref<!hal.device>, " in ir
    assert "%atol : f32, %rtol : f32)" in ir
    assert "vm.call @check.expect_almost_eq(%__device, %view, %view_1, " in ir
    assert "vm.call @check.expect_true(" in ir


def test_every_pass_of_the_trace_shows_the_check():
    trace = ireelab.compile(PROGRAM).trace
    for record in trace:
        assert "check.expect_" in record.ir, record.name


def test_the_module_file_imports_the_check_functions():
    module = ireelab.compile(PROGRAM).loaded
    names = [entry["name"] for entry in module.image.imports]
    assert "check.expect_almost_eq" in names and "check.expect_true" in names


def test_a_constant_without_barrier_is_cloned_into_the_dispatch():
    """What the barrier prevents: a splat constant is folded into the dispatch that reads it."""
    text = """
func.func @f() -> tensor<2xi32> {
  %a = CONSTANT dense<3> : tensor<2xi32>
  %s = arith.addi %a, %a : tensor<2xi32>
  return %s : tensor<2xi32>
}
"""
    folded = ireelab.compile(text.replace("CONSTANT", "arith.constant"), compile_to="flow").ir()
    kept = ireelab.compile(text.replace("CONSTANT", "util.unfoldable_constant"), compile_to="flow")
    assert "_elementwise_broadcast_2_i32() : () -> tensor<2xi32>" in folded
    assert "_elementwise_2_i32(%a_1) : (tensor<2xi32>) -> tensor<2xi32>" in kept.ir()


FORMS = [
    "check.expect_true(%i) : i32",
    "check.expect_false(%i) : i32",
    "check.expect_all_true(%ti) : tensor<2xi32>",
    "check.expect_all_true<%d>(%v) : !hal.buffer_view",
    "check.expect_eq(%t, %t) : tensor<2xf32>",
    "check.expect_eq<%d>(%v, %v) : !hal.buffer_view",
    "check.expect_eq_const(%ti, dense<[1, 2]> : tensor<2xi32>) : tensor<2xi32>",
    "check.expect_almost_eq(%t, %t) : tensor<2xf32>",
    "check.expect_almost_eq(%t, %t, atol 1.000000e-02, rtol 1.000000e-03) : tensor<2xf32>",
    "check.expect_almost_eq_const(%t, dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>, "
    "atol 1.000000e-02) : tensor<2xf32>",
    "%0 = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>",
    "%0, %1 = util.optimization_barrier %t, %i : tensor<2xf32>, i32",
]


@pytest.mark.parametrize("form", FORMS)
def test_check_and_hint_ops_print_as_iree_writes_them(form):
    from xdsl.parser import Parser

    from ireelab.compiler.context import make_context

    text = (
        "func.func @f(%d: !hal.device, %v: !hal.buffer_view, %i: i32, %t: tensor<2xf32>, "
        "%ti: tensor<2xi32>) {\n  " + form + "\n  func.return\n}"
    )
    module = Parser(make_context(), text).parse_module()
    module.verify()
    assert form in str(module)


def test_expect_almost_eq_rejects_integer_tensors():
    from ireelab.diagnostics import CompileError

    text = """
func.func @f() {
  %a = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
  check.expect_almost_eq(%a, %a) : tensor<2xi32>
  return
}
"""
    with pytest.raises(CompileError, match="4:3: error: .*compares floats, not i32"):
        ireelab.compile(text)


def test_a_check_test_waits_for_the_kernels_the_compile_started(monkeypatch):
    """`run_test` waits for the kernel compiles the compile started in worker processes
    before it makes the test's context: a context made first compiled every kernel again in
    this process, beside the worker compiling it (tests/check cold: twice the numba work)."""
    from ireelab.runtime.loaded_module import LoadedModule
    from ireelab.runtime.vm.context import Context
    from ireelab.tools.check_module import run_test

    events: list[str] = []
    wait, init = LoadedModule.wait_for_kernels, Context.__init__

    def waiting(self):
        events.append("wait")
        return wait(self)

    def making(self, *args, **kwargs):
        events.append("context")
        return init(self, *args, **kwargs)

    monkeypatch.setattr(LoadedModule, "wait_for_kernels", waiting)
    monkeypatch.setattr(Context, "__init__", making)
    outcome = run_test(ireelab.compile(PROGRAM).loaded, "sum")
    assert outcome.passed, outcome.failures
    assert events[:2] == ["wait", "context"]
