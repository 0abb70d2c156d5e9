"""What ireelab prints parses back in ireelab: the IR at every `--compile-to` phase and after
every pass of the trace reads with `make_context()`, verifies, and prints back unchanged.

The contract behind `--compile-to`, `ireelab-opt` and reading one's own dumps: every dialect and
attribute a stage writes (codegen's `#iree_codegen.translation_info` and
`#iree_cpu.lowering_config` included) is registered in the context. Programs: the founding
note's matmul (DoubleTilingExpert), a row softmax (reductions), a convolution with bias and
relu (ConvTileAndDecomposeExpert), and programs of the flow corpus whose IR has forms the
reference programs lack: a multi-result generic (`-> (t1, t2)`), tied dispatch results
(`-> %1`, readwrite bindings) of pad and concat, `flow.tensor.slice` / `update` and their
stream ops.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from reference_paths import REFERENCE
from xdsl.parser import Parser
from xdsl.printer import Printer

from ireelab.compiler.api import CompileResult, compile_text
from ireelab.compiler.context import make_context
from ireelab.compiler.driver import CompileOptions
from ireelab.compiler.pipeline import PHASES, steps_until

PROGRAMS = REFERENCE / "programs"
CORPUS = Path(__file__).resolve().parent.parent / "flow" / "programs"
CORPUS_PROGRAMS = ("multi_result_elementwise", "pad_2d", "concat_inner_dim", "slices_contiguous")
TEXT_PHASES = [phase for phase in PHASES if phase != "end"]


def _compile(name: str, phase: str = "end") -> CompileResult:
    path = CORPUS / f"{name}.mlir" if name in CORPUS_PROGRAMS else PROGRAMS / f"{name}.mlir"
    return compile_text(path.read_text(), str(path), CompileOptions(compile_to=phase))


def _reprint(text: str, name: str) -> str:
    module = Parser(make_context(), text, name).parse_module()
    module.verify()
    out = io.StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def _phase_ir(result: CompileResult, phase: str) -> str:
    """The IR `--compile-to=phase` prints: the module after the phase's last pass."""
    return result.trace[len(steps_until(phase)) - 1].ir


@pytest.fixture(
    scope="module", params=["a0_matmul_tiny", "e_softmax", "f_conv_bias_relu", *CORPUS_PROGRAMS]
)
def compiled(request) -> tuple[str, CompileResult]:
    return request.param, _compile(request.param)


def test_every_phase_parses_back(compiled):
    # each `--compile-to` phase's text is a fixed point of parse + print
    name, result = compiled
    for phase in TEXT_PHASES:
        text = _phase_ir(result, phase)
        assert _reprint(text, f"{name}.{phase}") == text, phase


def test_ir_after_every_pass_parses_back(compiled):
    # the trace's IR after each pass (what --mlir-print-ir-after-all shows) reads back too
    name, result = compiled
    assert len(result.trace) > 40
    texts = [("input", result.trace.input_ir)] + [(r.name, r.ir) for r in result.trace]
    failures = []
    for pass_name, text in texts:
        try:
            again = _reprint(text, f"{name} after {pass_name}")
        except Exception as err:  # noqa: BLE001 - collect every failing pass, then report
            failures.append(f"{pass_name}: {str(err).splitlines()[-1]}")
            continue
        if again != text:
            failures.append(f"{pass_name}: prints back differently")
    assert not failures, "\n".join(failures)


def test_codegen_attributes_are_in_what_is_parsed(compiled):
    # the attributes this test exists for really are in the IR it parses: the lowering
    # configs strategy selection writes, the translation info still there at the end (the
    # copy dispatches of pad / concat / slices have no linalg root to configure)
    name, result = compiled
    if name in CORPUS_PROGRAMS and name != "multi_result_elementwise":
        pytest.skip("a copy dispatch has no root op for a lowering_config")
    (selected,) = result.trace.find("LLVMCPUSelectLoweringStrategyPass")
    assert "lowering_config = #iree_cpu.lowering_config<distribution = [" in selected.ir
    text = _phase_ir(result, "executable-targets")
    assert "#iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<" in text


def test_phase_ir_is_what_compile_to_prints():
    # the trace-derived phase IR above is exactly what a `--compile-to` compile returns
    full = _compile("a0_matmul_tiny")
    for phase in ("flow", "executable-targets"):
        assert _compile("a0_matmul_tiny", phase).ir() == _phase_ir(full, phase)
