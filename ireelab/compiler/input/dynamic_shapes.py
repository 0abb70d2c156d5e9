"""The dynamic constructs the stages after input carry, and refusing the others at input.

IREE compiles dynamic shapes: `tensor<?x4xf32>` values, `tensor.empty(%n)`, slices at offsets
computed at run time, each carried through Flow (workloads), Stream (sizes computed on the
host) and codegen (dims as push constants). ireelab carries a first family through every
stage: `?` sizes in a public function's signature, flowing through elementwise
`linalg.generic`s (and `arith` / `math` on whole tensors) and reductions, `linalg.matmul` /
`linalg.batch_matmul` / `linalg.quantized_matmul`, convolutions and pools over a `?`
batch and `?` image sizes (`nchw_fchw`, `nhwc_hwcf`, grouped `ngchw`, depthwise, 1-D
`ncw_fcw`, 3-D `ncdhw_fcdhw`, `nchw` / `nhwc` max and sum; ONNX's ConvInteger
`conv_2d_nchw_fchw_q`), the convolutions and pools over `?` channel, filter and group
counts too (not a `?` window), `linalg.fill`, `linalg.broadcast` (ONNX's conv bias into a `?` batch), `iree_linalg_ext.sort` /
`scan` / `topk_v2` / `gather` / `attention` / `arg_compare` /
`quantize_affine` / `dequantize_affine`, `linalg.pack` / `unpack`
(tile sizes too may be SSA values), `tensor.empty` whose sizes the host computes
(from argument shapes with `tensor.dim`, from elements read back with `tensor.extract` -
ONNX's one-hot depth -, from integer and `index` scalar arguments - VM registers, which
iree-compile makes dispatch workloads - and integer arithmetic on those, sizes behind
`util.optimization_barrier`), `tensor.dim`, `tensor.cast`, `util.optimization_barrier`,
`flow.tensor.dynamic_constant` / `tie_shape` / `reshape`, `tensor.collapse_shape` /
`tensor.expand_shape` (an expand's `output_shape` computed on the host), `tensor.reshape` to a
`tensor.from_elements` of `index` host sizes (GroupNormalization's), `tensor.concat` of
`?` inputs, and `tensor.extract_slice` / `insert_slice` of `?`-shaped tensors or at offsets
and sizes the host computes (from shapes, from elements read back, the index of a host
`scf.for`, whose body forms dispatches at Flow as IREE's does, or a scalar the loop or an
`scf.if` carries - ONNX NonMaxSuppression's count of kept boxes; Stream, HAL and the VM
carry the loop on, tensors as resources and sizes, scalars as host values). A host
`scf.for` may carry a `?`-shaped tensor whose sizes it keeps (what the body yields has the
iter_arg's sizes: `util/loop_carried_dims.py`); one that changes them (a concat onto the
carried tensor) is refused here. A host `scf.if` may yield `?`-shaped tensors whose
sizes both branches give alike (`util/branch_dims.py`); an `scf.while` carries none. A `?`-sized input a generic reads at a constant index too (a
`?x1` broadcast into a static result, ONNX NonZero's) is carried when the generic's loops
make it static: the canonicalizer casts it to those sizes. A private
function's `?` signature is checked after InlinerPass and the canonicalizer put its body in
its callers (VerifyInputLegalityPass runs again there, as IREE runs it), so what the
callers' constants make static compiles as static. A `tensor.pad` by amounts the host
computes is carried too, of static or `?`-sized tensors (a pad to a `?` result: ONNX's
CenterCropPad). Any other dynamic construct would be compiled as if it had some fixed size
and give wrong numbers, so it is refused here, at its line: a dynamically shaped value of any
other op, a `tensor.empty` sized by anything else (a float argument converted with
`arith.fptosi`, which the VM does not do on the host), and an op whose offsets, sizes,
strides, padding or output shape are SSA values other than those host sizes.
"""

from __future__ import annotations

from xdsl.dialects import arith, func, scf, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IndexType,
    IntegerType,
    ShapedType,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr

