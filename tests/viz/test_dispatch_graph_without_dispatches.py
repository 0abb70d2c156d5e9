"""The dispatch graph of a program that forms no dispatch: returning an argument or a
contiguous slice of it is host data movement only (`flow.tensor.slice`, as IREE 3.13 lowers it),
so the graph draws arguments, host ops and results from the last Flow IR and says there is no
dispatch, instead of claiming the compile stopped early."""

from __future__ import annotations

import re

import pytest

import ireelab
from ireelab.diagnostics import CompileError

SLICE_AND_ARGUMENT = """
func.func @f(%a: tensor<8x16xf32>) -> (tensor<2x16xf32>, tensor<8x16xf32>) {
  %s = tensor.extract_slice %a[2, 0] [2, 16] [1, 1] : tensor<8x16xf32> to tensor<2x16xf32>
  return %s, %a : tensor<2x16xf32>, tensor<8x16xf32>
}
"""

IDENTITY = """
func.func @id(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
"""

NO_DISPATCH = "no dispatches: the program only moves data on the host (flow.tensor.* ops)"


def _labels(dot: str) -> list[str]:
    return re.findall(r'^\s*(?!legend)\w+ \[label="((?:[^"\\]|\\.)*)"', dot, re.M)


def test_a_returned_slice_is_drawn_as_host_data_movement() -> None:
    graph = ireelab.compile(SLICE_AND_ARGUMENT, compile_to="flow").dispatch_graph()
    dot = graph.source
    assert "cluster_d" not in dot and "box3d" not in dot.split("cluster_legend")[0]
    assert _labels(dot) == [
        "%arg0",
        'hal.tensor.import \\"input0\\"',
        "flow.tensor.slice",
        'hal.tensor.export \\"output0\\"',
        'hal.tensor.export \\"output1\\"',
        "result 0",
        "result 1",
    ]
    assert 'op0 -> op1 [label="tensor<8x16xf32>"]' in dot  # import -> slice
    assert 'op1 -> op2 [label="tensor<2x16xf32>"]' in dot  # slice -> export
    assert 'op0 -> op3 [label="tensor<8x16xf32>"]' in dot  # the argument itself, returned
    assert graph.summary.splitlines() == [
        "dispatch graph of @f: 0 dispatch(es)",
        f"  {NO_DISPATCH}",
    ]


def test_a_function_returning_its_argument_draws_import_to_export() -> None:
    graph = ireelab.compile(IDENTITY, compile_to="flow").dispatch_graph()
    assert _labels(graph.source) == [
        "%arg0",
        'hal.tensor.import \\"input0\\"',
        'hal.tensor.export \\"output0\\"',
        "result 0",
    ]
    assert NO_DISPATCH in graph.summary
    assert "stopped" not in graph.summary


def test_a_compile_stopped_before_flow_still_says_so() -> None:
    module = ireelab.compile(SLICE_AND_ARGUMENT, compile_to="input")
    with pytest.raises(CompileError, match="stopped before any IR a dispatch graph"):
        module.dispatch_graph()
