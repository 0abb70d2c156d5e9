"""Follow one op: each input linalg op lands in the dispatch IREE 3.13 put it in."""

from __future__ import annotations

import pytest
from viz_reference import program_trace

from ireelab.compiler.trace import PassRecord
from ireelab.diagnostics import CompileError
from ireelab.viz.follow import follow, match_inputs

# Input op number -> dispatch number, as the real IREE's Flow output shows the fusion.
EXPECTED = {
    "b_mlp_layer": [0, 0, 0, 0],  # fill, matmul, bias add, relu: one dispatch
    "d_mlp3": [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2],  # each layer's relu joins its own matmul
    "e_softmax": [0, 0, 0, 1, 1, 1],  # max-reduce + exp, sum-reduce + divide
    "j_attention": [0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3],  # the transpose folds into the matmul
    "i_elementwise_chain": [0, 0, 0, 0],  # four generics fused and collapsed
    "l_two_results": [0, 0, 1],
}


@pytest.mark.parametrize("program", sorted(EXPECTED))
def test_ops_land_in_iree_dispatches(program):
    sites = [match.site for _, match in match_inputs(program_trace(program))]
    assert sites == EXPECTED[program]


def test_rules_are_reported():
    trace = program_trace("b_mlp_layer")
    rules = [match.rule for _, match in match_inputs(trace)]
    assert rules[1] == "same op and result type"
    assert rules[3] == "fused with its producer #2"
    assert rules[0] == "fused with its consumer #1"
    assert follow(trace, "matmul", graphs=False).op == "#1 linalg.matmul -> tensor<256x512xf32>"


def test_each_stage_shows_where_the_dispatch_went():
    trace = program_trace("b_mlp_layer")
    stream = trace.records[-1]
    trace.records.append(
        PassRecord(
            4,
            "vm",
            "ConversionPass",
            "iree-vm-conversion",
            "vm.module public @m {\n"
            '  vm.rodata private @_utf8_x "mlp_layer_dispatch_0_matmul_256x512x512_f32"\n}',
            True,
            0.0,
        )
    )
    followed = follow(
        trace,
        "matmul",
        trace_events={
            "traceEvents": [
                {
                    "ph": "X",
                    "name": "mlp_layer_dispatch_0_matmul_256x512x512_f32",
                    "ts": 0,
                    "dur": 5,
                    "tid": 1,
                }
            ]
        },
    )
    assert followed.match.export == "mlp_layer_dispatch_0_matmul_256x512x512_f32"
    assert any("flow.dispatch @mlp_layer_dispatch_0::" in line for line in followed.stages["flow"])
    assert any(
        "stream.cmd.dispatch @mlp_layer_dispatch_0::" in line for line in followed.stages["stream"]
    )
    assert any("vm.rodata" in line for line in followed.stages["vm"])
    assert "codegen" not in followed.stages  # the trace has no codegen records
    assert stream.stage == "stream"
    assert set(followed.graphs) == {"dispatch graph", "timepoint graph", "timeline"}
    assert "#1f6fd1" in followed.graphs["dispatch graph"].source
    assert "#cfe0fb" in followed.graphs["timepoint graph"].source
    assert "#1f6fd1" in followed.graphs["timeline"].source
    bundle = followed._repr_mimebundle_()
    assert "mlp_layer_dispatch_0_matmul_256x512x512_f32" in bundle["text/plain"]
    assert "<table>" in bundle["text/html"]


def test_bad_choices_are_errors():
    trace = program_trace("b_mlp_layer")
    with pytest.raises(CompileError, match="no input op #9"):
        follow(trace, 9)
    with pytest.raises(CompileError, match="named like"):
        follow(trace, "conv")
    trace.input_ir = (
        "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  func.return %a : tensor<4xf32>\n}"
    )
    with pytest.raises(CompileError, match="no linalg ops"):
        follow(trace, 0)
