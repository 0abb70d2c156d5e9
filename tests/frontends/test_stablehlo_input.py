"""A StableHLO cell (written by hand, no JAX needed) through `ireelab-compile`: IREE's input
conversion runs first, its passes print in the `--mlir-print-ir-after-all` dump and show in
the stepper as the real IREE's, then ireelab's stages run on its output."""

from __future__ import annotations

import numpy as np
import pytest
from frontend_support import needs_iree_compile

import ireelab

STABLEHLO = """
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  %1 = stablehlo.tanh %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
"""

pytestmark = [pytest.mark.frontends, needs_iree_compile]


def test_runs_and_matches_numpy():
    a, b = np.linspace(-2, 2, 4, dtype=np.float32), np.ones(4, np.float32)
    module = ireelab.compile(STABLEHLO)
    np.testing.assert_allclose(module.main(a, b), np.tanh(a + b), rtol=1e-6, atol=1e-6)


def test_the_dump_prints_iree_s_passes_then_ireelab_s(tmp_path, capsys):
    from ireelab.tools import compile as compile_tool

    path = tmp_path / "m.mlir"
    path.write_text(STABLEHLO)
    argv = [str(path), "--compile-to=flow", "--mlir-print-ir-after-all", "-o", "/dev/null"]
    assert compile_tool.main(argv) == 0
    headers = [line for line in capsys.readouterr().err.splitlines() if "IR Dump After" in line]
    names = [h.split("IR Dump After ", 1)[1].split(":", 1)[0] for h in headers]
    first_ours = names.index("WrapEntryPointsPass")
    iree_part = " ".join(headers[:first_ours])
    assert "AutoInputConversionPipelinePass" in iree_part and "stablehlo" in iree_part
    assert "FormDispatchRegionsPass" in names[first_ours:]


def test_an_explicit_input_type_goes_to_iree_as_given():
    module = ireelab.compile(STABLEHLO, compile_to="input", input_type="stablehlo")
    flags = [r.flag for r in module.trace if r.tool == "iree"]
    assert flags and not any(f.startswith("iree-auto-input-conversion") for f in flags)


def test_the_stepper_says_who_ran_each_pass():
    pytest.importorskip("ipywidgets")
    from ireelab.notebook.stepper import Stepper

    trace = ireelab.compile(STABLEHLO, compile_to="flow").trace
    stepper = Stepper(trace)
    first_ours = next(r for r in trace if r.tool == "ireelab")
    assert "run by the real IREE" in stepper._info_html(trace[0])
    assert "run by the real IREE" not in stepper._info_html(first_ours)


def test_an_iree_error_is_located_in_the_cell():
    bad = STABLEHLO.replace("stablehlo.tanh %0", "stablehlo.tanh %9")
    with pytest.raises(ireelab.CompileError) as err:
        ireelab.compile(bad, filename="cell.mlir")
    assert err.value.location is not None and err.value.location.line == 4
    assert "iree-compile" in err.value.message


def test_converted_ops_keep_the_line_they_came_from():
    # IREE's output is printed with its locations; a later stage's error about an op points
    # at the framework program's line, not into IREE's output.
    from xdsl.dialects.linalg.ops import GenericOp

    from ireelab.compiler.driver import CompileOptions
    from ireelab.diagnostics import location_of
    from ireelab.frontends.compile_program import compile_program

    result = compile_program(STABLEHLO, 'cell "7".mlir', CompileOptions(compile_to="input"))
    generics = [op for op in result.module.walk() if isinstance(op, GenericOp)]
    assert generics
    where = location_of(generics[0])
    assert where.file == 'cell "7".mlir' and where.line in (3, 4)
    assert "stablehlo." in where.source_line
