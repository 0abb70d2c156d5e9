"""`?` sizes through input/ABI and Flow, spelled as `iree-compile` prints them.

The expected lines are IREE 3.13's `--compile-to=abi` / `--compile-to=flow` output for the
same programs (SSA names aside): dims read from buffer views, carried on imports and exports,
captured by dispatches as index operands that are the workload, marked with workload ordinals
and tied to the bindings in the body.
"""

from __future__ import annotations

import re
from pathlib import Path

import ireelab

PROGRAMS = Path(__file__).parent / "programs"


def _ir(name: str, phase: str) -> str:
    return ireelab.compile(str(PROGRAMS / name), compile_to=phase).ir()


def _lines(text: str) -> list[str]:
    """Lines with SSA names replaced by `%_`, so they compare with IREE's numbering."""
    return [re.sub(r"%[\w]+", "%_", line.strip()) for line in text.splitlines()]


def test_abi_reads_dims_from_buffer_views():
    lines = _lines(_ir("add_dx4.mlir", "abi"))
    assert "%_ = hal.buffer_view.dim<%_ : !hal.buffer_view>[0] : index" in lines
    assert '%_ = hal.tensor.import %_ "input0" : !hal.buffer_view -> tensor<?x4xf32>{%_}' in lines
    assert '%_ = hal.tensor.export %_ "output0" : tensor<?x4xf32>{%_} -> !hal.buffer_view' in lines
    assert "%_ = tensor.empty(%_) : tensor<?x4xf32>" in lines
    assert not any("tensor.dim" in line for line in lines), "result dims fold to the import's"


def test_reduction_dispatch_as_iree_names_and_shapes_it():
    ir = _ir("rowsum_dxd.mlir", "flow")
    lines = _lines(ir)
    assert "flow.executable.export public @rowsum_dispatch_0_reduction_DxD_f32" in ir
    assert "%_, %_, %_ = iree_tensor_ext.dispatch.workgroup_count_from_slice(%_, %_)" in lines
    assert "%_ = iree_tensor_ext.dispatch.workload.ordinal %_, 0 : index" in lines
    assert "%_ = iree_tensor_ext.dispatch.workload.ordinal %_, 1 : index" in lines
    tie = (
        "%_ = flow.dispatch.tie_shape %_ : "
        "!iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%_, %_}"
    )
    assert tie in lines
    load = (
        "%_ = iree_tensor_ext.dispatch.tensor.load %_, offsets = [0, 0], sizes = [%_, %_], "
        "strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%_, %_}"
        " -> tensor<?x?xf32>"
    )
    assert load in lines
    dispatch = [line for line in lines if "flow.dispatch @" in line]
    assert dispatch == [
        "%_ = flow.dispatch @rowsum_dispatch_0::@rowsum_dispatch_0_reduction_DxD_f32[%_, %_]"
        "(%_, %_, %_) : (tensor<?x?xf32>{%_, %_}, index, index) -> tensor<?xf32>{%_}"
    ]


def test_workload_is_the_dims_the_dispatch_captures():
    """Each `?` size the dispatch needs is an index operand and a workload entry, in order."""
    ir = _ir("add_dx4.mlir", "flow")
    site = next(line for line in ir.splitlines() if "flow.dispatch @" in line)
    workload = re.search(r"\[(.*?)\]", site).group(1).split(", ")
    operands = re.search(r"\]\((.*?)\)", site).group(1).split(", ")
    assert len(workload) == 2 and all(w in operands for w in workload)
    # CollapseDimensions flattened ?x4 to ?, as IREE: the sizes are the element counts (the
    # result's first, as IREE orders the operands: the tensor.empty captures it first)
    assert ": (index, tensor<?xf32>{" in site and "-> tensor<?xf32>{" in site
    for size in workload:
        assert re.search(rf"{size} = arith\.muli %\w+, %\w+ : index", ir)
        assert re.search(
            rf"flow\.tensor\.reshape %\w+ : tensor<\?x4xf32>{{%\w+}} -> tensor<\?xf32>{{{size}}}",
            ir,
        )


def test_dispatch_graph_shows_dims_symbolically():
    """Edges carry `?x8` types; the ties naming binding sizes are plumbing, not nodes, so the
    imported tensor's edge reaches the op in the dispatch that reads it."""
    source = ireelab.compile(str(PROGRAMS / "mlp_batch.mlir")).dispatch_graph().source
    assert 'op0 -> d0_op0 [label="tensor<?x8xf32>"]' in source
    assert 'd0_op0 -> d1_op1 [label="tensor<?x8xf32>"]' in source
    assert "tie_shape" not in source and "workload.ordinal" not in source
