"""Shared helpers for the Flow-stage tests (imported as `flow_helpers`): a context with the dialects the stage meets, and
the stage's passes in IREE's order (as `compiler/pipeline.py` should list them)."""

from __future__ import annotations

import importlib
import subprocess
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

DIALECTS = (
    ("xdsl.dialects.builtin", "Builtin"),
    ("xdsl.dialects.func", "Func"),
    ("xdsl.dialects.arith", "Arith"),
    ("xdsl.dialects.math", "Math"),
    ("xdsl.dialects.tensor", "Tensor"),
    ("ireelab.dialects.linalg_ext", "Linalg"),
    ("ireelab.dialects.flow", "Flow"),
    ("ireelab.dialects.iree_tensor_ext", "IREETensorExt"),
    ("ireelab.dialects.util", "Util"),
    ("ireelab.dialects.hal", "HAL"),
)

FLOW_PASSES = (
    "detach_elementwise_from_named_ops:DetachElementwiseFromNamedOpsPass",
    "erase_unused_linalg_operands:EraseUnusedLinalgOperandsPass",
    "decompose_concat:DecomposeConcatPass",
    "generalize_linalg_named_ops:GeneralizeLinalgNamedOpsPass",
    "insert_tensor_barriers:InsertTensorBarriersPass",
    "fold_unit_extent_dims:FoldUnitExtentDimsPass",
    "convert_batch_matmul_to_matmul:ConvertBatchMatmulToMatmulPass",
    "propagate_linalg_transpose:PropagateLinalgTransposePass",
    "tensor_pad_to_tensor_insert_slice:TensorPadToTensorInsertSlicePass",
    "fusion_preprocessing:FusionPreprocessingPass",
    "elementwise_op_fusion:ElementwiseOpFusionPass",
    "sink_reshapes:SinkReshapesPass",
    "fuse_multi_use_elementwise_producer:FuseMultiUseElementwiseProducerPass",
    "transpose_generic_ops:TransposeGenericOpsPass",
    "form_dispatch_regions:FormDispatchRegionsPass",
    "clone_producers_into_dispatch_regions:CloneProducersIntoDispatchRegionsPass",
    "collapse_dimensions:CollapseDimensionsPass",
    "remove_tensor_barriers:RemoveTensorBarriersPass",
    "convert_dispatch_regions_to_workgroups:ConvertDispatchRegionsToWorkgroupsPass",
    "convert_tensor_to_flow:ConvertTensorToFlowPass",
    "materialize_default_workgroup_count_region:MaterializeDefaultWorkgroupCountRegionPass",
    "outline_dispatch_regions:OutlineDispatchRegionsPass",
    "annotate_dispatches:AnnotateDispatchesPass",
    "deduplicate_executables:DeduplicateExecutablesPass",
)


def make_context() -> Context:
    ctx = Context()
    for module, attr in DIALECTS:
        ctx.load_dialect(getattr(importlib.import_module(module), attr))
    return ctx


def parse(text: str) -> ModuleOp:
    module = Parser(make_context(), text).parse_module()
    module.verify()
    return module


def pass_class(ref: str) -> type:
    module, name = ref.split(":")
    return getattr(importlib.import_module(f"ireelab.compiler.flow.{module}"), name)


def run(text: str, refs: tuple[str, ...] | list[str]) -> ModuleOp:
    """Parse `text`, run the passes `refs` (FLOW_PASSES entries) in order, verifying after each."""
    module = parse(text)
    ctx = make_context()
    for ref in refs:
        pass_class(ref)().apply(ctx, module)
        module.verify()
    return module


def run_upto(text: str, last: str) -> ModuleOp:
    """Run FLOW_PASSES up to and including the pass whose class name is `last`."""
    names = [r.split(":")[1] for r in FLOW_PASSES]
    return run(text, FLOW_PASSES[: names.index(last) + 1])


def iree_opt_meets_golden(golden: Path, pipeline: str) -> None:
    """The real `iree-opt --pass-pipeline=pipeline` on `golden` passes its CHECK lines."""
    out = subprocess.run(
        ["iree-opt", "--mlir-print-local-scope", f"--pass-pipeline={pipeline}", str(golden)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    check = subprocess.run(
        ["filecheck", str(golden)], input=out, capture_output=True, text=True, timeout=60
    )
    assert check.returncode == 0, check.stderr[:2000]
