"""Golden tests of the passes that changed for dense constants: ElementwiseOpFusionPass folds
splat inputs (MLIR's FoldScalarOrSplatConstant), CloneProducersIntoDispatchRegionsPass clones
constants up to IREE's 256-byte limit, each checked right after the pass in the real pipeline."""

from __future__ import annotations

import re

import programs as P

import ireelab


def run_upto(source: str, pass_name: str) -> str:
    """The module right after the first run of `pass_name` in the real pipeline."""
    trace = ireelab.compile(source, compile_to="flow").trace
    return trace.find(pass_name)[0].ir


def test_elementwise_fusion_folds_a_splat_input_to_a_scalar() -> None:
    # a * splat(2.0): the generic reads no tensor constant, its body multiplies by 2.0 : f32
    text = run_upto(P.ADDC, "ElementwiseOpFusionPass")
    assert "dense<2.000000e+00>" not in text
    assert re.search(r"%\w+ = arith.constant 2.000000e\+00 : f32", text)
    body = text.split("^bb0")[1]
    assert re.search(r"arith.mulf %\w+, %\w+ : f32", body)
    # the non-splat constant stays an input of the one fused generic
    assert text.count("linalg.generic") == 1
    assert re.search(r"ins\(%\w+, %d : tensor<4xf32>, tensor<4xf32>\)", text)


def test_splat_read_through_a_broadcast_map_folds_too() -> None:
    # splat used by a row-broadcast generic: still a scalar after folding
    source = """
func.func @f(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %b = arith.constant dense<3.0> : tensor<8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.subf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
"""
    text = run_upto(source, "ElementwiseOpFusionPass")
    assert "tensor<8xf32>" not in text
    assert "arith.constant 3.000000e+00 : f32" in text


def _region_and_host(source: str) -> tuple[str, str]:
    text = run_upto(source, "CloneProducersIntoDispatchRegionsPass")
    start = text.index("flow.dispatch.region")
    end = text.index("flow.return", start)
    return text[start:end], text[:start] + text[end:]


def test_clone_producers_clones_a_256_byte_constant() -> None:
    # 16x4 f32 = 256 bytes: both constants move into the region, none stays on the host
    region, host = _region_and_host(P.elementwise_2d(16, 4))
    assert region.count("arith.constant dense<[[") == 2
    assert "arith.constant dense" not in host


def test_clone_producers_leaves_a_260_byte_constant_on_the_host() -> None:
    # 5x13 f32 = 260 bytes: over the limit, passed to the dispatch as an operand
    region, host = _region_and_host(P.elementwise_2d(5, 13))
    assert "arith.constant dense" not in region
    assert host.count("arith.constant dense<[[") == 2
