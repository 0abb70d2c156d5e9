"""SinkReshapesPass: an expand_shape between a structured producer and an all-parallel consumer
moves past the consumer (which is collapsed to read the producer directly), unless IREE's
control function says no. The dispatch-level comparison with IREE 3.13 is
`programs/matmul_expand_elementwise.mlir` in test_iree_differential.py; results here against
numpy at rtol 1e-5."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from flow_helpers import FLOW_PASSES, run

import ireelab
from ireelab.dialects import flow

PROGRAM = (Path(__file__).parent / "programs" / "matmul_expand_elementwise.mlir").read_text()
UP_TO_SINK = FLOW_PASSES[: FLOW_PASSES.index("sink_reshapes:SinkReshapesPass") + 1]


def _dispatches(text: str) -> int:
    module = run(text, FLOW_PASSES)
    return sum(isinstance(o, flow.DispatchOp) for o in module.walk())


def test_expand_moves_past_the_elementwise_consumer() -> None:
    # the add runs on 8x32 reading the matmul; the other input is collapsed, the result expanded
    text = str(run(PROGRAM, UP_TO_SINK))
    assert re.search(r"tensor\.collapse_shape %\w+ \[\[0 : i64\], \[1 : i64, 2 : i64\]\]", text)
    add = text[text.index("arith.addf") - 600 : text.index("arith.addf")]
    assert "ins(%m, " in add and "tensor<8x32xf32>" in add
    assert re.search(r"tensor\.expand_shape .* into tensor<8x4x8xf32>", text)
    assert _dispatches(PROGRAM) == 1


def test_matmul_and_consumer_run_as_one_dispatch() -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((8, 16)).astype(np.float32)
    b = rng.standard_normal((16, 32)).astype(np.float32)
    c = rng.standard_normal((8, 4, 8)).astype(np.float32)
    got = ireelab.compile(PROGRAM).invoke("mm", a, b, c)
    np.testing.assert_allclose(got, (a @ b).reshape(8, 4, 8) + c, rtol=1e-5, atol=1e-5)


MATMUL = """
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %x = tensor.expand_shape %m [[0], [1, 2]] output_shape [8, 4, 8] : tensor<8x32xf32> into tensor<8x4x8xf32>
"""
MAP3 = "affine_map<(d0, d1, d2) -> (d0, d1, d2)>"

REDUCTION_CONSUMER = f"""
func.func @rows(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x4xf32> {{
{MATMUL}
  %e2 = tensor.empty() : tensor<8x4xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r = linalg.generic {{indexing_maps = [{MAP3}, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}} ins(%x : tensor<8x4x8xf32>) outs(%f2 : tensor<8x4xf32>) {{
  ^bb0(%i: f32, %o: f32):
    %s = arith.addf %i, %o : f32
    linalg.yield %s : f32
  }} -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}}
"""
"""A row sum over the expanded view: not all-parallel, so IREE leaves the reshape."""

BETTER_PRODUCER = f"""
func.func @two(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>, %p: tensor<8x4x16xf32>, %q: tensor<16x8xf32>) -> tensor<8x4x8xf32> {{
{MATMUL}
  %e3 = tensor.empty() : tensor<8x4x8xf32>
  %f3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<8x4x8xf32>) -> tensor<8x4x8xf32>
  %y = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}} ins(%p, %q : tensor<8x4x16xf32>, tensor<16x8xf32>) outs(%f3 : tensor<8x4x8xf32>) {{
  ^bb0(%u: f32, %v: f32, %o: f32):
    %w = arith.mulf %u, %v : f32
    %t = arith.addf %o, %w : f32
    linalg.yield %t : f32
  }} -> tensor<8x4x8xf32>
  %r = linalg.generic {{indexing_maps = [{MAP3}, {MAP3}, {MAP3}], iterator_types = ["parallel", "parallel", "parallel"]}} ins(%x, %y : tensor<8x4x8xf32>, tensor<8x4x8xf32>) outs(%e3 : tensor<8x4x8xf32>) {{
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    linalg.yield %s : f32
  }} -> tensor<8x4x8xf32>
  return %r : tensor<8x4x8xf32>
}}
"""
"""The add's other operand comes from a single-use 3-D contraction with as many parallel
loops as the add: IREE keeps the reshape, that producer being the one to fuse with."""


def test_a_reduction_consumer_keeps_the_reshape() -> None:
    text = str(run(REDUCTION_CONSUMER, UP_TO_SINK))
    assert "tensor.collapse_shape" not in text
    assert "tensor.expand_shape %m" in text


def test_an_operand_with_a_better_producer_keeps_the_reshape() -> None:
    text = str(run(BETTER_PRODUCER, UP_TO_SINK))
    assert "tensor.collapse_shape" not in text
    assert "tensor.expand_shape %m" in text


BROADCAST_CONSUMER = f"""
func.func @bcast(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>, %c: tensor<8x4x1xf32>) -> tensor<8x4x8xf32> {{
{MATMUL}
  %e3 = tensor.empty() : tensor<8x4x8xf32>
  %r = linalg.generic {{indexing_maps = [{MAP3}, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, {MAP3}], iterator_types = ["parallel", "parallel", "parallel"]}} ins(%x, %c : tensor<8x4x8xf32>, tensor<8x4x1xf32>) outs(%e3 : tensor<8x4x8xf32>) {{
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.subf %i, %j : f32
    linalg.yield %s : f32
  }} -> tensor<8x4x8xf32>
  return %r : tensor<8x4x8xf32>
}}
"""
"""A consumer reading another operand through `(d0, d1, 0)` (ONNX's expanded softmax does)."""


def test_a_consumer_with_a_broadcast_map_keeps_the_reshape() -> None:
    # regression: collapsing such a consumer crashed on the constant map result
    text = str(run(BROADCAST_CONSUMER, UP_TO_SINK))
    assert "tensor.expand_shape %m" in text
    rng = np.random.default_rng(1)
    a = rng.standard_normal((8, 16)).astype(np.float32)
    b = rng.standard_normal((16, 32)).astype(np.float32)
    c = rng.standard_normal((8, 4, 1)).astype(np.float32)
    got = ireelab.compile(BROADCAST_CONSUMER).invoke("bcast", a, b, c)
    np.testing.assert_allclose(got, (a @ b).reshape(8, 4, 8) - c, rtol=1e-5, atol=1e-5)