from ireelab.compiler.input.infer_static_shapes import inferred_type, static_loop_sizes
from ireelab.compiler.util.branch_dims import branches_keep_shape
from ireelab.compiler.util.dynamic_dims import find_dynamic_dims
from ireelab.compiler.util.loop_carried_dims import preserves_shape
from ireelab.diagnostics import CompileError
from ireelab.dialects import check, flow, hal, iree_linalg_ext, linalg_ext, linalg_softmax, util
from ireelab.dialects.iree_linalg_ext_quant import QUANT_OPS
from ireelab.dialects.linalg_conv_nd import Conv1DNcwFcwOp, Conv3DNcdhwFcdhwOp
from ireelab.dialects.linalg_conv_q import Conv2DNchwFchwQOp
from ireelab.dialects.linalg_pack import PackOp, UnPackOp
from ireelab.dialects.linalg_pooling import POOLING_OPS, SPATIAL, PoolingNchwMaxOp

_POSITIONS = {
    "static_offsets": "offsets",
    "static_sizes": "sizes",
    "static_strides": "strides",
    "static_low": "low padding",
    "static_high": "high padding",
    "static_output_shape": "output shape",
}
"""Properties where MLIR marks an SSA-valued entry with `kDynamic`, and what each holds."""


def is_dynamic(t: Attribute) -> bool:
    return isinstance(t, ShapedType) and any(d == DYNAMIC_INDEX for d in t.get_shape())


_CARRIES_DYNAMIC = (
    tensor.DimOp,
    tensor.ConcatOp,  # each `?` size is its inputs' (a sum along the concat dimension)
    flow.TensorReshapeOp,
    flow.TensorTieShapeOp,
    flow.TensorDynamicConstantOp,
    tensor.CastOp,
    tensor.CollapseShapeOp,
    tensor.ExpandShapeOp,
    util.OptimizationBarrierOp,
    linalg.FillOp,
    linalg.TransposeOp,  # generalized at GlobalOptimization: a permutation of its loops
    linalg.BroadcastOp,  # generalized too: its `?` sizes are its init's
    linalg_ext.MatmulOp,
    linalg_ext.BatchMatmulOp,
    linalg.QuantizedMatmulOp,
    linalg_softmax.SoftmaxOp,
    iree_linalg_ext.AttentionOp,
    iree_linalg_ext.OnlineAttentionOp,
    iree_linalg_ext.GatherOp,
    iree_linalg_ext.TopkV2Op,
    iree_linalg_ext.ArgCompareOp,  # ONNX's ArgMax / ArgMin: loops over the input's extents
    iree_linalg_ext.SortOp,  # loops bounded by the buffers' `?` extents
    iree_linalg_ext.ScanOp,
    util.ReturnOp,
    util.CallOp,
    func.ReturnOp,
    PackOp,  # `?` sizes (and SSA tile sizes) are loop bounds and index arithmetic
    UnPackOp,
    check.ExpectEqOp,  # on the host: buffer views of the run-time shape
    check.ExpectAlmostEqOp,
    check.ExpectAllTrueOp,
    hal.TensorImportOp,  # the ABI's, when VerifyInputLegalityPass runs again after it
    hal.TensorExportOp,
    hal.TensorBarrierOp,  # IREE's async ABI: each result is its source, sizes and all
)
"""Ops that may take or make `?`-sized tensors (with `linalg.generic`, `tensor.empty` and
`util.func` under the rules below)."""

_SIZE_ARITH = frozenset(
    f"arith.{name}"
    for name in (
        "constant addi subi muli divsi divui remsi remui minsi maxsi minui maxui andi ori "
        "xori cmpi select index_cast index_castui extsi extui trunci fptosi fptoui ceildivui "
        "floordivsi"
    ).split()
) | {"affine.apply"}
"""Integer arithmetic a size may be computed with (a float element converted to an integer
included: ONNX gives one-hot depths as floats; the VM refuses that cast at its own stage if
it is left on the host; `affine.apply` becomes `arith` in OptimizeIntArithmeticPass)."""


_CHANNELS_FIRST = (2, 0)
_CHANNELS_LAST = (1, 1)
_WINDOWS = {
    linalg.Conv2DNchwFchwOp: _CHANNELS_FIRST,
    Conv2DNchwFchwQOp: _CHANNELS_FIRST,  # ONNX's ConvInteger: scalar zero points, a generic
    linalg.Conv2DNhwc_HwcfOp: _CHANNELS_LAST,
    linalg.Conv2DNgchwGfchwOp: (3, 0),  # ONNX's grouped Conv: n, g, c, then the image
    linalg.Conv2DNgchwFgchwOp: (3, 0),
    linalg_ext.DepthwiseConv2DNchwChwOp: _CHANNELS_FIRST,  # ONNX's Conv, a group per channel
    linalg_ext.DepthwiseConv2DNhwcHwcOp: _CHANNELS_LAST,
    Conv1DNcwFcwOp: _CHANNELS_FIRST,
    Conv3DNcdhwFcdhwOp: _CHANNELS_FIRST,
}
"""Convolutions and pools (`_POOLS`) that may run over `?` batch and image sizes
(`_over_dynamic_image`), with where each one's image dims are in its image and result: the
first one, and how many (channel) dims follow the last."""


