"""`%%ireecompile` and `%ireerun` in a real IPython shell (issue 7: the magic)."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from IPython.core.error import UsageError
from nb_helpers import MATMUL, needs_phase

from ireelab.diagnostics import CompileError
from ireelab.module import CompiledModule
from ireelab.notebook.errors import CellCompileError
from ireelab.notebook.magics import SHOW_CHOICES, default_name, parse_show

TWO_FUNCS = """\
func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @scale(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


def test_help_documents_every_option(shell):
    # `%%ireecompile?` shows the docstring magic_arguments builds: every option and value.
    doc = shell.find_cell_magic("ireecompile").__doc__
    for option in ("--compile-to", "--iree-hal-target-backends", "--device", "--show"):
        assert option in doc
    for view in SHOW_CHOICES:
        assert view in doc
    assert "executable-targets" in doc and "local-sync" in doc
    assert "%ireerun" in doc
    assert "--device" in shell.find_line_magic("ireerun").__doc__


def test_binds_first_public_function_and_shows_summary(run, shell):
    # No name on the magic line: the module is bound to the first public function's name.
    cell = run("%%ireecompile --compile-to=input\n" + MATMUL)
    assert cell.error is None
    module = shell.user_ns["matmul"]
    assert isinstance(module, CompiledModule) and module.phase == "input"
    (summary,) = cell.outputs
    assert "matmul: compiled to 'input'" in summary["text/plain"]
    assert "A input" in summary["text/plain"] and "total" in summary["text/plain"]
    assert "<table" in summary["text/html"]
    assert "drop --compile-to" in summary["text/plain"]  # not runnable, and says why


def test_binds_given_name(run, shell):
    cell = run("%%ireecompile mm --compile-to=input --show=none\n" + MATMUL)
    assert cell.error is None and cell.outputs == []
    assert shell.user_ns["mm"].phase == "input"
    assert "matmul" not in shell.user_ns


def test_default_name_skips_private_functions_and_comments():
    assert default_name(TWO_FUNCS) == "scale"
    assert default_name("// func.func @commented()\n" + MATMUL) == "matmul"
    assert default_name('func.func public @"quoted"() {\n return\n}') == "quoted"
    assert default_name("%0 = arith.constant 1 : i32") is None


def test_show_ir_is_the_module_text(run, shell):
    cell = run("%%ireecompile --compile-to=abi --show=ir\n" + MATMUL)
    assert cell.error is None
    (ir,) = cell.outputs
    text = shell.user_ns["matmul"].ir()
    assert "util.func public @matmul" in text and "hal.tensor.import" in text
    assert text in ir["text/plain"]
    assert "hal.tensor.import" in ir["text/html"]


def test_graph_views_before_their_phase_say_so(run):
    cell = run("%%ireecompile --compile-to=abi --show=summary,dispatches,timepoints\n" + MATMUL)
    assert cell.error is None
    assert "nothing to draw before the 'flow' phase" in cell.stdout
    assert "nothing to draw before the 'stream' phase" in cell.stdout
    assert len(cell.outputs) == 1  # the summary only


@pytest.mark.parametrize(
    "line, fragment",
    [
        ("--bogus", "unrecognized arguments: --bogus"),
        ("--compile-to=nowhere", "invalid choice: 'nowhere'"),
        ("--device=gpu", "invalid choice: 'gpu'"),
        ("--show=pictures", "unknown view 'pictures'"),
        ("--iree-hal-target-backends=cuda", "unknown backend 'cuda'"),
        ("2fast", "not a Python identifier"),
        ("mm extra", "unrecognized arguments: extra"),
    ],
)
def test_bad_option_is_a_usage_error_and_binds_nothing(run, shell, line, fragment):
    cell = run(f"%%ireecompile {line}\n" + MATMUL)
    assert isinstance(cell.error, UsageError)
    assert fragment in str(cell.error)
    assert "matmul" not in shell.user_ns and "mm" not in shell.user_ns
    assert "Traceback" not in cell.stdout + cell.stderr


def test_empty_cell_and_nameless_cell_are_usage_errors(run):
    assert "cell is empty" in str(run("%%ireecompile\n\n").error)
    nameless = run("%%ireecompile\nfunc.func private @f() {\n  return\n}\n")
    assert "no public func.func" in str(nameless.error)


def test_parse_error_points_at_the_cell_line(run, shell):
    # Line 1 of a cell is the magic line, so the broken line 5 is reported as line 5.
    shell.user_ns["matmul"] = "previous value"
    broken = MATMUL.replace("ins(%cst : f32)", "ins(%cst : f32")
    cell = run("%%ireecompile\n" + broken)
    error = cell.error
    assert isinstance(error, CellCompileError) and isinstance(error, CompileError)
    assert error.location.line == 5
    assert error.location.source_line.strip().startswith("%1 = linalg.fill")
    out = cell.stdout + cell.stderr
    assert "Traceback" not in out
    assert "error: Expected ')'" in out
    assert "5 | " in out and "\x1b[30;43m  %1 = linalg.fill" in out  # the line, highlighted
    assert "nothing was bound to 'matmul'" in out
    assert shell.user_ns["matmul"] == "previous value"


def test_verifier_error_is_located(run):
    # A type mismatch the parser accepts but the verifier rejects.
    bad = MATMUL.replace("return %2 : tensor<2x2xf32>", "return %lhs : tensor<2x4xf32>")
    cell = run("%%ireecompile\n" + bad)
    assert isinstance(cell.error, CellCompileError)
    assert cell.error.location is not None
    assert "Traceback" not in cell.stdout + cell.stderr


def test_parse_show():
    assert parse_show("summary, dispatches") == ["summary", "dispatches"]
    assert parse_show("none") == []
    with pytest.raises(UsageError):
        parse_show(",")


def test_ireerun_refuses_what_it_cannot_run(run, shell):
    assert "not a module compiled" in str(run("%ireerun nothing a b").error)
    run("%%ireecompile --compile-to=input --show=none\n" + MATMUL)
    cell = run("%ireerun matmul a b")
    assert isinstance(cell.error, UsageError) and "compiled to 'input'" in str(cell.error)


@needs_phase("flow")
def test_show_dispatches_draws_the_graph(run):
    cell = run("%%ireecompile --compile-to=flow --show=summary,dispatches\n" + MATMUL)
    assert cell.error is None, cell.stdout
    summary, graph = cell.outputs
    assert "matmul_dispatch_0_matmul_2x2x4_f32" in summary["text/plain"]
    assert "image/svg+xml" in graph or "text/plain" in graph


@needs_phase("end")
def test_compile_and_run_end_to_end(run, shell):
    shell.user_ns["a"] = np.arange(8, dtype=np.float32).reshape(2, 4)
    shell.user_ns["b"] = np.ones((4, 2), np.float32)
    shell.user_ns["np"] = np
    cell = run("%%ireecompile\n" + MATMUL)
    assert cell.error is None, cell.stdout + cell.stderr
    assert "matmul.matmul(lhs, rhs)" in cell.outputs[0]["text/plain"]
    expected = shell.user_ns["a"] @ shell.user_ns["b"]
    cell = run("r = %ireerun matmul a b")
    assert cell.error is None, cell.stdout + cell.stderr
    np.testing.assert_allclose(shell.user_ns["r"], expected, rtol=1e-6)
    cell = run("r2 = matmul.matmul(a, b)")
    np.testing.assert_allclose(shell.user_ns["r2"], expected, rtol=1e-6)
    cell = run('%ireerun matmul.matmul a "np.ones((3, 3), np.float32)" --device=local-sync')
    assert cell.error is not None and "Traceback" not in cell.stdout + cell.stderr


TORCH_CELL = """func.func @relu(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %0 = torch.aten.relu %arg0 : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}
"""


@pytest.mark.frontends
@pytest.mark.skipif(
    importlib.util.find_spec("iree.compiler") is None,
    reason="needs iree-base-compiler: pip install 'ireelab[frontends]'",
)
def test_a_torch_cell_goes_through_iree_s_input_conversion(run, shell):
    # --iree-input-type=auto (the default) detects the torch dialect, as iree-compile does
    cell = run("%%ireecompile\n" + TORCH_CELL)
    assert cell.error is None, cell.stderr
    module = shell.user_ns["relu"]
    assert module.trace[0].tool == "iree"
    x = np.array([[-1, 0, 2], [3, -4, 5]], np.float32)
    np.testing.assert_array_equal(module.relu(x), np.maximum(x, 0))
    summary = next(o["text/plain"] for o in cell.outputs if "text/plain" in o)
    assert "np.zeros((2, 3), np.float32)" in summary


def test_input_type_none_refuses_a_torch_cell_with_a_located_error(run):
    cell = run("%%ireecompile --iree-input-type=none\n" + TORCH_CELL)
    assert cell.error is not None
    assert "torch" in cell.stderr + cell.stdout + str(cell.error)


def test_data_tiling_flag_packs_the_matmul(run, shell):
    # `--iree-opt-data-tiling` on the magic line: the trace has IREE's data-tiling passes and
    # the flow IR a linalg.mmt4d between packs
    cell = run("%%ireecompile mm --iree-opt-data-tiling --compile-to=flow --show=none\n" + MATMUL)
    assert cell.error is None
    records = shell.user_ns["mm"].trace.records
    names = [r.name for r in records]
    assert "SetEncodingPass" in names and "MaterializeHomogeneousEncodingsPass" in names
    assert "linalg.mmt4d" in records[-1].ir
