"""The compiler's outline: IREE's stages in order, the passes of each, and `--compile-to`.

Mirrors IREE's `Pipelines.cpp` (the phases and early exit at `--compile-to`) and each dialect's
`Transforms/Passes.cpp` (a linear list of passes with a line on why each runs there). Read this
file and you have read the compiler. IREE passes ireelab does not model appear as comments in
their place, so the gap is visible.

Each entry names a pass as "module:Class"; modules are imported on first use so `import
ireelab` stays fast.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache

STAGES = ("input", "device", "flow", "stream", "codegen", "hal", "vm")
"""The seven stages of the founding note, A to G."""

STAGE_LETTERS = dict(zip(STAGES, "ABCDEFG", strict=True))

PHASES = (
    "input",
    "abi",
    "flow",
    "stream",
    "executable-sources",
    "executable-targets",
    "hal",
    "vm",
    "end",
)
"""`--compile-to` phases, as IREE names them; each is a checkpoint in the list below."""


@dataclass(frozen=True)
class Step:
    stage: str
    ref: str
    """`module:Class` of the pass, relative to `ireelab.compiler`."""
    options: tuple[tuple[str, object], ...] = ()
    when: str | None = None
    """A `CompileOptions` flag that must be on for the pass to run (IREE adds the pass to its
    pipeline only under that flag), e.g. `data_tiling` for `--iree-opt-data-tiling`."""

    def make(self, **overrides):
        module_name, class_name = self.ref.split(":")
        module = importlib.import_module(f"ireelab.compiler.{module_name}")
        return getattr(module, class_name)(**{**dict(self.options), **overrides})


@dataclass(frozen=True)
class Checkpoint:
    phase: str


def _stage(stage: str, *refs: str) -> list[Step]:
    return [Step(stage, ref) for ref in refs]


PIPELINE: list[Step | Checkpoint] = [
    # ---- A input: make the program one verified module with a buffer-view ABI -------------
    # IREE: AutoInputConversionPipelinePass and ImportMLProgramPass bring other input
    # dialects in; a cell is already linalg. DemoteF64ToF32Pass: not modelled (f64 stays f64).
    # ConvertStreamableOpsPass: no streamable calls in cells.
    *_stage(
        "input",
        "input.import_public:IREEImportPublicPass",  # func.* -> util.func / util.call
        "input.verify_input_legality:VerifyInputLegalityPass",  # types the backend can hold
        "input.sanitize_module_names:SanitizeModuleNamesPass",  # module @a.b -> @a_b (VM name)
        "input.common:CanonicalizerPass",  # fold constants so later passes see simple IR
    ),
    Checkpoint("input"),
    *_stage(
        "input",
        "input.wrap_entry_points:WrapEntryPointsPass",  # public funcs take !hal.buffer_view
        "input.common:CanonicalizerPass",
        "input.common:InlinerPass",  # the wrapped callee is private and called once: inline it
        "input.common:CanonicalizerPass",  # sizes passed as constants make inlined `?`s static
        "input.common:CSEPass",
        "input.common:SymbolDCEPass",  # drop private functions nothing calls any more
    ),
    Checkpoint("abi"),
    # ---- B device: say which devices exist and what each compiles for -------------------
    *_stage(
        "device",
        "device.assign_legacy_target_devices:AssignLegacyTargetDevicesPass",
        "device.materialize_target_devices:MaterializeTargetDevicesPass",
        # IREE: ResolveDevicePromisesPass, ResolveDeviceAliasesPass (nothing to resolve here)
        "device.verify_devices:VerifyDevicesPass",
    ),
    # ---- C flow: global optimisation, then carve the program into dispatch regions -------
    *_stage(
        "flow",
        # IREE's GlobalOptimization pipeline, the parts that shape partitioning. It starts by
        # verifying input legality: the dynamic shapes of inlined private functions are checked
        # here (the rest was checked at input already, to refuse early).
        "input.verify_input_legality:VerifyInputLegalityPass",
        "util.optimize_int_arithmetic:OptimizeIntArithmeticPass",  # affine.apply -> arith
        "util.strip_debug_ops:StripDebugOpsPass",  # cf.assert goes (--iree-opt-strip-assertions)
        "flow.convert_elementwise_to_linalg:ConvertElementwiseToLinalgPass",  # arith on tensors
        "flow.detach_elementwise_from_named_ops:DetachElementwiseFromNamedOpsPass",
        # unused results, unread and repeated operands of generics go (and dead generics)
        "flow.erase_unused_linalg_operands:EraseUnusedLinalgOperandsPass",
        "flow.decompose_concat:DecomposeConcatPass",  # inner-dim concat -> insert_slices
        "flow.generalize_linalg_named_ops:GeneralizeLinalgNamedOpsPass",
        "flow.insert_tensor_barriers:InsertTensorBarriersPass",  # fence returned/argument values
        "flow.convert_batch_matmul_to_matmul:ConvertBatchMatmulToMatmulPass",
        "flow.propagate_linalg_transpose:PropagateLinalgTransposePass",
        "util.fold_globals:FoldGlobalsPass",  # constant globals' values inlined into loads
        # DispatchCreation preprocessing: unit dims would otherwise leak into dispatch names
        "flow.fold_unit_extent_dims:FoldUnitExtentDimsPass",
        "input.common:CSEPass",  # IREE's CSE after it: one collapse_shape per folded value
        # DispatchCreation:
        "flow.tensor_pad_to_tensor_insert_slice:TensorPadToTensorInsertSlicePass",  # pad -> fill
        "flow.fusion_preprocessing:FusionPreprocessingPass",  # inputs read in order; fold pad-of-pad
        "flow.decompose_aggregated_ops:DecomposeAggregatedOpPass",  # (de)quantize_affine -> generics
        "flow.elementwise_op_fusion:ElementwiseOpFusionPass",
        # IREE: FoldReshapesIntoTensorBarriersPass (here and in GlobalOpt; ireelab-opt runs it,
        # the pipeline does not: without flow.tensor.reshape chain folding its host reshapes
        # stay apart; BubbleUpExpandShapes leaves reshapes at barriers alone instead)
        # IREE: BubbleUpExpandShapesPass and a second ElementwiseOpFusionPass (written, not
        # enabled: ireelab-opt runs it; in the pipeline SqueezeNet's ONNX route lost two of
        # iree-compile's dispatch sites)
        "flow.sink_reshapes:SinkReshapesPass",  # expand_shape past a consumer: it fuses
        "flow.fuse_multi_use_elementwise_producer:FuseMultiUseElementwiseProducerPass",
        "flow.transpose_generic_ops:TransposeGenericOpsPass",  # reduction loops innermost
    ),
    # --iree-opt-data-tiling: matmul operands encoded, then packed for the one target
    Step("flow", "flow.set_encoding:SetEncodingPass", when="data_tiling"),
    Step(
        "flow",
        "flow.materialize_homogeneous_encodings:MaterializeHomogeneousEncodingsPass",
        when="data_tiling",
    ),
    Step("flow", "flow.jit_globals:JitGlobalsPass", when="data_tiling"),  # packs of weights
    *_stage(
        "flow",
        "flow.form_dispatch_regions:FormDispatchRegionsPass",
        "flow.clone_producers_into_dispatch_regions:CloneProducersIntoDispatchRegionsPass",
        "flow.collapse_dimensions:CollapseDimensionsPass",
        "flow.hoist_uniform_scalar_compute:HoistUniformScalarComputePass",  # reads -> host
        "flow.remove_tensor_barriers:RemoveTensorBarriersPass",
        "flow.convert_dispatch_regions_to_workgroups:ConvertDispatchRegionsToWorkgroupsPass",
        "flow.convert_tensor_to_flow:ConvertTensorToFlowPass",  # host reshapes -> flow.tensor.*
        "flow.materialize_default_workgroup_count_region:MaterializeDefaultWorkgroupCountRegionPass",
        "flow.outline_dispatch_regions:OutlineDispatchRegionsPass",
        "flow.annotate_dispatches:AnnotateDispatchesPass",
        "flow.deduplicate_executables:DeduplicateExecutablesPass",
        # IREE: CleanupTensorShapesPass (static shapes: nothing to clean)
        "flow.outline_constants:OutlineConstantsPass",  # large host constants -> util.global
        "input.common:CanonicalizerPass",
        "input.common:CSEPass",
    ),
    Checkpoint("flow"),
    # ---- D stream: resources, async execution, timepoints ---------------------------------
    *_stage(
        "stream",
        "stream.convert_to_stream:ConvertToStreamPass",
        "util.combine_initializers:CombineInitializersPass",  # all constants in one block
        "stream.encode_host_tensors:EncodeHostTensorsPass",  # sizes in bytes, async ops
        "util.fold_globals:FoldGlobalsPass",  # constant sizes inlined, init-only loads immutable
        "input.common:CSEPass",  # one constant per size / element type, as IREE's host code
        "stream.elide_async_copies:ElideAsyncCopiesPass",
        "stream.emplace_allocations:EmplaceAllocationsPass",
        "stream.refine_usage:RefineUsagePass",
        "stream.elide_async_copies:ElideAsyncCopiesPass",  # copies of constants, now read-only
        "stream.schedule_execution:ScheduleExecutionPass",
        "stream.schedule_concurrency:ScheduleConcurrencyPass",
        "stream.propagate_timepoints:PropagateTimepointsPass",
        "stream.schedule_allocation:ScheduleAllocationPass",
        "stream.pack_constants:PackConstantsPass",  # constants -> module bytes mapped in place
        "stream.layout_slices:LayoutSlicesPass",  # packs of ?-sized slices -> host arithmetic
        # IREE: PropagateSubrangesPass, FuseGlobalsPass (one global for the packed buffer,
        # dispatches binding it at offsets); ireelab keeps one global per constant's subview
        "stream.scf_to_control_flow:SCFToControlFlowPass",  # host loops -> blocks, cf.br
        "stream.elide_timepoints:ElideTimepointsPass",
        "stream.fuse_dispatch_bindings:FuseDispatchBindingsPass",
        "stream.pack_dispatch_operands:PackDispatchOperandsPass",
        "input.common:CSEPass",  # one bitcast / word split per scalar, shared by its sites
        "stream.fold_uniform_operands:FoldUniformOperandsPass",  # constant offsets inlined
    ),
    Checkpoint("stream"),
    # ---- E codegen: every executable becomes device code (numba kernels) ------------------
    # MaterializeInterfacesPass is a HAL pass in IREE; it runs here, right before the
    # executables are translated, and marks the executable-sources phase.
    *_stage("codegen", "hal.materialize_interfaces:MaterializeInterfacesPass"),
    Checkpoint("executable-sources"),
    *_stage(
        "codegen",
        "codegen.decompose_softmax:DecomposeSoftmaxPass",  # linalg.softmax -> four generics
        "codegen.decompose_pack_unpack_ops:DecomposePackUnPackOpsPass",  # pack/unpack -> generics
        "codegen.expand_f16_op_to_f32:ExpandF16OpToF32Pass",  # numba has no half arithmetic
        # numba-cpu bufferizes unit-stride windows only: strided slices become generics
        "codegen.convert_strided_slice_to_generic:ConvertStridedSliceToGenericPass",
        "codegen.select_lowering_strategy:LLVMCPUSelectLoweringStrategyPass",
        "codegen.tile_and_distribute:TileAndDistributeToWorkgroupsPass",
        "codegen.cpu_lower_to_ukernels:CPULowerToUKernelsPass",  # tile matmuls -> BLAS ukernel
        "codegen.bufferize:IREEComprehensiveBufferizePass",
        "codegen.memref_copy_to_linalg:MemrefCopyToLinalgPass",  # copies lower like any op
        "codegen.linalg_ext_to_loops:LinalgExtToLoopsPass",  # sort, topk, scatter: scalar loops
        "codegen.affine_expand_index_ops:AffineExpandIndexOpsPass",  # (de)linearize -> arith
        "codegen.convert_linalg_to_loops:ConvertLinalgToLoopsPass",
        "codegen.convert_complex_to_standard:ConvertComplexToStandardPass",  # parts' arith
        "codegen.math_transform:MathTransformPass",  # f32 tanh / exp as vectorisable arith
        "codegen.fold_memref_alias_ops:FoldMemRefAliasOpsPass",  # index flat buffers, not views
        "codegen.loop_invariant_code_motion:LoopInvariantCodeMotionPass",  # tile offsets out
        "codegen.convert_to_numba:ConvertToNumbaPass",  # where IREE has ConvertToLLVMPass
    ),
    Checkpoint("executable-targets"),
    # ---- F hal: host code on the HAL: command buffers, queues, fences ---------------------
    *_stage(
        "hal",
        "hal.convert_to_hal:ConvertToHALPass",
        # --iree-hal-memoization (IREE's default): reusable command buffers recorded once
        "hal.outline_memoize_regions:OutlineMemoizeRegionsPass",
        "hal.serialize_executables:SerializeAllExecutablesPass",
    ),
    Checkpoint("hal"),
    # ---- G vm: host code as VM bytecode calling the hal module ----------------------------
    *_stage("vm", "vm.conversion:ConversionPass"),
    Checkpoint("vm"),
]


EXTRA_PASSES: tuple[str, ...] = (
    "flow.fold_reshapes_into_tensor_barriers:FoldReshapesIntoTensorBarriersPass",
    "flow.bubble_up_expand_shapes:BubbleUpExpandShapesPass",
)
"""Passes `ireelab-opt -p` can run that the default pipeline does not."""


@cache
def pass_table() -> dict[str, tuple[str, type]]:
    """Pass class name and flag -> (stage, class), for `--mlir-print-ir-after=` lookups."""
    table: dict[str, tuple[str, type]] = {}
    refs = [(s.stage, s.ref) for s in PIPELINE if isinstance(s, Step)]
    refs += [("input", ref) for ref in EXTRA_PASSES]
    for stage, ref in refs:
        cls = _load(ref)
        if cls is not None:
            table.setdefault(ref.split(":")[1], (stage, cls))
            table.setdefault(cls.name, (stage, cls))
    return table


def _load(ref: str) -> type | None:
    """The pass class `ref` names, or None while its module is not written yet (the test
    `tests/test_pipeline.py` fails until every listed pass exists)."""
    module_name, class_name = ref.split(":")
    full_name = f"ireelab.compiler.{module_name}"
    try:
        module = importlib.import_module(full_name)
    except ModuleNotFoundError as err:
        if err.name == full_name:
            return None
        raise
    return getattr(module, class_name, None)


def steps_until(phase: str, options=None) -> list[Step]:
    """The passes that run for `--compile-to=phase` (all of them for `end`): with `options`
    (a `CompileOptions`), a step with a `when` flag runs if that flag is on; without, the
    default pipeline's (no flagged step)."""
    if phase not in PHASES:
        raise ValueError(f"unknown phase '{phase}'; expected one of {', '.join(PHASES)}")
    steps: list[Step] = []
    for step in PIPELINE:
        if isinstance(step, Checkpoint):
            if step.phase == phase:
                return steps
            continue
        if step.when is None or (options is not None and getattr(options, step.when)):
            steps.append(step)
    return steps
