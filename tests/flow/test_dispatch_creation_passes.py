"""Golden tests of the DispatchCreation and Flow passes, one section per pass, each stopping
right after the pass under test (the earlier passes of the stage prepare its input)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flow_helpers import FLOW_PASSES, run, run_upto
from reference_paths import REFERENCE

from ireelab.diagnostics import CompileError

EW = "affine_map<(d0, d1) -> (d0, d1)>"


def generic(name: str, ins: list[str], body: str, n: int = 2) -> str:
    maps = ", ".join([EW] * (len(ins) + 1))
    args = ", ".join(f"%a{i}: f32" for i in range(len(ins)))
    types = ", ".join(["tensor<8x16xf32>"] * len(ins))
    return (
        f"  %{name} = linalg.generic {{indexing_maps = [{maps}], iterator_types = "
        f'["parallel", "parallel"]}} ins({", ".join(ins)} : {types}) outs(%e : tensor<8x16xf32>) {{\n'
        f"  ^bb0({args}, %o: f32):\n    %r = {body}\n    linalg.yield %r : f32\n  }} -> tensor<8x16xf32>\n"
    )


def program(body: str, results: str = "%c", n_results: int = 1) -> str:
    ret_types = ", ".join(["tensor<8x16xf32>"] * n_results)
    return (
        "func.func @f(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> "
        f"({ret_types}) {{\n  %e = tensor.empty() : tensor<8x16xf32>\n{body}"
        f"  return {results} : {ret_types}\n}}\n"
    )


CHAIN = program(
    generic("a", ["%x", "%y"], "arith.addf %a0, %a1 : f32")
    + generic("b", ["%a", "%x"], "arith.mulf %a0, %a1 : f32")
    + generic("c", ["%b"], "math.tanh %a0 : f32")
)


def test_elementwise_op_fusion_makes_one_body() -> None:
    # add -> mul -> tanh: one generic, operands deduplicated (%x read once).
    text = str(run_upto(CHAIN, "ElementwiseOpFusionPass"))
    assert text.count("linalg.generic") == 1
    # (the arguments are read through InsertTensorBarriers' compute_barrier.start values)
    assert re.search(r"ins\(%\w+, %\w+ : tensor<8x16xf32>, tensor<8x16xf32>\)", text)
    body = text.split("^bb0")[1]
    assert body.index("arith.addf") < body.index("arith.mulf") < body.index("math.tanh")


MULTI_USE = program(
    generic("a", ["%x", "%y"], "arith.addf %a0, %a1 : f32")
    + generic("b", ["%a", "%y"], "arith.mulf %a0, %a1 : f32")
    + generic("c", ["%a", "%b"], "arith.subf %a0, %a1 : f32"),
    results="%c",
)


def test_elementwise_op_fusion_recomputes_multi_use_producer_only_if_cheap() -> None:
    # %a has two users: ElementwiseOpFusion leaves it; FuseMultiUse then fuses it into %b,
    # which returns %a as a second result for %c.
    fused = str(run_upto(MULTI_USE, "ElementwiseOpFusionPass"))
    assert "%a = linalg.generic" in fused or fused.count("linalg.generic") >= 1
    text = str(run_upto(MULTI_USE, "FuseMultiUseElementwiseProducerPass"))
    assert text.count("linalg.generic") == 1


MATMUL_EW = """
func.func @mm(%a: tensor<8x4xf32>, %b: tensor<4x16xf32>, %bias: tensor<16xf32>) -> tensor<8x16xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %bias : tensor<8x16xf32>, tensor<16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  return %g : tensor<8x16xf32>
}
"""


def test_form_dispatch_regions_fuses_consumer_not_fill() -> None:
    # The matmul is the root; its bias-add consumer joins it; the fill stays outside (cloned later).
    text = str(run_upto(MATMUL_EW, "FormDispatchRegionsPass"))
    assert text.count("flow.dispatch.region") == 1
    region = text.split("flow.dispatch.region")[1]
    assert "linalg.matmul" in region and "linalg.generic" in region and "linalg.fill" not in region
    assert "flow.return %" in region


def test_clone_producers_brings_fill_and_empty_in() -> None:
    text = str(run_upto(MATMUL_EW, "CloneProducersIntoDispatchRegionsPass"))
    host, region = text.split("flow.dispatch.region")
    assert "linalg.fill" not in host and "tensor.empty" not in host
    assert "linalg.fill" in region and "tensor.empty" in region and "arith.constant" in region


def test_reductions_are_roots_with_their_consumers() -> None:
    softmax = open(REFERENCE / "programs/e_softmax.mlir").read()
    text = str(run_upto(softmax, "FormDispatchRegionsPass"))
    regions = text.split("flow.dispatch.region")[1:]
    assert len(regions) == 2
    for region in regions:
        assert '"reduction"' in region and "arith.divf" in region or "math.exp" in region


def test_collapse_dimensions_flattens_elementwise() -> None:
    text = str(run_upto(CHAIN, "CollapseDimensionsPass")).replace(" : i64", "")
    region = text.split("flow.dispatch.region")[1]
    assert "tensor<128xf32>" in region and "affine_map<(d0) -> (d0)>" in region
    host = text.split("flow.dispatch.region")[0]
    assert re.search(r"tensor\.collapse_shape %\w+ \[\[0, 1\]\]", host)
    assert (
        "tensor.expand_shape" in text.split("flow.dispatch.region")[1].split("}\n")[-1]
        or "tensor.expand_shape" in text
    )


def test_collapse_dimensions_keeps_matmul_dispatch() -> None:
    # The bias-add reads the matmul result: its loops cannot be collapsed.
    text = str(run_upto(MATMUL_EW, "CollapseDimensionsPass"))
    assert "collapse_shape" not in text


def test_dispatch_workgroups_take_tensors_as_bindings() -> None:
    text = str(run_upto(MATMUL_EW, "ConvertDispatchRegionsToWorkgroupsPass"))
    assert "flow.dispatch.workgroups(%a, %b, %bias)" in text
    assert "!iree_tensor_ext.dispatch.tensor<readonly:tensor<8x4xf32>>" in text
    assert "!iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x16xf32>>" in text
    assert "iree_tensor_ext.dispatch.tensor.store" in text


def test_tensor_to_flow_reshapes() -> None:
    text = str(run_upto(CHAIN, "ConvertTensorToFlowPass"))
    assert "flow.tensor.reshape %x : tensor<8x16xf32> -> tensor<128xf32>" in text
    assert "tensor.collapse_shape" not in text.split("flow.dispatch.workgroups")[0]


def test_default_workgroup_count_region() -> None:
    text = str(run_upto(MATMUL_EW, "MaterializeDefaultWorkgroupCountRegionPass"))
    assert "count() -> (index, index, index)" in text
    assert "iree_tensor_ext.dispatch.workgroup_count_from_slice()" in text


def test_outline_and_annotate() -> None:
    outlined = str(run_upto(MATMUL_EW, "OutlineDispatchRegionsPass"))
    assert "flow.executable private @mm_dispatch_0" in outlined
    assert "flow.dispatch @mm_dispatch_0::@mm_dispatch_0(%a, %b, %bias)" in outlined
    named = str(run_upto(MATMUL_EW, "AnnotateDispatchesPass"))
    assert "flow.executable.export public @mm_dispatch_0_matmul_8x16x4_f32 workgroups()" in named
    assert "func.func @mm_dispatch_0_matmul_8x16x4_f32(" in named
    assert "flow.dispatch @mm_dispatch_0::@mm_dispatch_0_matmul_8x16x4_f32(" in named


def test_annotate_names_elementwise_and_transpose() -> None:
    text = str(run_upto(CHAIN, "AnnotateDispatchesPass"))
    assert "@f_dispatch_0_elementwise_128_f32" in text
    transpose_add = open(REFERENCE / "programs/h_transpose_add.mlir").read()
    assert "elementwise_transpose_1024x1024_f32" in str(
        run_upto(transpose_add, "AnnotateDispatchesPass")
    )


def test_deduplicate_same_bodies() -> None:
    two = open(REFERENCE / "programs/c_two_matmuls_add.mlir").read()
    # Two plain same-shape matmuls (no consumer): one executable, two sites.
    program = """
