"""FoldUniformOperandsPass (iree-stream-fold-uniform-operands)."""

from __future__ import annotations

from _stream_ir import flow_reference, parse, print_ir, run, run_stream_stage

from ireelab.compiler.stream.fold_uniform_operands import FoldUniformOperandsPass


def test_constant_offsets_fold_into_the_kernel():
    # as in IREE's output: no push constants left, the kernel subspans at 0 and 1 MiB
    text = print_ir(run_stream_stage(flow_reference("l_two_results")))
    host = text[text.index("util.func public") :]
    assert "::@two_results_dispatch_1_elementwise_262144_f32 {" in host
    fn = text[text.index("func.func @two_results_dispatch_1") :]
    fn = fn[: fn.index("func.return")]
    assert "stream.binding.subspan %arg2[%c1048576]" in fn
    assert "arith.ori" not in fn and "arith.extui" not in fn


TWO_SITES = """
builtin.module {
  stream.executable private @ex {
    stream.executable.export public @fn
    builtin.module {
      func.func @fn(%b: !stream.binding, %x: i32, %y: i32) {
        %0 = arith.extui %x : i32 to i64
        %1 = arith.extui %y : i32 to i64
        func.return
      }
    }
  }
  func.func @f(%r: !stream.resource<external>) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %t = stream.cmd.execute with(%r as %arg0: !stream.resource<external>{%c64}) {
      stream.cmd.dispatch @ex::@fn(%one, %one : i32, i32) {
        rw %arg0[%c0 for %c64] : !stream.resource<external>{%c64}
      }
      stream.cmd.dispatch @ex::@fn(%one, %two : i32, i32) {
        rw %arg0[%c0 for %c64] : !stream.resource<external>{%c64}
      }
    } => !stream.timepoint
    func.return
  }
}
"""


def test_only_operands_equal_at_every_site_fold():
    # %x is 1 at both sites and folds; %y differs and stays an operand
    text = print_ir(run(parse(TWO_SITES), FoldUniformOperandsPass()))
    assert "func.func @fn(%b: !stream.binding {stream.alignment = 64 : index}, %y: i32)" in text
    assert "stream.cmd.dispatch @ex::@fn(%one : i32)" in text
    assert "stream.cmd.dispatch @ex::@fn(%two : i32)" in text
