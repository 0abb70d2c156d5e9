"""ConvertToStreamPass: tensors become resources, dispatches become stream dispatches.

Mirrors IREE's `iree-stream-conversion` (Stream/Transforms/ConvertToStream.cpp with the
Flow->Stream and HAL->Stream patterns). It runs first in the Stream stage, on the flow-phase
program:

- each `flow.executable` becomes a `stream.executable`; its dispatch functions take
  `!stream.binding` arguments and recover the `!iree_tensor_ext.dispatch.tensor` views with
  `stream.binding.subspan` at byte offset 0 (a `?`-sized one takes the sizes its
  `flow.dispatch.tie_shape` named, `{%d}`, and replaces the tie);
- on the host, every tensor value becomes a `!stream.resource<*>` plus a byte size
  (`stream.tensor.sizeof`): `hal.tensor.import` becomes a buffer-view shape/type assertion, a
  `stream.tensor.import` of an `external` resource and a cast to `*`; `flow.dispatch` becomes
  `stream.tensor.dispatch`; `flow.tensor.reshape` (or a host `tensor.collapse_shape` /
  `tensor.expand_shape` left by the Flow stage) becomes `stream.tensor.clone`;
  `hal.tensor.export` becomes a cast to `external` and `stream.tensor.export`;
  `flow.tensor.empty` / `.slice` / `.update` become `stream.tensor.empty` / `.slice` /
  `.update` (`host_slices`); `flow.tensor.load` becomes a one-element slice, a transfer to a
  `staging` resource and `stream.tensor.load`, `flow.tensor.store` a `stream.tensor.fill`
  (`host_elements`);
- a constant tensor global (`OutlineConstantsPass` made them) becomes a
  `!stream.resource<constant>` global plus an `index` global `@X__size`, both stored by a new
  `util.initializer` from a `stream.tensor.constant` and its `stream.resource.size`; a host
  load of it becomes loads of both and a `stream.async.transfer` from the constant resource to
  a `<*>` one (later passes see through it and bind the constant directly).

IREE's check tests add host `util.optimization_barrier`s, `check.expect_*` ops and splat
constants kept from folding (`host_checks`, `host_splat`).

Every stream op is placed on the module's default affinity (`stream.affinity.default`,
`#hal.device.affinity<@__device_0>`). Host ops on tensors that the stage does not model are
reported with their location.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, scf, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FunctionType,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.stream.constant_globals import (
    CONSTANT,
    convert_constant_global,
    is_constant_global,
    size_global_name,
)
from ireelab.compiler.stream.host_checks import convert_barrier, export_check_operands
from ireelab.compiler.stream.host_elements import convert_tensor_load, convert_tensor_store
from ireelab.compiler.stream.host_loops import (
    carries_tensors,
    convert_for,
    convert_if,
    convert_terminator,
    convert_while,
)
from ireelab.compiler.stream.host_slices import (
    convert_tensor_empty,
    convert_tensor_slice,
    convert_tensor_update,
)
from ireelab.compiler.stream.host_splat import (
    convert_host_splat,
    convert_splat_constant,
    is_splat_constant,
)
from ireelab.compiler.util.dynamic_dims import dims_slice
from ireelab.diagnostics import CompileError
from ireelab.dialects import flow, hal, iree_tensor_ext, stream, util

STAGE = "stream"


def default_affinity(module: ModuleOp) -> Attribute:
    """The module's `stream.affinity.default`, or device 0 when the device stage set none."""
    affinity = module.attributes.get("stream.affinity.default")
    return affinity if affinity is not None else hal.DeviceAffinityAttr("@__device_0")


# ---- executables ---------------------------------------------------------------------------


def _convert_count_region(region: Region) -> Region:
    """Move a `flow.executable.export` count region over, ending it with `stream.return`."""
    new = Region()
    region.move_blocks(new)
    for block in new.blocks:
        last = block.last_op
        if isinstance(last, flow.ReturnOp):
            Rewriter.replace_op(last, stream.ReturnOp(*last.operands))
    return new


def _only_tie(arg: SSAValue) -> flow.DispatchTieShapeOp | None:
    uses = list(arg.uses)
    if len(uses) == 1 and isinstance(uses[0].operation, flow.DispatchTieShapeOp):
        return uses[0].operation
    return None


