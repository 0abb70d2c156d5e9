"""Every pass of IREE's pipeline filed into the seven stages, in IREE's order."""

from __future__ import annotations

from ireelab.compiler.pipeline import STAGES
from ireelab.iree.pass_stages import classify, flag_stage


def test_flag_families() -> None:
    assert flag_stage("iree-abi-wrap-entry-points{invocation-model=sync}") == "input"
    assert flag_stage("iree-hal-assign-legacy-target-devices") == "device"
    assert flag_stage("iree-dispatch-creation-form-dispatch-regions") == "flow"
    assert flag_stage("iree-stream-conversion") == "stream"
    assert flag_stage("iree-llvmcpu-select-lowering-strategy") == "codegen"
    assert flag_stage("iree-hal-conversion") == "hal"
    assert flag_stage("iree-vm-conversion") == "vm"
    assert flag_stage("canonicalize{max-iterations=10}") is None


def test_generic_passes_belong_to_the_stage_around_them() -> None:
    flags = [
        "iree-abi-wrap-entry-points",
        "canonicalize",
        "iree-hal-assign-legacy-target-devices",
        "cse",
    ]
    assert classify(flags) == ["input", "input", "device", "device"]


def test_hal_pipeline_head_opens_codegen() -> None:
    # The HAL pipeline starts with util checks and re-runs device assignment after Stream.
    flags = [
        "iree-stream-elide-timepoints",
        "symbol-dce",
        "iree-util-verify-initialization-order",
        "iree-util-attribute-call-graph",
        "iree-hal-assign-legacy-target-devices",
        "iree-hal-materialize-interfaces",
        "iree-hal-conversion",
    ]
    assert classify(flags) == [
        "stream",
        "stream",
        "codegen",
        "codegen",
        "codegen",
        "codegen",
        "hal",
    ]


def test_vm_opens_with_the_inliner_and_its_nested_canonicalizations() -> None:
    flags = [
        "iree-hal-conversion",
        "iree-util-fixed-point-iterator",
        "canonicalize",
        "canonicalize",
        "inline",
        "iree-vm-conversion",
    ]
    assert classify(flags) == ["hal", "hal", "vm", "vm", "vm", "vm"]


def test_tiny_matmul_stage_boundaries(tiny_trace) -> None:
    stages = [r.stage for r in tiny_trace]
    order = [STAGES.index(s) for s in stages]
    assert order == sorted(order)  # stages follow each other, never interleave
    first = {s: next(r for r in tiny_trace if r.stage == s) for s in STAGES}
    assert first["input"].name == "AutoInputConversionPipelinePass"
    assert first["device"].name == "AssignLegacyTargetDevicesPass"
    assert first["flow"].name == "AttrBasedPipelinePass"
    assert first["stream"].name == "VerifyInputPass"
    assert first["codegen"].name == "VerifyInitializationOrderPass"
    assert first["hal"].name == "ConvertToHALPass"
    assert first["vm"].name == "CanonicalizerPass"  # the VM inliner's nested canonicalize
    by_name = {r.name: r.stage for r in tiny_trace}
    assert by_name["WrapEntryPointsPass"] == "input"
    assert by_name["FormDispatchRegionsPass"] == "flow"
    assert by_name["ScheduleExecutionPass"] == "stream"
    assert by_name["LLVMCPUSelectLoweringStrategyPass"] == "codegen"
    assert by_name["ConvertToLLVMPass"] == "codegen"
    assert by_name["SerializeAllExecutablesPass"] == "hal"
    assert by_name["ConversionPass"] == "vm"
