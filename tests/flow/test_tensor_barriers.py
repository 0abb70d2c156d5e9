"""InsertTensorBarriers / RemoveTensorBarriers and the fusion they refuse: the golden files hold
for IREE's own passes too; a multi-result producer whose returned-only result is fenced keeps
its consumer in a second dispatch while a single result returned and consumed still fuses (the
names iree-compile 3.13 gives, compared live by test_iree_differential.py); no barrier is left
after dispatch formation.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from flow_helpers import FLOW_PASSES, iree_opt_meets_golden, run, run_upto

from ireelab.dialects import flow
from ireelab.dialects.iree_tensor_ext import ComputeBarrierEndOp, ComputeBarrierStartOp

HERE = Path(__file__).parent
PROGRAMS = HERE / "programs"
GOLDENS = HERE.parent / "filecheck" / "flow"
PASS_OF_GOLDEN = {
    "insert_tensor_barriers": "iree-dispatch-creation-insert-tensor-barriers",
    "remove_tensor_barriers": "iree-dispatch-creation-remove-tensor-barriers",
    "fuse_multi_use_barriers": "iree-dispatch-creation-fuse-multi-use-elementwise-producer",
}


@pytest.mark.iree
@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs the real IREE")
@pytest.mark.parametrize("golden", sorted(PASS_OF_GOLDEN))
def test_iree_passes_meet_the_same_golden(golden: str) -> None:
    path = GOLDENS / f"{golden}.mlir"
    pipeline = f"builtin.module(util.func({PASS_OF_GOLDEN[golden]}))"
    iree_opt_meets_golden(path, pipeline)


@pytest.mark.parametrize(
    "name, exports",
    [
        ("multi_result_returned_and_consumed", ["sum_returned_product_doubled_dispatch_0_elementwise_24_f32", "sum_returned_product_doubled_dispatch_1_elementwise_24_f32"]),
        ("single_result_returned_and_consumed", ["sum_returned_and_doubled_dispatch_0_elementwise_24_f32"]),
    ],
)  # fmt: skip
def test_dispatch_names(name: str, exports: list[str]) -> None:
    module = run((PROGRAMS / f"{name}.mlir").read_text(), FLOW_PASSES)
    got = [o.sym_name.data for o in module.walk() if isinstance(o, flow.ExecutableExportOp)]
    assert got == exports


def _barriers(module) -> list:
    return [o for o in module.walk() if isinstance(o, ComputeBarrierStartOp | ComputeBarrierEndOp)]


def test_barriers_fence_until_dispatch_regions_are_formed() -> None:
    text = (PROGRAMS / "multi_result_returned_and_consumed.mlir").read_text()
    # two starts (the arguments), two ends (the returned-only result, the consumer's result)
    fenced = run_upto(text, "CollapseDimensionsPass")
    kinds = sorted(type(b).__name__ for b in _barriers(fenced))
    assert kinds == ["ComputeBarrierEndOp"] * 2 + ["ComputeBarrierStartOp"] * 2
    assert _barriers(run_upto(text, "RemoveTensorBarriersPass")) == []