def _pool_layout(pool: type) -> tuple[int, int]:
    """`_WINDOWS`'s entry of a pool, from its layout string (`ncw`: (2, 0), `ndhwc`: (1, 1))."""
    spatial = [i for i, letter in enumerate(pool.LAYOUT) if letter in SPATIAL]
    return spatial[0], len(pool.LAYOUT) - 1 - spatial[-1]


_POOLS = (PoolingNchwMaxOp, *POOLING_OPS)
"""Every pool (1-, 2- and 3-D windows, each layout and fold): a window loop per spatial
dimension, the loops run over the tile's extents read at run time, as for the 2-D ones."""
_WINDOWS.update({pool: _pool_layout(pool) for pool in _POOLS})


_FILTER_WINDOW = {
    linalg.Conv2DNchwFchwOp: slice(2, 4),  # f, c, kh, kw
    Conv2DNchwFchwQOp: slice(2, 4),  # f, c, kh, kw (then the two zero points)
    linalg.Conv2DNhwc_HwcfOp: slice(0, 2),  # kh, kw, c, f
    linalg_ext.DepthwiseConv2DNchwChwOp: slice(1, 3),  # c, kh, kw
    linalg_ext.DepthwiseConv2DNhwcHwcOp: slice(0, 2),  # kh, kw, c
    Conv1DNcwFcwOp: slice(2, 3),  # f, c, k
    Conv3DNcdhwFcdhwOp: slice(2, 5),  # f, c, kd, kh, kw
    linalg.Conv2DNgchwFgchwOp: slice(3, 5),  # f, g, c, kh, kw
    linalg.Conv2DNgchwGfchwOp: slice(3, 5),  # g, f, c, kh, kw
    **dict.fromkeys(_POOLS, slice(None)),  # a pool's second input is its window (kh x kw ...)
}
"""The convolutions and pools that may also run over `?` channel, filter and group counts
(`_over_dynamic_channels`), with where the window is in each one's filter (a pool's second
input is its window)."""


def _over_dynamic_channels(op: Operation) -> bool:
    """A convolution (2-D `nchw_fchw` and ConvInteger's `_q`, `nhwc_hwcf`, both depthwise
    layouts, grouped `ngchw`, 1-D `ncw_fcw`, 3-D `ncdhw_fcdhw`) or a pool (1-, 2- or 3-D) whose window
    is static and any other size `?`: the input channel count (the reduction's extent),
    the filter and group counts and the batch and image sizes. Flow takes each `?` as a
    workload entry (iree-compile's `conv_DxDxDxDxDx3x3` exports), the workgroups tile the
    result's `?` dims, and the convolution micro-kernels (2-D and depthwise) or the loops
    (the others) read every extent of their tiles at run time. A `?` window stays
    refused."""
    window = _FILTER_WINDOW.get(type(op))
    if window is None:
        return False
    return DYNAMIC_INDEX not in op.inputs[1].type.get_shape()[window]


def _over_dynamic_image(op: Operation) -> bool:
    """A convolution or pool whose `?`s are the batch (dim 0) and image sizes of its image
    and result, as ONNX exports a CNN with a dynamic batch and torch a Conv1d over a dynamic
    length: Flow's dispatch takes each `?` as a workload entry (IREE's `_Dx...` exports),
    the result's sizes are the program's own (`tensor.empty` sized by the host's
    arithmetic on the image's), and the micro-kernel or the loops run over them. `?`
    channel and filter counts are `_over_dynamic_channels`'s."""
    layout = _WINDOWS.get(type(op))
    if layout is None:
        return False
    first, tail = layout
    image, output = op.inputs[0], op.outputs[0]
    windowed = {image, output, *op.results}
    for value in (*op.operands, *op.results):
        shape = value.type.get_shape() if isinstance(value.type, ShapedType) else ()
        fixed = [*shape[1:first], *shape[len(shape) - tail :]] if value in windowed else shape
        if DYNAMIC_INDEX in fixed:
            return False
    return True


