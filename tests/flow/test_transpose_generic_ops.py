"""TransposeGenericOpsPass (`iree-dispatch-creation-transpose-generic-ops`): the golden file
tests/filecheck/flow/transpose_generic_ops.mlir holds for the real IREE pass too; the reduction
layout programs get IREE's dispatch names without IREE installed (test_iree_differential.py
compares them with iree-compile when it is); the interchange helpers on their own.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from flow_helpers import FLOW_PASSES, iree_opt_meets_golden, run
from xdsl.ir.affine import AffineDimExpr, AffineMap

from ireelab.compiler.flow.transpose_generic_ops import (
    normalized_reduction_interchange,
    reduction_innermost_interchange,
)
from ireelab.dialects import flow

HERE = Path(__file__).parent
PROGRAMS = HERE / "programs"
GOLDEN = HERE.parent / "filecheck" / "flow" / "transpose_generic_ops.mlir"


@pytest.mark.iree
@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs the real IREE")
def test_iree_pass_meets_the_same_golden() -> None:
    # the CHECK lines ireelab-opt is held to are what IREE's own pass prints
    pipeline = "builtin.module(util.func(iree-dispatch-creation-transpose-generic-ops))"
    iree_opt_meets_golden(GOLDEN, pipeline)


@pytest.mark.parametrize(
    "name, exports",
    [
        ("column_sum", ["column_sum_dispatch_0_reduction_16x8_f32"]),
        ("column_max_3d", ["column_max_3d_dispatch_0_reduction_4x6x8_f32"]),
        ("column_mean_then_scale", ["column_mean_then_scale_dispatch_0_reduction_20x12_f32"]),
        ("softmax_dim0", ["softmax_dim0_dispatch_0_reduction_16x8_f32", "softmax_dim0_dispatch_1_reduction_16x8_f32"]),
        ("reduce_transposed_input", ["reduce_transposed_input_dispatch_0_reduction_10x6_f32"]),
        ("reduce_of_transpose_op", ["reduce_of_transpose_op_dispatch_0_reduction_4x6_f32"]),
    ],
)  # fmt: skip
def test_dispatch_names(name: str, exports: list[str]) -> None:
    # the names iree-compile 3.13 gives these programs
    module = run((PROGRAMS / f"{name}.mlir").read_text(), FLOW_PASSES)
    got = [o.sym_name.data for o in module.walk() if isinstance(o, flow.ExecutableExportOp)]
    assert got == exports


def test_reduction_innermost_interchange() -> None:
    # parallel loops first in their order, then the reduction loops in theirs
    assert reduction_innermost_interchange(["reduction", "parallel"]) == [1, 0]
    assert reduction_innermost_interchange(["reduction", "parallel", "reduction", "parallel"]) == [
        1,
        3,
        0,
        2,
    ]
    assert reduction_innermost_interchange(["parallel", "reduction"]) is None
    assert reduction_innermost_interchange(["reduction", "reduction"]) is None


def _map(num_dims: int, *dims: int) -> AffineMap:
    return AffineMap(num_dims, 0, tuple(AffineDimExpr(d) for d in dims))


def test_normalized_reduction_interchange() -> None:
    iterators = ["parallel", "reduction", "reduction", "reduction"]
    # the input lists the reduction dims as d3, d1, d2
    maps = [_map(4, 0, 3, 1, 2), _map(4, 0)]
    assert normalized_reduction_interchange(iterators, maps) == [0, 3, 1, 2]
    # already ascending
    assert normalized_reduction_interchange(iterators, [_map(4, 0, 1, 2, 3), _map(4, 0)]) is None
    # the maps disagree on d1 / d2, which keep their order; only the first names d3 with them,
    # and it lists d3 first
    disagree = [_map(4, 0, 3, 2, 1), _map(4, 0, 1, 2), _map(4, 0)]
    assert normalized_reduction_interchange(iterators, disagree) == [0, 3, 1, 2]
    # one reduction dim: nothing to order
    assert normalized_reduction_interchange(["parallel", "reduction"], [_map(2, 1, 0)]) is None
