"""OutlineConstantsPass (`iree-flow-outline-constants`): golden IR, cases from IREE's own test
(`Flow/Transforms/test/outline_constants.mlir`) restated, plus the pipeline placement."""

from __future__ import annotations

import re

import programs as P
from xdsl.context import Context
from xdsl.parser import Parser

import ireelab
from ireelab.compiler.context import make_context
from ireelab.compiler.flow.outline_constants import OutlineConstantsPass


def _outline(text: str) -> str:
    ctx: Context = make_context()
    module = Parser(ctx, text).parse_module()
    OutlineConstantsPass().apply(ctx, module)
    module.verify()
    return str(module)


def test_splats_stay() -> None:
    # splats are left for dispatches to recreate
    out = _outline("""
builtin.module {
  util.func private @splat() {
    %c = arith.constant dense<1> : tensor<512x128xi32>
    util.return
  }
}""")
    assert "util.global" not in out
    assert "arith.constant dense<1> : tensor<512x128xi32>" in out


def test_dense_constants_get_unique_names_in_order() -> None:
    # two same-typed constants: @__constant_tensor_2xf32 then @__constant_tensor_2xf32_0
    out = _outline("""
builtin.module {
  util.func private @dense() {
    %a = arith.constant dense<[0.0287729427, 0.0297581609]> : tensor<2xf32>
    %b = arith.constant dense<[0.0, 1.0]> : tensor<2xf32>
    util.return
  }
}""")
    globals_ = re.findall(
        r"util\.global private @(\w+) <inlining_policy = #util\.inline\.never>", out
    )
    assert globals_ == ["__constant_tensor_2xf32", "__constant_tensor_2xf32_0"]
    assert "= dense<[0.000000e+00, 1.000000e+00]> : tensor<2xf32>" in out
    loads = re.findall(r"= util\.global\.load immutable @(\w+) : tensor<2xf32>", out)
    assert loads == globals_
    assert "arith.constant" not in out


def test_global_goes_right_before_its_function_and_takes_the_affinity() -> None:
    # placed above the function that used it; stream.affinity carried from an ancestor
    out = _outline("""
builtin.module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.func private @external_func()
  util.global private @existing_global : tensor<4xf32>
  util.func private @func_1() {
    %c = arith.constant dense<[2, 3, 4]> : tensor<3xi32>
    util.return
  }
}""")
    lines = [line.strip() for line in out.splitlines()]
    at = next(i for i, line in enumerate(lines) if "@__constant_tensor_3xi32" in line)
    assert lines[at - 1].startswith("util.global private @existing_global")
    assert lines[at + 1].startswith("util.func private @func_1")
    assert "{stream.affinity.default = #hal.device.affinity<@__device_0>}" in lines[at]


def test_constants_inside_executables_are_not_outlined() -> None:
    out = _outline("""
builtin.module {
  flow.executable private @ex {
    builtin.module {
      func.func @f() {
        %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
        func.return
      }
    }
  }
}""")
    assert "util.global" not in out


def test_pipeline_outlines_a_1kib_weight_but_clones_the_bias() -> None:
    # as IREE 3.13 prints for a 16x16 f32 weight (1 KiB) and a 64-byte bias
    flow = ireelab.compile(P.matmul_bias(4, 16, 16, relu=False), compile_to="flow").ir()
    assert re.search(
        r"util\.global private @__constant_tensor_16x16xf32 <inlining_policy = "
        r"#util\.inline\.never> \{stream\.affinity\.default = #hal\.device\.affinity<@__device_0>\}"
        r" = dense<\"0x[0-9A-F]+\"> : tensor<16x16xf32>",
        flow,
    )
    host = flow[flow.index("util.func public @mlp") :]
    assert re.search(
        r"%\w+ = util\.global\.load immutable @__constant_tensor_16x16xf32 : tensor<16x16xf32>",
        host,
    )
    assert re.search(
        r"flow\.dispatch @mlp_dispatch_0::@\w+\(%\w+, %__constant_tensor_16x16xf32\)", host
    )
    # the 16-element bias is inside the executable
    executable = flow[: flow.index("util.global private @__constant")]
    assert "arith.constant dense<[" in executable and "tensor<16xf32>" in executable