def _is_host_size(value: SSAValue) -> bool:
    """True if `value` is an integer the host computes before the dispatches that need it:
    from tensor shapes (`tensor.dim`), constants, and elements read from tensors
    (`tensor.extract`, which Flow makes a `flow.tensor.load`: the host reads the element
    back once its producers have run, as IREE does for ONNX's one-hot depth or a split's
    sizes), and the index of a host `scf.for`."""
    pending, seen = [value], set()
    while pending:
        value = pending.pop()
        if value in seen:
            continue
        seen.add(value)
        if _is_loop_index(value):
            continue
        carried = _carried_values(value)
        if carried is not None:
            pending.extend(carried)
            continue
        if _is_scalar_argument(value):
            continue
        if not isinstance(value, OpResult):
            return False
        op = value.op
        # shapes (a buffer view's dims once the ABI folds them), constants, read-back elements
        leaves = tensor.DimOp | hal.BufferViewDimOp | util.UnfoldableConstantOp | tensor.ExtractOp
        if isinstance(op, leaves):
            continue
        if isinstance(op, util.OptimizationBarrierOp):
            pending.append(op.operands[value.index])
        elif op.name in _SIZE_ARITH and not op.regions:
            pending.extend(op.operands)
        else:
            return False
    return True


def _carried_values(value: SSAValue) -> list[SSAValue] | None:
    """The values a scalar carried by host control flow comes from: a host `scf.for`'s
    iter_arg (its init and what the body yields) or an `scf.if` result (what each branch
    yields). The host keeps the scalar in a VM register, as IREE does (NonMaxSuppression's
    count of boxes kept); None for any other value."""
    if isinstance(value.type, TensorType):
        return None
    if isinstance(value, BlockArgument) and value.index > 0:
        loop = value.block.parent_op()
        if not isinstance(loop, scf.ForOp) or value.block is not loop.body.block:
            return None
        i = value.index - 1
        yielded = loop.body.block.last_op
        return [loop.iter_args[i], *([yielded.operands[i]] if yielded is not None else [])]
    if isinstance(value, OpResult) and isinstance(value.op, scf.ForOp):
        return [value.op.iter_args[value.index], value.op.body.block.args[value.index + 1]]
    if isinstance(value, OpResult) and isinstance(value.op, scf.IfOp):
        return [
            region.block.last_op.operands[value.index]
            for region in value.op.regions
            if region.blocks and region.block.last_op is not None
        ]
    return None


def _is_scalar_argument(value: SSAValue) -> bool:
    """An integer or `index` argument of a function: the caller passes it as a VM host
    value (IREE's ABI keeps `i64` / `index` arguments as they are), so sizes and offsets
    computed from it are host values too."""
    if not isinstance(value, BlockArgument) or not isinstance(value.type, IntegerType | IndexType):
        return False
    return isinstance(value.block.parent_op(), util.FuncOp | func.FuncOp)


def _reshape_sized_by_host(op: tensor.ReshapeOp) -> bool:
    """A `tensor.reshape` to a shape the host builds (`tensor.from_elements` of sizes: ONNX's
    Reshape of a `?` batch, GroupNormalization's): ConvertTensorToFlowPass makes it a
    `flow.tensor.reshape` whose `?` dims are those elements. A shape read from a tensor's
    contents is not carried, nor (`_is_index_size`) a `?` element computed in i64."""
    shape = op.shape
    if not isinstance(shape, OpResult) or not isinstance(shape.op, tensor.FromElementsOp):
        return False
    result = op.result.type.get_shape()
    return all(
        _is_index_size(v) for v, size in zip(shape.op.elements, result, strict=True) if size < 0
    )


def _is_index_size(value: SSAValue) -> bool:
    """A host size that is an `index` already, or an integer cast of one (torch-mlir's
    `arith.index_cast` of a `tensor.dim`): the later stages find the reshape's `?` dims
    without building anything. A size computed in i64 arithmetic (a batch times 2) is not
    carried yet."""
    if isinstance(value, OpResult) and isinstance(value.op, arith.IndexCastOp):
        value = value.op.input
    return isinstance(value.type, IndexType) and _is_host_size(value)