def _convert_dispatch_function(fn: func.FuncOp) -> None:
    """`(%a: !iree_tensor_ext.dispatch.tensor<...>)` -> `(%a: !stream.binding)` + subspans."""
    block = fn.body.block
    tensor_args = [a for a in block.args if isinstance(a.type, iree_tensor_ext.DispatchTensorType)]
    if not tensor_args:
        return
    zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
    zero.result.name_hint = "c0"
    Rewriter.insert_op(zero, InsertPoint.at_start(block))
    anchor = zero
    for arg in tensor_args:
        tie = _only_tie(arg)
        if tie is not None:
            # A `?`-sized binding: the subspan carries the sizes the tie named, where it stood.
            subspan = stream.BindingSubspanOp(arg, zero.result, arg.type, list(tie.dynamic_dims))
            Rewriter.replace_op(tie, subspan)
        else:
            subspan = stream.BindingSubspanOp(arg, zero.result, arg.type)
            Rewriter.insert_op(subspan, InsertPoint.after(anchor))
            anchor = subspan
        arg.replace_uses_with_if(
            subspan.result, lambda use, keep=subspan: use.operation is not keep
        )
        Rewriter.replace_value_with_new_type(arg, stream.BindingType())
        subspan.result.name_hint = None
    inputs = [a.type for a in block.args]
    fn.function_type = FunctionType.from_lists(inputs, list(fn.function_type.outputs.data))


def _convert_executable(exe: flow.ExecutableOp) -> stream.ExecutableOp:
    body = Region(Block())
    new = stream.ExecutableOp(
        exe.sym_name.data,
        body,
        exe.sym_visibility.data if exe.sym_visibility is not None else None,
    )
    for op in list(exe.body.block.ops):
        op.detach()
        if isinstance(op, flow.ExecutableExportOp):
            op = stream.ExecutableExportOp(
                op.sym_name.data,
                _convert_count_region(op.workgroup_count),
                op.function_ref.root_reference.data,
                op.sym_visibility.data if op.sym_visibility is not None else None,
            )
        body.block.add_op(op)
    for op in new.walk():
        if isinstance(op, func.FuncOp) and op.body.blocks:
            _convert_dispatch_function(op)
    return new


# ---- host code -----------------------------------------------------------------------------


@dataclass
class _Resource:
    """What a host tensor value became: a resource, its byte size, its tensor type."""

    value: SSAValue
    size: SSAValue
    tensor_type: TensorType
    dims: tuple[SSAValue, ...] = ()
    """The tensor's `?` sizes (`tensor<?x4xf32>{%d}` in the encodings)."""


