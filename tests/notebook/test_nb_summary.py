"""The default `%%ireecompile` view: stage table, dispatches, how to call."""

from __future__ import annotations

from ireelab.compiler.trace import PassRecord, Trace
from ireelab.notebook.summary import (
    Argument,
    CompileSummary,
    Dispatch,
    Signature,
    dispatches_in,
    flow_dispatches,
    public_signatures,
)

# Cut from IREE 3.13's own `--compile-to=flow` output for two matmuls and an add: the second
# dispatch carries the fused add (a linalg.generic); `#linalg.iterator_type` is no op.
FLOW_IR = """\
module {
  flow.executable private @two_dispatch_0 {
    flow.executable.export public @two_dispatch_0_matmul_512x512x512_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      flow.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @two_dispatch_0_matmul_512x512x512_f32() {
        %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<512x512xf32>) -> tensor<512x512xf32>
        %5 = linalg.matmul ins(%0, %1 : tensor<512x512xf32>, tensor<512x512xf32>) outs(%4 : tensor<512x512xf32>) -> tensor<512x512xf32>
        return
      }
    }
  }
  flow.executable private @two_dispatch_1 {
    flow.executable.export public @two_dispatch_1_matmul_512x512x512_f32 workgroups() -> (index, index, index) {
      flow.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @two_dispatch_1_matmul_512x512x512_f32() {
        %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<512x512xf32>) -> tensor<512x512xf32>
        %7 = linalg.matmul ins(%1, %2 : tensor<512x512xf32>, tensor<512x512xf32>) outs(%6 : tensor<512x512xf32>) -> tensor<512x512xf32>
        %8 = linalg.generic {iterator_types = [#linalg.iterator_type<parallel>]} ins(%7 : tensor<512x512xf32>) outs(%5 : tensor<512x512xf32>) {
        ^bb0(%in: f32, %out: f32):
          %9 = linalg.index 0 : index
          linalg.yield %in : f32
        } -> tensor<512x512xf32>
        return
      }
    }
  }
  util.func public @two(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %2 = flow.dispatch @two_dispatch_0::@two_dispatch_0_matmul_512x512x512_f32(%0, %1) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
    %3 = flow.dispatch @two_dispatch_1::@two_dispatch_1_matmul_512x512x512_f32(%0, %2) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
    %4 = flow.dispatch @two_dispatch_1::@two_dispatch_1_matmul_512x512x512_f32(%0, %3) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
    util.return %4 : !hal.buffer_view
  }
}
"""


def test_dispatches_in_flow_ir_lists_exports_fused_ops_and_sites():
    first, second = dispatches_in(FLOW_IR)
    assert first == Dispatch(
        "two_dispatch_0",
        "two_dispatch_0_matmul_512x512x512_f32",
        ("linalg.fill", "linalg.matmul"),
        1,
    )
    assert second.ops == ("linalg.fill", "linalg.matmul", "linalg.generic")
    assert second.sites == 2


def test_flow_dispatches_reads_the_last_flow_pass():
    # Before the flow stage ran there is nothing to list.
    trace = Trace("", [PassRecord(0, "input", "CanonicalizerPass", "canonicalize", "", False, 0.0)])
    assert flow_dispatches(trace) == []
    trace.records.append(PassRecord(1, "flow", "CSEPass", "cse", FLOW_IR, False, 0.0))
    assert len(flow_dispatches(trace)) == 2


def test_public_signatures_give_names_shapes_and_dtypes():
    ir = """\
func.func private @hidden(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
func.func @f(%lhs: tensor<2x4xf32>, %1: tensor<3xi32>, %s: f64) -> tensor<2x4xf32> {
  return %lhs : tensor<2x4xf32>
}
"""
    (sig,) = public_signatures(ir)
    assert sig.name == "f" and sig.results == ("tensor<2x4xf32>",)
    lhs, second, scalar = sig.arguments
    assert (lhs.name, lhs.shape, lhs.dtype) == ("lhs", (2, 4), "float32")
    assert (second.name, second.shape, second.dtype) == ("arg1", (3,), "int32")
    assert (scalar.shape, scalar.dtype) == ((), "float64")
    assert lhs.example() == "np.zeros((2, 4), np.float32)"
    assert scalar.example() == "np.float64(0)"


def _summary(phase: str) -> CompileSummary:
    sig = Signature(
        "mm", (Argument("a", "tensor<2x4xf32>", (2, 4), "float32"),), ("tensor<2x2xf32>",)
    )
    return CompileSummary(
        name="mod",
        phase=phase,
        stages=[("input", 7, 4, 0.002), ("flow", 16, 9, 0.0305)],
        dispatches=[Dispatch("e", "mm_dispatch_0_matmul_2x2x4_f32", ("linalg.matmul",), 1)],
        signatures=[sig],
    )


def test_summary_text_and_html():
    text = repr(_summary("end"))
    assert text.splitlines()[0] == "mod: compiled to 'end'"
    assert "A input" in text and "C flow" in text
    assert [line.split() for line in text.splitlines() if "total" in line] == [
        ["total", "23", "13", "32.5"]
    ]
    assert "mm_dispatch_0_matmul_2x2x4_f32  [linalg.matmul]  x1" in text
    assert "mod.mm(a)" in text and "%ireerun mod.mm a" in text
    assert "a = np.zeros((2, 4), np.float32)" in text
    html = _summary("end")._repr_html_()
    assert "<table" in html and "<code>mm_dispatch_0_matmul_2x2x4_f32</code>" in html


def test_summary_of_an_unfinished_compile_says_how_to_run():
    summary = _summary("flow")
    assert not summary.runnable
    assert "nothing to run yet" in repr(summary)