def _is_constant(value: SSAValue) -> bool:
    return isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp)


def _is_loop_index(value: SSAValue) -> bool:
    """The induction variable of a host `scf.for`: the host steps it (the loop stays on the
    host around the dispatches of its body, as IREE keeps it)."""
    if not isinstance(value, BlockArgument) or value.index != 0:
        return False
    return isinstance(value.block.parent_op(), scf.ForOp)


def _indexes_dynamic_operands(op: linalg.GenericOp) -> bool:
    """Every `?`-sized operand is read through a projected permutation (its loops span
    its dims); a static operand may also be read at constant indices (a broadcast
    `(d0, d1) -> (d0, 0)`), and so may a `?`-sized input whose `?`s its loops make static
    (ONNX NonZero's `?x1` broadcast into a static result: the canonicalizer casts it to the
    loops' sizes, `InferStaticShapeOfOperands`)."""
    sizes = static_loop_sizes(op)
    for i, (operand, m) in enumerate(zip(op.operands, op.indexing_maps, strict=True)):
        if not all(isinstance(e, AffineDimExpr | AffineConstantExpr) for e in m.data.results):
            if not _windowed_static_dims(op, operand.type, m.data):
                return False
            continue
        if m.data.is_projected_permutation() or not is_dynamic(operand.type):
            continue
        if _loops_span_dynamic_dims(operand.type, m.data):
            continue
        refined = inferred_type(operand, m, sizes) if i < len(op.inputs) else None
        if refined is None or is_dynamic(refined):
            return False
    return True


def _windowed_static_dims(op: linalg.GenericOp, t: Attribute, amap) -> bool:
    """An operand read at sums of loops (a window, `d2 + d5`) along static dims only, its
    `?` dims along single loops, and every loop some operand's dim: a pool or convolution
    as a generic (IREE's ONNX importer writes a 3-D MaxPool so) over a `?` batch, whose
    loops take their sizes from the operands' shapes as the named pools' do."""
    if not _loops_span_dynamic_dims(t, amap):
        return False
    plain = {
        e.position for m in op.indexing_maps for e in m.data.results if isinstance(e, AffineDimExpr)
    }
    return plain == set(range(amap.num_dims))


def _loops_span_dynamic_dims(t: Attribute, amap) -> bool:
    """Each `?` dim of `t` is read along a loop, constant indices only into its static dims:
    a keepdim reduction's `?x1` init `(d0, d1) -> (d0, 0)` (torch's layer_norm mean and
    variance), whose loops take the `?` from the operand they reduce."""
    return all(
        isinstance(e, AffineDimExpr)
        for size, e in zip(t.get_shape(), amap.results, strict=True)
        if size == DYNAMIC_INDEX
    )


def _elementwise_on_tensors(op: Operation) -> bool:
    """`arith` / `math` on whole tensors of one shape (ConvertElementwiseToLinalgPass makes it
    a generic sized by its operands' dims)."""
    if op.dialect_name() not in ("arith", "math") or op.regions or not op.operands:
        return False
    types = [v.type for v in (*op.operands, *op.results)]
    if not all(isinstance(t, TensorType) for t in types):
        return False
    return len({tuple(t.get_shape()) for t in types}) == 1


def _carries_dynamic(op: Operation) -> bool:
    if (
        isinstance(op, _CARRIES_DYNAMIC)
        or _elementwise_on_tensors(op)
        or op.name.startswith("check.expect_")
    ):
        return True
    if isinstance(op, tensor.ExtractOp):
        # an element of a `?`-sized tensor read in a generic's body (a gather, ONNX's
        # ReverseSequence): the dispatch binds the tensor with its dims; on the host it
        # would be a `flow.tensor.load` with dims, which Stream does not carry yet
        return isinstance(op.parent_op(), linalg.GenericOp)
    if isinstance(op, tensor.EmptyOp):
        return all(_is_host_size(v) for v in op.dynamic_sizes)
    if isinstance(op, tensor.ReshapeOp):
        return _reshape_sized_by_host(op)
    if isinstance(op, scf.ForOp):
        # a `?` tensor the loop carries without changing its sizes (MLIR's DimOfIterArgFolder)
        return all(preserves_shape(op, i, find_dynamic_dims) for i in range(len(op.iter_args)))
    if isinstance(op, scf.IfOp):
        # `?` tensors both branches yield with the sizes of one tensor from before the if
        return all(
            branches_keep_shape(op, i, find_dynamic_dims)
            for i, r in enumerate(op.results)
            if is_dynamic(r.type)
        )
    if isinstance(op, scf.YieldOp) and isinstance(op.parent_op(), scf.ForOp | scf.IfOp):
        return _carries_dynamic(op.parent_op())
    if isinstance(op, linalg.GenericOp):
        return _indexes_dynamic_operands(op)
    if isinstance(op, QUANT_OPS):
        # ONNX's (De)QuantizeLinear: an elementwise generic at DecomposeAggregatedOpPass,
        # its scale and zero point read along the loops (per axis) or once (per tensor)
        return all(m.is_projected_permutation() for m in op.maps())
    return _over_dynamic_image(op) or _over_dynamic_channels(op)