class _HostConverter:
    def __init__(self, affinity: Attribute, constant_globals: set[str]):
        self.affinity = affinity
        self.constant_globals = constant_globals
        """names of the tensor globals converted to constant resources."""
        self.resources: dict[SSAValue, _Resource] = {}
        self.pending: list[Operation] = []
        """converted ops, erased (last first) once every user is converted too."""
        self.pending_args: list[BlockArgument] = []
        """tensor block arguments of host loops, erased once their users are converted."""

    def convert(self, fn: util.FuncOp) -> None:
        for op in list(fn.body.walk()):
            self._convert_op(op)

    def _convert_op(self, op: Operation) -> None:
        if isinstance(op, util.GlobalLoadOp) and isinstance(op.result.type, TensorType):
            self._load_constant(op)
        elif isinstance(op, hal.TensorImportOp):
            self._import(op)
        elif isinstance(op, hal.TensorExportOp):
            self._export(op)
        elif isinstance(op, hal.TensorBarrierOp):
            self._barrier(op)
        elif isinstance(op, util.OptimizationBarrierOp):
            convert_barrier(self, op)
        elif op.name.startswith("check."):
            export_check_operands(self, op)
        elif isinstance(op, flow.DispatchOp):
            self._dispatch(op)
        elif isinstance(op, flow.TensorSplatOp):
            self._splat(op)
        elif isinstance(op, tensor.SplatOp):
            convert_host_splat(self, op, _Resource)
        elif is_splat_constant(op):
            convert_splat_constant(self, op, _Resource)
        elif isinstance(op, flow.TensorEmptyOp):
            convert_tensor_empty(self, op, _Resource)
        elif isinstance(op, flow.TensorSliceOp):
            convert_tensor_slice(self, op, _Resource)
        elif isinstance(op, flow.TensorUpdateOp):
            convert_tensor_update(self, op, _Resource)
        elif isinstance(op, flow.TensorLoadOp):
            convert_tensor_load(self, op)
        elif isinstance(op, flow.TensorStoreOp):
            convert_tensor_store(self, op, _Resource)
        elif isinstance(op, flow.TensorReshapeOp):
            self._reshape(op, op.source, op.result, tuple(op.result_dims))
        elif isinstance(op, flow.TensorBitCastOp):  # the same bytes: a clone, as a reshape
            self._reshape(op, op.source, op.result, tuple(op.result_dims))
        elif isinstance(op, flow.TensorTieShapeOp):
            self._tie_shape(op)
        elif isinstance(op, tensor.CollapseShapeOp | tensor.ExpandShapeOp):
            # IREE's Flow stage has already made these `flow.tensor.reshape`s; accept both.
            self._reshape(op, op.src, op.result)
        elif isinstance(op, scf.ForOp | scf.IfOp | scf.WhileOp) and carries_tensors(op):
            _STRUCTURAL[type(op)](self, op, _Resource)
        elif isinstance(op, scf.YieldOp | scf.ConditionOp) and _touches_tensors(op):
            convert_terminator(self, op)
        elif _touches_tensors(op):
            raise CompileError.at(
                op,
                f"'{op.name}' on tensors in host code is not supported by ConvertToStreamPass",
                stage=STAGE,
            )

    def _lookup(self, op: Operation, value: SSAValue) -> _Resource:
        found = self.resources.get(value)
        if found is None:
            raise CompileError.at(op, "operand was not converted to a stream resource", STAGE)
        return found

    def _sizeof(self, tensor_type: TensorType, before: Operation, dims=()) -> SSAValue:
        sizeof = stream.TensorSizeOfOp(tensor_type, self.affinity, list(dims))
        Rewriter.insert_op(sizeof, InsertPoint.before(before))
        return sizeof.storage_size

    def _import(self, op: hal.TensorImportOp) -> None:
        tensor_type = op.target.type
        assert isinstance(tensor_type, TensorType)
        message = op.name_.data if op.name_ is not None else ""
        element = hal.ElementTypeOp(tensor_type.element_type)
        encoding = hal.EncodingTypeOp("dense_row_major")
        static = [d for d in tensor_type.get_shape() if d != DYNAMIC_INDEX]
        constants = [arith.ConstantOp(IntegerAttr(d, IndexType())) for d in static]
        for d, c in zip(static, constants, strict=True):
            c.result.name_hint = f"c{d}"
        dynamic, fixed = iter(op.target_dims), iter(constants)
        shape = [
            next(dynamic) if d == DYNAMIC_INDEX else next(fixed).result
            for d in tensor_type.get_shape()
        ]
        check = hal.BufferViewAssertOp(op.source, message, shape, element.result, encoding.result)
        Rewriter.insert_op([element, encoding, *constants, check], InsertPoint.before(op))
        dims = tuple(op.target_dims)
        size = self._sizeof(tensor_type, op, dims)
        imported = stream.TensorImportOp(
            op.source, tensor_type, stream.ResourceType("external"), size, self.affinity, dims
        )
        Rewriter.insert_op(imported, InsertPoint.before(op))
        ready = self._wait_for(op.wait_fence, imported.result, size, op)
        cast = stream.AsyncCastOp(ready, size, stream.ResourceType(), size, self.affinity)
        Rewriter.insert_op(cast, InsertPoint.before(op))
        self.resources[op.target] = _Resource(cast.result, size, tensor_type, dims)
        self._erase_when_unused(op)

    def _wait_for(
        self, fence: SSAValue | None, resource: SSAValue, size: SSAValue, op: Operation
    ) -> SSAValue:
        """An import that waits on a fence (IREE's async ABI) is usable once the fence's
        timepoint is reached: `stream.timepoint.import` + `stream.timepoint.await`, which
        PropagateTimepointsPass turns into the consuming execution's `await(...)`."""
        if fence is None:
            return resource
        timepoint = stream.TimepointImportOp(fence, self.affinity)
        awaited = stream.TimepointAwaitOp(timepoint.result_timepoint, [resource], [size])
        Rewriter.insert_op([timepoint, awaited], InsertPoint.before(op))
        return awaited.outputs[0]

    def _barrier(self, op: hal.TensorBarrierOp) -> None:
        """`hal.tensor.barrier join(...) => %fence`: the timepoint each source is ready at,
        joined, signals `%fence` (`stream.timepoint.chain_external`); the sources pass on."""
        timepoints = []
        for source, result in zip(op.sources, op.results_, strict=True):
            resource = self._lookup(op, source)
            barrier = stream.TimepointBarrierOp(resource.value, resource.size, self.affinity)
            Rewriter.insert_op(barrier, InsertPoint.before(op))
            timepoints.append(barrier.result_timepoint)
            self.resources[result] = _Resource(
                barrier.result, resource.size, resource.tensor_type, resource.dims
            )
        ready = timepoints[0] if len(timepoints) == 1 else None
        if ready is None:
            join = stream.TimepointJoinOp(timepoints)
            Rewriter.insert_op(join, InsertPoint.before(op))
            ready = join.result_timepoint
        chain = stream.TimepointChainExternalOp(ready, [op.signal_fence], self.affinity)
        Rewriter.insert_op(chain, InsertPoint.before(op))
        self._erase_when_unused(op)

    def _load_constant(self, op: util.GlobalLoadOp) -> None:
        name = op.global_.root_reference.data
        if name not in self.constant_globals:
            raise CompileError.at(
                op, f"'{op.name}' of the tensor global @{name} is not supported", STAGE
            )
        load = util.GlobalLoadOp(name, CONSTANT)
        load.result.name_hint = name
        load_size = util.GlobalLoadOp(size_global_name(name), IndexType())
        load_size.result.name_hint = size_global_name(name)
        transfer = stream.AsyncTransferOp(
            load.result,
            load_size.result,
            stream.ResourceType(),
            load_size.result,
            self.affinity,
            self.affinity,
        )
        Rewriter.insert_op([load, load_size, transfer], InsertPoint.before(op))
        tensor_type = op.result.type
        assert isinstance(tensor_type, TensorType)
        self.resources[op.result] = _Resource(transfer.result, load_size.result, tensor_type)
        self._erase_when_unused(op)

    def _export(self, op: hal.TensorExportOp) -> None:
        source = self._lookup(op, op.source)
        value, copies = source.value, []
        if value.type == CONSTANT:
            # A constant's memory is the module's read-only data: the caller gets a copy, as
            # IREE copies an exported constant into a new external buffer.
            copies.append(
                stream.AsyncCloneOp(value, source.size, stream.ResourceType(), source.size)
            )
            value = copies[0].result
        cast = stream.AsyncCastOp(
            value, source.size, stream.ResourceType("external"), source.size, self.affinity
        )
        exported = stream.TensorExportOp(
            cast.result,
            source.tensor_type,
            source.size,
            op.target.type,
            self.affinity,
            list(op.source_dims),
        )
        Rewriter.insert_op([*copies, cast, exported], InsertPoint.before(op))
        op.target.replace_all_uses_with(exported.result)
        Rewriter.erase_op(op)

    def _dispatch(self, op: flow.DispatchOp) -> None:
        operands, sizes, encodings = [], [], []
        for arg in op.arguments:
            if not isinstance(arg.type, TensorType):
                operands.append(arg)
                encodings.append(arg.type)
                continue
            resource = self._lookup(op, arg)
            operands.append(resource.value)
            sizes.append(resource.size)
            encodings.append(resource.tensor_type)
        result_types = [r.type for r in op.result]
        for ty in result_types:
            if not isinstance(ty, TensorType):
                raise CompileError.at(op, f"dispatch result of type {ty} is not a tensor", STAGE)
        tied = op.tied()
        for operand_index in tied:
            if operand_index != flow.UNTIED:
                operands[operand_index] = self._copy_on_write(op, op.arguments[operand_index])
        result_dims = [tuple(dims_slice(op.result, op.result_dims, r)) for r in op.result]
        result_sizes = [
            self._sizeof(ty, op, dims) if t == flow.UNTIED else sizes_of(operands, sizes, t, op)
            for ty, t, dims in zip(result_types, tied, result_dims, strict=True)
        ]
        new = stream.TensorDispatchOp(
            op.entry_point,
            operands,
            sizes,
            encodings,
            [stream.ResourceType() for _ in result_types],
            result_sizes,
            result_types,
            self.affinity,
            list(op.workload),
            tied,
        )
        Rewriter.insert_op(new, InsertPoint.before(op))
        for old, value, size, ty, dims in zip(
            op.result, new.outputs, result_sizes, result_types, result_dims, strict=True
        ):
            self.resources[old] = _Resource(value, size, ty, dims)
        self._erase_when_unused(op)

    def _copy_on_write(self, op: Operation, value: SSAValue) -> SSAValue:
        """The resource a dispatch may update in place for `value`: the value's own when this
        dispatch is its only reader and it was made fresh in this function, else a clone (IREE's
        MaterializeCopyOnWritePass followed by ElideAsyncCopiesPass)."""
        source = self._lookup(op, value)
        fresh = (
            flow.TensorSplatOp,
            flow.TensorEmptyOp,
            flow.DispatchOp,
            flow.TensorUpdateOp,
            flow.TensorStoreOp,
        )
        if isinstance(value.owner, fresh) and len(list(value.uses)) == 1:
            return source.value
        clone = stream.AsyncCloneOp(
            source.value, source.size, stream.ResourceType(), source.size, self.affinity
        )
        Rewriter.insert_op(clone, InsertPoint.before(op))
        return clone.result

    def _splat(self, op: flow.TensorSplatOp) -> None:
        tensor_type = op.result.type
        assert isinstance(tensor_type, TensorType)
        dims = tuple(op.result_dims)
        size = self._sizeof(tensor_type, op, dims)
        splat = stream.TensorSplatOp(
            op.value, tensor_type, stream.ResourceType(), size, self.affinity, dims
        )
        Rewriter.insert_op(splat, InsertPoint.before(op))
        self.resources[op.result] = _Resource(splat.result, size, tensor_type, dims)
        self._erase_when_unused(op)

    def _reshape(self, op: Operation, source_value: SSAValue, result: SSAValue, dims=()) -> None:
        source = self._lookup(op, source_value)
        result_type = result.type
        assert isinstance(result_type, TensorType)
        size = self._sizeof(result_type, op, dims)
        clone = stream.TensorCloneOp(
            source.value,
            source.tensor_type,
            source.size,
            result_type,
            size,
            stream.ResourceType(),
            self.affinity,
            source.dims,
            dims,
        )
        Rewriter.insert_op(clone, InsertPoint.before(op))
        self.resources[result] = _Resource(clone.result, size, result_type, dims)
        self._erase_when_unused(op)

    def _tie_shape(self, op: flow.TensorTieShapeOp) -> None:
        """The same resource, its `?` sizes now the values the op names (IREE's stream
        conversion drops the op the same way)."""
        source = self._lookup(op, op.operand)
        dims = tuple(op.dynamic_dims)
        self.resources[op.result] = _Resource(source.value, source.size, source.tensor_type, dims)
        self._erase_when_unused(op)

    def _erase_when_unused(self, op: Operation) -> None:
        self.pending.append(op)

    def finish(self) -> None:
        for op in reversed(self.pending):
            for result in op.results:
                for use in list(result.uses):
                    raise CompileError.at(
                        use.operation,
                        f"'{use.operation.name}' uses a tensor the stream stage cannot convert",
                        STAGE,
                    )
            Rewriter.erase_op(op)
        for arg in self.pending_args:
            if arg.uses:
                user = next(iter(arg.uses)).operation
                raise CompileError.at(
                    user, f"'{user.name}' uses a tensor the stream stage cannot convert", STAGE
                )
            arg.block.erase_arg(arg)


