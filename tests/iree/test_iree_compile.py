"""`ireelab.iree.compile`: the real iree-compile, its trace, and its module run by iree.runtime."""

from __future__ import annotations

import numpy as np
import pytest
from iree_support import REFERENCE, needs_iree

from ireelab.compiler.pipeline import STAGES
from ireelab.diagnostics import CompileError, RuntimeInputError

pytestmark = needs_iree

TINY = (REFERENCE / "programs" / "a0_matmul_tiny.mlir").read_text()
BAD = "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = arith.addf %a, %b : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n"


def test_traced_compile_keeps_every_pass(iree_compiled, reference_json) -> None:
    module = iree_compiled(TINY)
    assert len(module.trace) > 700
    assert {r.stage for r in module.trace} == set(STAGES)
    assert module.trace.input_ir == TINY
    assert module.trace.find("ConvertToStreamPass")[0].stage == "stream"
    facts = reference_json["a0_matmul_tiny"]
    assert list(module.dispatches().exports) == facts["exports"]
    assert module.schedule().__dict__ == facts["stream"]


@pytest.mark.parametrize("device", ["local-task", "local-sync"])
def test_runs_through_iree_runtime(iree_compiled, device: str) -> None:
    module = iree_compiled(TINY)
    lhs = np.arange(8, dtype=np.float32).reshape(2, 4)
    rhs = np.linspace(-1, 1, 8, dtype=np.float32).reshape(4, 2)
    result = module.matmul(lhs, rhs, device=device)
    np.testing.assert_allclose(result, lhs @ rhs, rtol=1e-6)
    assert module.functions == ["matmul"]


def test_a_bad_call_is_a_runtime_input_error(iree_compiled) -> None:
    module = iree_compiled(TINY)
    with pytest.raises(RuntimeInputError, match="expected 2 arguments"):
        module.matmul(np.zeros((2, 4), np.float32))
    with pytest.raises(RuntimeInputError, match="input0 shape dimension 0 mismatch"):
        module.matmul(np.zeros((3, 4), np.float32), np.zeros((4, 2), np.float32))
    with pytest.raises(RuntimeInputError, match="no function 'nope'"):
        module.invoke("nope")


def test_compile_errors_are_located_in_the_source() -> None:
    from ireelab.iree import compile as iree_compile

    with pytest.raises(CompileError) as err:
        iree_compile(BAD, trace=False)
    assert err.value.location is not None and err.value.location.line == 2
    assert "use of undeclared SSA value" in str(err.value)
    assert "%0 = arith.addf %a, %b" in str(err.value)


def test_untraced_compile_keeps_the_phases_asked_for(iree_compiled) -> None:
    module = iree_compiled(TINY, compile_to="stream", trace=False)
    assert len(module.trace) == 0 and set(module.phase_ir) == {"flow", "stream"}
    assert module.output_ir == module.phase_ir["stream"]
    assert module.dispatches().dispatch_sites == 1
    with pytest.raises(ValueError, match="no IR at the end of 'hal'"):
        module.ir_after("hal")
    with pytest.raises(AttributeError, match="compiled to 'stream'"):
        module.matmul  # noqa: B018
    with pytest.raises(RuntimeError, match="compiled to 'stream'"):
        module.invoke("matmul", np.zeros((2, 4), np.float32), np.zeros((4, 2), np.float32))


def test_its_trace_draws_like_ireelabs(iree_compiled) -> None:
    module = iree_compiled(TINY)
    assert "matmul_dispatch_0_matmul_2x2x4_f32" in module.dispatch_graph().source
    assert module.timepoint_graph().source


def test_a_0d_argument_stays_0d() -> None:
    # regression: np.ascontiguousarray made a 0-d input 1-d and IREE refused its rank
    from ireelab.iree import compile as iree_compile

    source = """
func.func @scale(%a: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %s : tensor<4xf32>, tensor<f32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""
    a = np.arange(4, dtype=np.float32)
    got = iree_compile(source, trace=False).invoke("scale", a, np.array(2.0, np.float32))
    np.testing.assert_array_equal(got, a * 2)