def signature_error(func: util.FuncOp, t: Attribute) -> CompileError:
    name = func.sym_name.data
    return CompileError.at(
        func, f"dynamic shape {t} in the signature of '@{name}' is not supported yet", "input"
    )


def _check_signature(op: util.FuncOp) -> None:
    """`?` sizes enter through a public function's buffer views; a private function that
    is still here after inlining (one the inliner cannot inline) would take them from its
    callers' tensors, which is not carried yet."""
    if op.sym_visibility is None or op.sym_visibility.data == "public":
        return
    for t in (*op.function_type.inputs.data, *op.function_type.outputs.data):
        if is_dynamic(t):
            raise signature_error(op, t)


def _positioned_on_host(op: Operation) -> bool:
    """A `tensor.extract_slice` / `insert_slice` at offsets and sizes the host computes
    (strides written in the op), or a `tensor.pad` by amounts the host computes (ONNX's Pad
    with its pads as an input, CenterCropPad's to a `?`-sized result): constants are written
    into the op by the canonicalizer, elements read from tensors make Flow give the op a copy
    dispatch whose operands carry them. The sliced or padded tensor may be `?`-sized itself:
    its sizes are host values too (its producer's dims), and a pad's `?` result is its
    source's size plus the two amounts."""
    if isinstance(op, tensor.PadOp):
        positions = (*op.low, *op.high)
    elif isinstance(op, tensor.ExtractSliceOp | tensor.InsertSliceOp):
        if not all(_is_constant(v) for v in op.strides):
            return False  # the canonicalizer writes constant strides into the op
        positions = (*op.offsets, *op.sizes)
    else:
        return False
    return all(_is_host_size(v) for v in positions)


def check_dynamic(op: Operation) -> None:
    """Raise a located error if `op` makes, takes or positions anything at run-time size in
    a way the later stages do not carry."""
    if isinstance(op, util.FuncOp):
        _check_signature(op)
    if _positioned_on_host(op):
        return
    if isinstance(op, util.FuncOp) or _carries_dynamic(op):
        check_positions(op)
        return
    for t in value_types(op):
        if is_dynamic(t):
            raise CompileError.at(
                op, f"dynamic shape {t} of '{op.name}' is not supported yet", stage="input"
            )
    check_positions(op)


def check_positions(op: Operation) -> None:
    """Refuse offsets, sizes, strides, padding or output shapes given as SSA values."""
    for prop, what in _POSITIONS.items():
        values = op.properties.get(prop)
        if isinstance(op, tensor.ExpandShapeOp) and _expand_sized_by_shapes(op):
            continue
        if isinstance(values, DenseArrayBase) and DYNAMIC_INDEX in values.get_values():
            raise CompileError.at(op, _position_message(op, what), stage="input")


def _expand_sized_by_shapes(op: tensor.ExpandShapeOp) -> bool:
    """An `output_shape` the host computes: from tensor shapes (`%n / 8` of a `?` input's
    size) or from elements read back (`tensor.extract`)."""
    return all(_is_host_size(v) for v in op.dynamic_output_shape)


def value_types(op: Operation):
    """The types of `op`'s results, operands and region arguments."""
    yield from (v.type for v in op.results)
    yield from (v.type for v in op.operands)
    for region in op.regions:
        for block in region.blocks:
            yield from (a.type for a in block.args)


def _position_message(op: Operation, what: str) -> str:
    return (
        f"{what} of '{op.name}' given as SSA values are not supported yet "
        f"(only constants written in the op, as in [0, 2])"
    )