func.func @twice(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m2 = linalg.matmul ins(%m, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m2 : tensor<8x8xf32>
}
"""
    text = str(run(program, FLOW_PASSES))
    assert text.count("flow.executable private") == 1
    assert text.count("flow.dispatch @twice_dispatch_0::@twice_dispatch_0_matmul_8x8x8_f32") == 2
    assert str(run(two, FLOW_PASSES)).count("flow.executable private") == 2


def test_unplaceable_host_op_is_a_flow_error() -> None:
    # A pad whose value depends on the position cannot become fill + insert_slice.
    program = """
func.func @pad(%a: tensor<4x4xf32>) -> tensor<6x6xf32> {
  %p = tensor.pad %a low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    %k = arith.index_cast %i : index to i32
    %z = arith.sitofp %k : i32 to f32
    tensor.yield %z : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  return %p : tensor<6x6xf32>
}
"""
    with pytest.raises(CompileError) as info:
        run(program, FLOW_PASSES)
    assert info.value.stage == "flow" and "tensor.pad" in info.value.message


def test_deduplicate_tells_signed_zeros_apart() -> None:
    # Bodies equal but for a 0.0 / -0.0 constant are two executables; equal ones are one.
    def clamp(first: str, second: str) -> str:
        return (
            "func.func @f(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> "
            "(tensor<8x16xf32>, tensor<8x16xf32>) {\n"
            f"  %k0 = arith.constant {first} : f32\n  %k1 = arith.constant {second} : f32\n"
            "  %e = tensor.empty() : tensor<8x16xf32>\n"
            + generic("a", ["%x"], "arith.maximumf %a0, %k0 : f32")
            + generic("b", ["%y"], "arith.maximumf %a0, %k1 : f32")
            + "  return %a, %b : tensor<8x16xf32>, tensor<8x16xf32>\n}\n"
        )

    assert str(run(clamp("0.0", "-0.0"), FLOW_PASSES)).count("flow.executable private") == 2
    assert str(run(clamp("0.0", "0.0"), FLOW_PASSES)).count("flow.executable private") == 1


def test_multi_use_fusion_takes_every_read_of_the_producer() -> None:
    """Regression: a consumer reading two results of a multi-use producer got one read fused
    and the other left reading the fused generic's own result (invalid IR, then a codegen
    error); both reads take the producer's yields now, one generic and the right values."""
    import numpy as np

    import ireelab

    path = Path(__file__).parent / "programs" / "multi_use_producer_read_twice.mlir"
    text = str(run_upto(path.read_text(), "FuseMultiUseElementwiseProducerPass"))
    assert text.count("linalg.generic") == 1
    module = ireelab.compile(str(path))
    for a in ([3, 50], [30, 2], [-5, 9]):
        a = np.array(a, np.int64)
        t = np.maximum(np.array([20, 8]), a) - np.array([20, 8])
        div, sub = module.f(a)
        np.testing.assert_array_equal(div, t // 2)  # t >= 0: divsi rounds as floor
        np.testing.assert_array_equal(sub, t - t // 2)