def sizes_of(operands: list[SSAValue], sizes: list[SSAValue], index: int, op: Operation):
    """The byte size of `operands[index]` (sizes are listed for resource operands only)."""
    resource_index = sum(1 for v in operands[:index] if isinstance(v.type, stream.ResourceType))
    return sizes[resource_index]


def _touches_tensors(op: Operation) -> bool:
    values = [*op.operands, *op.results]
    return any(isinstance(v.type, TensorType) for v in values)


_STRUCTURAL = {scf.ForOp: convert_for, scf.IfOp: convert_if, scf.WhileOp: convert_while}


def _is_host_function(op: Operation) -> bool:
    return isinstance(op, util.FuncOp | func.FuncOp) and bool(op.regions[0].blocks)


@dataclass(frozen=True)
class ConvertToStreamPass(ModulePass):
    """Converts flow executables and host tensor code to the stream dialect."""

    name = "iree-stream-conversion"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        affinity = default_affinity(op)
        constant_globals: set[str] = set()
        for child in list(op.body.block.ops):
            if isinstance(child, flow.ExecutableOp):
                Rewriter.replace_op(child, _convert_executable(child))
            elif is_constant_global(child):
                constant_globals.add(child.sym_name.data)
                convert_constant_global(child, affinity)
        for child in list(op.body.block.ops):
            if not _is_host_function(child):
                continue
            converter = _HostConverter(affinity, constant_globals)
            converter.convert(child)
            converter.finish()
