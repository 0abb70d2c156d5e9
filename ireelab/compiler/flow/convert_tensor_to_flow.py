"""ConvertTensorToFlowPass (`iree-dispatch-creation-convert-tensor-to-flow`).

Mirrors IREE's DispatchCreation/ConvertTensorToFlow.cpp with the patterns of
Flow/Conversion/TensorToFlow. It runs right after the dispatch regions became
`flow.dispatch.workgroups`, and gives every tensor op still on the host a place to run:

1. a host `tensor.insert_slice` that writes one contiguous run of its destination (see
   `tensor_slices.is_contiguous`) becomes `flow.tensor.update`; any other is wrapped in a
   dispatch of its own (a *slow_memcpy* kernel) whose result is tied to the destination, so
   the kernel writes the slice in place into a `readwrite` binding;
2. likewise a host `tensor.extract_slice` becomes `flow.tensor.slice` or a copy dispatch
   with a `writeonly` result. Offsets and sizes may be SSA values the host computes from
   shapes (`tensor.dim` arithmetic): the flow op takes them, with the `?` dims of its
   operands and result. A slice or an update at offsets or sizes computed from an element
   read from a tensor (IREE's `producedByValueExtract`) gets a copy dispatch; the reads
   (`tensor.extract`, `arith.index_cast`) are cloned into it, so the kernel binds the tensor
   and reads its positions itself (`cloneProducersToRegion`), only the sizes of a `?` result
   staying host values (its workload);
3. an outer-dimension `tensor.concat` becomes `flow.tensor.empty` and one
   `flow.tensor.update` per input at the running sum of the inputs' row counts
   (inner-dimension concats were decomposed into insert_slices by DecomposeConcatPass); a host
   `linalg.fill` becomes `flow.tensor.splat` and a `tensor.empty` still used on the host
   `flow.tensor.empty` (with its sizes), as does a constant of zero elements;
4. a `tensor.collapse_shape` / `tensor.expand_shape` of a row-major tensor only renames the
   shape of the same bytes: `flow.tensor.reshape`; so does a `tensor.cast` between static and
   `?` sizes, with the dims it leaves dynamic; an `iree_tensor_ext.bitcast` is
   `flow.tensor.bitcast`;
5. inside every dispatch, extract/insert slices fold into the loads and stores around them
   (`fold_slices_into_dispatch_tensors`).

Whatever still computes a tensor on the host afterwards (a `tensor.pad` whose padding depends
on the position, an `arith` op on tensors...) has no place to run: it is reported here, located and naming the op, rather than failing later.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    ModuleOp,
    ShapedType,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.flow import structured as st
from ireelab.compiler.flow.clone_producers_into_dispatch_regions import clone_into
from ireelab.compiler.flow.convert_dispatch_regions_to_workgroups import convert
from ireelab.compiler.flow.convert_tensor_elements import (
    HOST_TENSOR_OPS_KEPT,
    convert_tensor_elements,
)
from ireelab.compiler.flow.dispatch_utils import HOST_CONTROL_FLOW, is_outside_dispatch
from ireelab.compiler.flow.fold_slices_into_dispatch_tensors import fold_slices
from ireelab.compiler.flow.tensor_slices import (
    MixedSlice,
    is_contiguous,
    is_rank_reducing,
    mixed_slice,
)
from ireelab.compiler.util.dynamic_dims import add_sizes, build_dynamic_dims, find_dynamic_dims
from ireelab.diagnostics import CompileError, copy_location
from ireelab.dialects import flow, iree_tensor_ext

_HOST_DIALECTS = ("flow", "hal", "util", "func")
STAGE = "flow"


def erase_dead_values(module: ModuleOp) -> None:
    """Drop side-effect-free host ops whose results nobody reads (left over by fusion)."""
    for op in reversed(list(module.walk())):
        if op.dialect_name() not in ("tensor", "arith", "linalg") or not is_outside_dispatch(op):
            continue
        if op.results and all(st.use_count(r) == 0 for r in op.results):
            Rewriter.erase_op(op)


def check_placed(op: Operation) -> None:
    """Raise a located error for a tensor computation left outside every dispatch."""
    if op.dialect_name() in _HOST_DIALECTS or op.name == "arith.constant":
        return
    if isinstance(op, (*HOST_CONTROL_FLOW, scf.YieldOp, scf.ConditionOp)):
        return  # host control flow: its regions' tensor work is in dispatches of their own
    if op.name in HOST_TENSOR_OPS_KEPT:
        return
    if isinstance(op, tensor.EmptyOp) and all(st.use_count(r) == 0 for r in op.results):
        return
    if any(isinstance(r.type, ShapedType) for r in op.results):
        raise CompileError.at(
            op, f"'{op.name}' on tensors cannot be placed in a dispatch", stage=STAGE
        )


# ---- helpers ---------------------------------------------------------------------------------


def index_constants(values: list[int], before: Operation) -> list[SSAValue]:
    """`arith.constant N : index` for each value, inserted before `before` (CSE merges them)."""
    ops = []
    for v in values:
        c = arith.ConstantOp(IntegerAttr(v, IndexType()))
        c.result.name_hint = f"c{v}"
        ops.append(c)
    Rewriter.insert_op(ops, InsertPoint.before(before))
    return [c.result for c in ops]


def wrap_in_dispatch(op: Operation) -> flow.DispatchWorkgroupsOp:
    """Give `op` a dispatch of its own (IREE's `wrapOpInDispatchRegion` + conversion)."""
    results = list(op.results)
    dims = [d for r in results for d in (find_dynamic_dims(r) or [])]
    region = flow.DispatchRegionOp([r.type for r in results], Region(Block()), result_dims=dims)
    copy_location(op, region)
    Rewriter.insert_op(region, InsertPoint.before(op))
    op.detach()
    region.body.block.add_op(op)
    region.body.block.add_op(flow.ReturnOp(*results))
    for old, new in zip(results, region.results, strict=True):
        old.replace_uses_with_if(new, lambda use: use.operation.parent_op() is not region)
    while clone_into(region):
        pass
    workgroups = convert(region)
    copy_location(op, workgroups)
    return workgroups


# ---- 1, 2: slices ----------------------------------------------------------------------------


def convert_insert_slice(op: tensor.InsertSliceOp) -> None:
    s = mixed_slice(op)
    if not _mappable_to_flow(op, s, list(op.result.type.get_shape())):
        wrap_in_dispatch(op)
        return
    source = op.source
    size_dims = [v for v in s.sizes if isinstance(v, SSAValue)]
    new_ops: list[Operation] = []
    if is_rank_reducing(op):
        unreduced = TensorType(op.source.type.element_type, _shape_of(s.sizes))
        reshape = flow.TensorReshapeOp(source, unreduced, size_dims, size_dims)
        new_ops.append(reshape)
        source = reshape.result
    starts = _index_values(s.offsets, op)
    update = flow.TensorUpdateOp(op.dest, starts, source, _dims(op, op.dest), size_dims)
    new_ops.append(update)
    for new in new_ops:
        copy_location(op, new)
    Rewriter.replace_op(op, new_ops, [update.result])


def _unreduced_slice(op: tensor.ExtractSliceOp, s: MixedSlice) -> tensor.ExtractSliceOp:
    """A rank-reducing slice as the same slice keeping its unit dims, then a host reshape
    that drops them (the same bytes): the copy dispatch's slice then folds into its load."""
    unreduced = TensorType(op.result.type.element_type, s.sizes)
    whole = tensor.ExtractSliceOp(op.source, s.offsets, s.sizes, s.strides, unreduced)
    reshape = flow.TensorReshapeOp(whole.result, op.result.type)
    for new in (whole, reshape):
        copy_location(op, new)
    Rewriter.replace_op(op, [whole, reshape], [reshape.result])
    return whole


def _produced_by_value_extract(value: SSAValue) -> bool:
    """IREE's `producedByValueExtract`: `value` is computed from an element read from a
    tensor (`tensor.extract` / `flow.tensor.load`), which lives on the device."""
    pending, seen = [value], set()
    while pending:
        owner = pending.pop().owner
        if not isinstance(owner, Operation) or owner in seen:
            continue
        if isinstance(owner, tensor.ExtractOp | flow.TensorLoadOp):
            return True
        seen.add(owner)
        pending.extend(owner.operands)
    return False


def _mappable_to_flow(op: Operation, s: MixedSlice, base_shape: list[int]) -> bool:
    """IREE's `isOffsetSizeAndStrideMappableToFlow`: one contiguous run, positioned by
    values the host has without reading a tensor (constants, shapes and arithmetic on them).
    A slice at an element read back gets a copy dispatch instead (the kernel reads the
    element, so the host need not wait to slice); one at SSA strides has none."""
    if any(isinstance(v, SSAValue) for v in s.strides):
        raise CompileError.at(
            op, f"'{op.name}' with strides given as SSA values is not supported", STAGE
        )
    if not is_contiguous(s, base_shape):
        return False
    return not any(_produced_by_value_extract(v) for v in (*op.offsets, *op.sizes))


def _index_values(mixed: list[SSAValue | int], before: Operation) -> list[SSAValue]:
    """The SSA values of mixed offsets or sizes, constants made `arith.constant`s."""
    constants = iter(index_constants([v for v in mixed if isinstance(v, int)], before))
    return [v if isinstance(v, SSAValue) else next(constants) for v in mixed]


def _shape_of(sizes: list[SSAValue | int]) -> list[int]:
    return [DYNAMIC_INDEX if isinstance(v, SSAValue) else v for v in sizes]


def _dims(op: Operation, value: SSAValue) -> list[SSAValue]:
    dims = build_dynamic_dims(value)
    if dims is None:
        raise CompileError.at(op, f"the sizes of this '{op.name}' are not known here", STAGE)
    return dims


def convert_extract_slice(op: tensor.ExtractSliceOp) -> None:
    s = mixed_slice(op)
    if not _mappable_to_flow(op, s, list(op.source.type.get_shape())):
        static = all(isinstance(v, int) for v in (*s.offsets, *s.sizes))
        wrap_in_dispatch(_unreduced_slice(op, s) if is_rank_reducing(op) and static else op)
        return
    starts = _index_values(s.offsets, op)
    lengths = _index_values(s.sizes, op)
    size_dims = [v for v in s.sizes if isinstance(v, SSAValue)]
    unreduced = TensorType(op.result.type.element_type, _shape_of(s.sizes))
    new_ops: list[Operation] = [
        flow.TensorSliceOp(op.source, starts, lengths, unreduced, _dims(op, op.source), size_dims)
    ]
    if is_rank_reducing(op):
        new_ops.append(
            flow.TensorReshapeOp(new_ops[0].result, op.result.type, size_dims, size_dims)
        )
    for new in new_ops:
        copy_location(op, new)
    Rewriter.replace_op(op, new_ops, [new_ops[-1].results[0]])


# ---- 3, 4: the other host tensor ops -----------------------------------------------------------


def convert_concat(op: tensor.ConcatOp) -> None:
    """IREE's ConvertTensorConcatPattern: an outer-dimension concat is a `flow.tensor.empty`
    and one `flow.tensor.update` per input at the running sum of the inputs' sizes."""
    if op.dim.value.data != 0:
        return  # DecomposeConcatPass handles the others; a leftover is reported below
    empty = flow.TensorEmptyOp(op.result.type, _dims(op, op.result))
    copy_location(op, empty)
    Rewriter.insert_op(empty, InsertPoint.before(op))
    current = empty.result
    offset: SSAValue | int = 0
    for value in op.inputs:
        rank = len(value.type.get_shape())
        starts = _index_values([offset] + [0] * (rank - 1), op)
        update = flow.TensorUpdateOp(
            current, starts, value, list(empty.result_dims), _dims(op, value)
        )
        copy_location(op, update)
        Rewriter.insert_op(update, InsertPoint.before(op))
        current = update.result
        size = value.type.get_shape()[0]
        if size == DYNAMIC_INDEX:
            size = _dims(op, value)[0]
        if isinstance(offset, int) and isinstance(size, int):
            offset += size
        else:
            offset = add_sizes([offset, size], op)
    Rewriter.replace_op(op, [], [current])


def convert_other(op: Operation) -> None:
    if isinstance(op, tensor.ConcatOp):
        convert_concat(op)
    elif isinstance(op, linalg.FillOp) and len(op.results) == 1:
        dims = find_dynamic_dims(op.results[0])
        if dims is None:
            raise CompileError.at(op, "the sizes of this fill are not known here", "flow")
        splat = flow.TensorSplatOp(op.inputs[0], op.results[0].type, dims)
        copy_location(op, splat)
        Rewriter.replace_op(op, splat)
    elif isinstance(op, tensor.EmptyOp) and op.tensor.uses:
        empty = flow.TensorEmptyOp(op.tensor.type, list(op.dynamic_sizes))
        copy_location(op, empty)
        Rewriter.replace_op(op, empty)
    elif _is_zero_element_constant(op):
        # no elements, no contents: IREE's Flow folders replace such values with an empty
        # tensor (ONNX's ConstantOfShape of an empty shape)
        empty = flow.TensorEmptyOp(op.result.type)
        copy_location(op, empty)
        Rewriter.replace_op(op, empty)
    elif isinstance(op, tensor.CollapseShapeOp | tensor.ExpandShapeOp):
        convert_reshape(op)
    elif isinstance(op, tensor.ReshapeOp):
        convert_shaped_reshape(op)
    elif isinstance(op, tensor.CastOp):
        convert_cast(op)
    elif isinstance(op, iree_tensor_ext.BitCastOp):
        convert_bitcast(op)


def convert_bitcast(op: iree_tensor_ext.BitCastOp) -> None:
    """IREE's ConvertTensorBitcastPattern: a host `iree_tensor_ext.bitcast` (an importer's:
    complex<f32> read as pairs of f32) is `flow.tensor.bitcast` of the same bytes."""
    new = flow.TensorBitCastOp(
        op.source, op.result.type, list(op.source_dims), list(op.result_dims)
    )
    copy_location(op, new)
    Rewriter.replace_op(op, new)


def _is_zero_element_constant(op: Operation) -> bool:
    return (
        isinstance(op, arith.ConstantOp)
        and isinstance(op.result.type, TensorType)
        and 0 in op.result.type.get_shape()
    )


def convert_reshape(op: tensor.CollapseShapeOp | tensor.ExpandShapeOp) -> None:
    """IREE's ConvertTensorReshapePattern: the same bytes under another shape, with the
    source's `?` sizes and the result's (a collapsed group's product, an expand's
    `output_shape` values) as the reshape's dims."""
    _replace_by_flow_reshape(op, op.src)


def convert_shaped_reshape(op: tensor.ReshapeOp) -> None:
    """IREE's ConvertTensorReshapePattern for `tensor.reshape`: a row-major reshape to a
    shape given as a tensor is `flow.tensor.reshape` of the same bytes, each `?` of the
    result the shape's element there (a `tensor.from_elements` the host built; the shape
    tensor itself is dead afterwards)."""
    _replace_by_flow_reshape(op, op.source)


def _replace_by_flow_reshape(op: Operation, source: SSAValue) -> None:
    """`op` (a reshape of `source`'s bytes) as `flow.tensor.reshape` with both sides' dims."""
    source_dims = build_dynamic_dims(source)
    result_dims = build_dynamic_dims(op.results[0])
    if source_dims is None or result_dims is None:
        raise CompileError.at(op, "the sizes of this reshape are not known here", STAGE)
    reshape = flow.TensorReshapeOp(source, op.results[0].type, source_dims, result_dims)
    copy_location(op, reshape)
    Rewriter.replace_op(op, reshape)


def convert_cast(op: tensor.CastOp) -> None:
    """IREE's ConvertTensorCastPattern: a cast between static and `?` sizes is a
    `flow.tensor.reshape` to the same shape, each `?` of the result taken from the source's
    size there (its dim value, or a constant where the source is static)."""
    source_dims = find_dynamic_dims(op.source)
    if source_dims is None:
        raise CompileError.at(op, "the sizes of this cast's source are not known here", STAGE)
    source_type, result_type = op.source.type, op.dest.type
    assert isinstance(source_type, TensorType) and isinstance(result_type, TensorType)
    dims, result_dims = iter(source_dims), []
    for size, want in zip(source_type.get_shape(), result_type.get_shape(), strict=True):
        value = next(dims) if size == DYNAMIC_INDEX else None
        if want != DYNAMIC_INDEX:
            continue
        result_dims.append(value if value is not None else index_constants([size], op)[0])
    reshape = flow.TensorReshapeOp(op.source, result_type, source_dims, result_dims)
    copy_location(op, reshape)
    Rewriter.replace_op(op, reshape)


def _host_ops(module: ModuleOp, kind: type) -> list[Operation]:
    return [o for o in module.walk() if isinstance(o, kind) and is_outside_dispatch(o)]


@dataclass(frozen=True)
class ConvertTensorToFlowPass(ModulePass):
    name = "iree-dispatch-creation-convert-tensor-to-flow"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        erase_dead_values(op)
        for insert in _host_ops(op, tensor.InsertSliceOp):
            convert_insert_slice(insert)
        for extract in _host_ops(op, tensor.ExtractSliceOp):
            convert_extract_slice(extract)
        for host_op in [o for o in op.walk() if is_outside_dispatch(o)]:
            convert_other(host_op)
        convert_tensor_elements(op)
        erase_dead_values(op)
        for workgroups in [o for o in op.walk() if isinstance(o, flow.DispatchWorkgroupsOp)]:
            fold_slices(workgroups)
        for host_op in [o for o in op.walk() if is_outside_dispatch(o)]:
            check_placed(host_op)
