"""ConvertToHALPass: the stream host program becomes calls on HAL devices, buffers and fences.

Mirrors IREE's `iree-hal-conversion` (HAL/Conversion/StreamToHAL/*). Resources become
`!hal.buffer`s, timepoints become `!hal.fence`s, and each `stream.cmd.execute` becomes a
command buffer recorded and submitted on the device queue:

| stream | hal |
|---|---|
| `stream.tensor.import` | `hal.buffer_view.buffer` + `hal.buffer.assert` (the `hal.buffer_view.assert` before it already checked shape and type) |
| `stream.resource.alloca` / `.dealloca` | `hal.device.queue.alloca` / `.dealloca` with wait/signal fences |
| `stream.cmd.execute` | `hal.command_buffer.create`, the commands, `hal.command_buffer.finalize`, `hal.device.queue.execute` |
| `stream.cmd.dispatch` | `hal.executable.lookup.function` + `hal.command_buffer.dispatch` with the workgroup counts of the export's count region (constants, or its code inlined on the site's workload for `?` sizes) and the site's i32 operands as `constants([...])` |
| `stream.cmd.fill` / `.copy` | `hal.command_buffer.fill_buffer` / `.copy_buffer` |
| `stream.cmd.flush` | nothing (as IREE 3.13: staging memory is host-coherent) |
| `stream.resource.load` | `hal.buffer.load` (a host `tensor.extract` reading its staging buffer) |
| serial order | `hal.command_buffer.execution_barrier` after each command; none between the commands of a `stream.cmd.concurrent`, one after it |
| `stream.timepoint.await` | `hal.fence.await` + `util.status.check_ok` |
| `stream.timepoint.join` / `.immediate` | `hal.fence.join` / a null fence |
| `stream.timepoint.import` of a `!hal.fence` / `.chain_external` to one | that fence / `hal.device.queue.barrier` waiting on the timepoint and signalling it |
| `stream.tensor.export` | `hal.buffer_view.create` |
| `stream.resource.try_map` of a `util.buffer.constant` | `hal.allocator.import` (the buffer is the module's read-only data, not a copy) |
| `util.global` / `.load` / `.store` of a resource | the same on a `!hal.buffer` |

The device global gets its enumeration initializer and every executable a global loaded by an
initializer (see `device_initialization`).

A `stream.cmd.execute` that may run more than once and captures no dynamic scalar (IREE's
`regionCapturesDynamicUniformValues`: push constants, workgroup counts and sizes all constant
or immutable globals) is recorded as IREE records it under `--iree-hal-indirect-command-buffers`
(on by default): inside a `hal.device.memoize` region, as a reusable command buffer whose
dispatches name the call's buffers by binding-table slot (`(%c0 : index)[%offset, %length]`),
submitted with `hal.device.queue.execute.indirect` and this call's buffers as the table.
Buffers of immutable globals (constants) stay direct bindings. `OutlineMemoizeRegionsPass`
then records it once at initialisation. An execute whose fills or copies touch a slot buffer
is recorded one-shot as before (ireelab's fill/copy ops take buffers only).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    SymbolRefAttr,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import ConstantLike, SymbolTable

from ireelab.compiler.hal.convert_check_ops import attach_device, needs_device
from ireelab.compiler.hal.device_initialization import (
    device_initializer,
    executable_global_name,
    executable_initializer,
)
from ireelab.diagnostics import CompileError
from ireelab.dialects import hal, stream, util

STAGE = "hal"
MEMORY_TYPE = "DeviceVisible|DeviceLocal"
BUFFER_USAGE = "TransferSource|TransferTarget|Transfer|DispatchStorageRead|DispatchStorageWrite|DispatchStorage"
STAGING_MEMORY_TYPE = "HostVisible|HostCoherent|HostLocal|DeviceVisible"
STAGING_BUFFER_USAGE = BUFFER_USAGE + "|MappingScoped|MappingAccessRandom|Mapping"
"""A `staging` resource (a host `tensor.extract` reads it) is host memory the host maps, as
IREE allocates it."""


@dataclass(frozen=True)
class ConvertToHALPass(ModulePass):
    name = "iree-hal-conversion"

    indirect_command_buffers: bool = field(default=True, metadata={"global_flag": True})
    """IREE's `--iree-hal-indirect-command-buffers`: record reusable command buffers with
    binding-table slots in `hal.device.memoize` regions."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        devices = _convert_devices(op)
        if not devices:
            if any(isinstance(o, stream.CmdExecuteOp) for o in op.walk()):
                raise CompileError.at(
                    op, "no device global to run on: run the device stage first", STAGE
                )
            return
        device = devices[0]
        executables = _create_executable_globals(op, device)
        _convert_resource_globals(op)
        for fn in [o for o in op.body.block.ops if isinstance(o, util.FuncOp | util.InitializerOp)]:
            _FunctionConverter(op, fn, device, executables, self.indirect_command_buffers).run()
        op.attributes.pop("stream.affinity.default", None)
        leftover = next((o for o in op.walk() if o.name.startswith("stream.")), None)
        if leftover is not None:
            raise CompileError.at(
                leftover,
                f"'{leftover.name}' has no HAL lowering (was the stream stage run to the end?)",
                STAGE,
            )


def _convert_devices(module: ModuleOp) -> list[str]:
    """Each `util.global @dev = #hal.device.target<...>` gets its enumeration initializer."""
    names = []
    for glob in [o for o in module.body.block.ops if isinstance(o, util.GlobalOp)]:
        if not isinstance(glob.initial_value, hal.DeviceTargetAttr):
            continue
        new_global, init = device_initializer(glob.sym_name.data, glob.initial_value)
        Rewriter.replace_op(glob, [new_global, init])
        names.append(glob.sym_name.data)
    return names


def _create_executable_globals(module: ModuleOp, device: str) -> dict[str, str]:
    """Executable symbol -> name of the global holding it loaded on `device`."""
    executables = [o for o in module.body.block.ops if isinstance(o, hal.ExecutableOp)]
    names = {}
    for ordinal, executable in enumerate(executables):
        glob, init = executable_initializer(device, ordinal, executable)
        Rewriter.insert_op([glob, init], InsertPoint.before(executable))
        names[executable.sym_name.data] = executable_global_name(
            device, ordinal, executable.sym_name.data
        )
    return names


def _convert_resource_globals(module: ModuleOp) -> None:
    """`util.global @X : !stream.resource<constant>` -> `util.global @X : !hal.buffer`."""
    for glob in module.body.block.ops:
        if isinstance(glob, util.GlobalOp) and isinstance(glob.type, stream.ResourceType):
            glob.type = hal.BufferType()


def _is_resource_global_access(op: Operation) -> bool:
    if isinstance(op, util.GlobalLoadOp):
        return isinstance(op.result.type, stream.ResourceType)
    if isinstance(op, util.GlobalStoreOp):
        return isinstance(op.value.type, stream.ResourceType)
    return False


def _size_recorded_by_a_user(value: SSAValue) -> SSAValue:
    """A resource loaded from a global has its byte size beside it where it is captured."""
    for use in value.uses:
        user = use.operation
        if isinstance(user, stream.CmdExecuteOp):
            return user.resource_operand_sizes[list(user.resource_operands).index(value)]
        if isinstance(user, stream.TimepointAwaitOp):
            return user.resource_operand_sizes[list(user.resource_operands).index(value)]
        if isinstance(user, stream.TensorExportOp | stream.AsyncCastOp):  # checked constants
            return user.source_size
    raise CompileError.at(value.owner, "cannot tell the size of a resource global", STAGE)


def _read_only_by_checks(cast: stream.AsyncCastOp) -> bool:
    """Every use of the cast is an export whose buffer views only `check.*` ops read."""
    for use in cast.result.uses:
        export = use.operation
        if not isinstance(export, stream.TensorExportOp):
            return False
        if not all(u.operation.name.startswith("check.") for u in export.result.uses):
            return False
    return True


@dataclass
class _Buffer:
    """What a `!stream.resource` value is on the host: a buffer range."""

    buffer: SSAValue
    offset: SSAValue | None
    size: SSAValue


@dataclass
class _FunctionConverter:
    module: ModuleOp
    fn: util.FuncOp
    device_name: str
    executable_globals: dict[str, str]
    indirect_command_buffers: bool = True
    resources: dict[SSAValue, _Buffer] = field(default_factory=dict)
    fences: dict[SSAValue, SSAValue] = field(default_factory=dict)
    _entry_values: dict[str, SSAValue] = field(default_factory=dict)
    _last_entry_op: Operation | None = None

    def run(self) -> None:
        self.convert_block_args()
        converted = [
            op
            for block in self.fn.body.blocks
            for op in block.ops
            if op.name.startswith("stream.") or _is_resource_global_access(op)
        ]
        for op in converted:
            self.convert(op)
        self.convert_branch_operands()
        for op in [o for o in self.fn.body.walk() if needs_device(o)]:
            attach_device(op, self.device())
        # Users before producers: a stream value dies with its last stream user.
        for op in reversed(converted):
            if any(result.uses for result in op.results):
                raise CompileError.at(
                    op, f"a result of '{op.name}' is used by a non-stream op", STAGE
                )
            Rewriter.erase_op(op)

    # ---- blocks: host loops carry buffers and fences (IREE's structural conversions) -------

    def convert_block_args(self) -> None:
        """A block argument that is a resource becomes a `!hal.buffer` (its size is the
        `index` argument after it, as the stream stage carries them); a timepoint argument
        becomes a `!hal.fence`."""
        for block in list(self.fn.body.blocks)[1:]:
            for arg in list(block.args):
                if isinstance(arg.type, stream.ResourceType):
                    size = block.args[arg.index + 1]
                    if not isinstance(size.type, IndexType):
                        raise CompileError.at(
                            self.fn, "a resource block argument without its size", STAGE
                        )
                    new = Rewriter.replace_value_with_new_type(arg, hal.BufferType())
                    self.resources[new] = _Buffer(new, None, block.args[arg.index + 1])
                elif isinstance(arg.type, stream.TimepointType):
                    new = Rewriter.replace_value_with_new_type(arg, hal.FenceType())
                    self.fences[new] = new

    def convert_branch_operands(self) -> None:
        """Branches pass the buffers and fences the stream values became (a buffer range at
        an offset is passed as a `hal.buffer.subspan` of it)."""
        for block in self.fn.body.blocks:
            branch = block.last_op
            if branch is None or branch.name not in ("cf.br", "cf.cond_br"):
                continue
            for index, value in enumerate(list(branch.operands)):
                if value in self.fences:
                    branch.operands[index] = self.fences[value]
                elif value in self.resources:
                    branch.operands[index] = self.whole_buffer(value, branch)

    def whole_buffer(self, value: SSAValue, before: Operation) -> SSAValue:
        found = self.resources[value]
        if found.offset is None:
            return found.buffer
        subspan = hal.BufferSubspanOp(found.buffer, found.offset, found.size)
        Rewriter.insert_op(subspan, InsertPoint.before(before))
        return subspan.result

    # ---- values hoisted to the function entry (IREE puts them there too) ------------------

    def entry(self, key: str, make) -> SSAValue:
        if key not in self._entry_values:
            op: Operation = make()
            block = self.fn.body.blocks.first
            assert block is not None
            anchor = self._last_entry_op
            point = InsertPoint.after(anchor) if anchor else InsertPoint.at_start(block)
            Rewriter.insert_op(op, point)
            self._last_entry_op = op
            self._entry_values[key] = op.results[0]
        return self._entry_values[key]

    def const(self, value: int, type_) -> SSAValue:
        def make():
            op = arith.ConstantOp(IntegerAttr(value, type_))
            # MLIR's names for constants: %c0, %c-1_i64
            suffix = "" if isinstance(type_, IndexType) else f"_{type_}"
            op.result.name_hint = f"c{value}{suffix}"
            return op

        return self.entry(f"const {value} {type_}", make)

    def allocator(self) -> SSAValue:
        return self.entry("allocator", lambda: hal.DeviceAllocatorOp(self.device()))

    def device(self) -> SSAValue:
        def load():
            op = util.GlobalLoadOp(self.device_name, hal.DeviceType(), immutable=True)
            op.result.name_hint = self.device_name
            return op

        return self.entry("device", load)

    def null_fence(self) -> SSAValue:
        return self.entry("null fence", lambda: util.NullOp(hal.FenceType()))

    def fence_of(self, timepoint: SSAValue | None) -> SSAValue:
        if timepoint is None:
            return self.null_fence()
        return self.fences[timepoint]

    # ---- conversion, one stream op at a time ---------------------------------------------

    def convert(self, op: Operation) -> None:
        handler = getattr(
            self, "convert_" + op.name.removeprefix("stream.").replace(".", "_"), None
        )
        if handler is None:
            raise CompileError.at(
                op, f"'{op.name}' has no HAL lowering (was the stream stage run to the end?)", STAGE
            )
        new_ops: list[Operation] = []
        handler(op, new_ops)
        Rewriter.insert_op(new_ops, InsertPoint.before(op))

    def convert_util_global_load(self, op: util.GlobalLoadOp, out: list[Operation]) -> None:
        name = op.global_.root_reference.data
        load = util.GlobalLoadOp(name, hal.BufferType(), immutable=op.is_immutable is not None)
        load.result.name_hint = op.result.name_hint
        out.append(load)
        self.resources[op.result] = _Buffer(load.result, None, _size_recorded_by_a_user(op.result))

    def convert_util_global_store(self, op: util.GlobalStoreOp, out: list[Operation]) -> None:
        value = self.resources[op.value]
        buffer = value.buffer
        if value.offset is not None:
            # A global holds a buffer, not a range: the range becomes a buffer of its own
            # (IREE's PropagateSubrangesPass would keep the offset beside the global instead).
            subspan = hal.BufferSubspanOp(value.buffer, value.offset, value.size)
            out.append(subspan)
            buffer = subspan.result
        out.append(util.GlobalStoreOp(buffer, op.global_.root_reference.data))

    def convert_resource_try_map(self, op: stream.ResourceTryMapOp, out: list[Operation]) -> None:
        usage = hal.BufferUsageOp(BUFFER_USAGE + "|SharingImmutable")
        memory_type = hal.MemoryTypeOp(MEMORY_TYPE)
        imported = hal.AllocatorImportOp(
            self.allocator(),
            op.source,
            op.source_offset,
            op.result_size,
            self.const(-1, i64),
            memory_type,
            usage,
        )
        out.extend([usage, memory_type, imported])
        op.did_map.replace_all_uses_with(imported.did_import)
        self.resources[op.result] = _Buffer(imported.result, None, op.result_size)

    def convert_tensor_import(self, op: stream.TensorImportOp, out: list[Operation]) -> None:
        buffer = hal.BufferViewBufferOp(op.source)
        check = hal.BufferAssertOp(
            buffer, "tensor", self.allocator(), op.result_size, "DeviceVisible", BUFFER_USAGE
        )
        out.extend([buffer, check])
        self.resources[op.result] = _Buffer(buffer.result, None, op.result_size)

    def convert_async_cast(self, op: stream.AsyncCastOp, out: list[Operation]) -> None:
        """A constant cast to `external` for export (a reshape of a constant the stream stage
        saw through): only `check.*` ops read it, so it is viewed where it lies."""
        if op.source.type != stream.ResourceType("constant") or not _read_only_by_checks(op):
            raise CompileError.at(
                op, "'stream.async.cast' of a constant is only supported for check operands", STAGE
            )
        self.resources[op.result] = self.resources[op.source]

    def convert_tensor_export(self, op: stream.TensorExportOp, out: list[Operation]) -> None:
        encoding = op.source_encoding
        if not isinstance(encoding, TensorType):
            raise CompileError.at(op, "only tensors can be exported", STAGE)
        source = self.resources[op.source]
        dims = iter(op.source_encoding_dims)
        shape = [
            next(dims) if d == DYNAMIC_INDEX else self.const(d, IndexType())
            for d in encoding.get_shape()
        ]
        element_type = hal.ElementTypeOp(encoding.element_type)
        dense = hal.EncodingTypeOp()
        view = hal.BufferViewCreateOp(
            source.buffer,
            source.offset or self.const(0, IndexType()),
            op.source_size,
            shape,
            element_type,
            dense,
        )
        out.extend([element_type, dense, view])
        op.result.replace_all_uses_with(view.result)

    def convert_resource_alloca(self, op: stream.ResourceAllocaOp, out: list[Operation]) -> None:
        fence = hal.FenceCreateOp(self.device())
        staging = op.result.type == stream.ResourceType("staging")
        memory_type = hal.MemoryTypeOp(STAGING_MEMORY_TYPE if staging else MEMORY_TYPE)
        usage = hal.BufferUsageOp(STAGING_BUFFER_USAGE if staging else BUFFER_USAGE)
        alloca = hal.DeviceQueueAllocaOp(
            self.device(),
            self.const(-1, i64),
            self.fence_of(op.await_timepoint),
            fence,
            self.const(0, i64),
            memory_type,
            usage,
            op.storage_size,
        )
        out.extend([fence, memory_type, usage, alloca])
        self.resources[op.result] = _Buffer(alloca.result, None, op.storage_size)
        self.fences[op.result_timepoint] = fence.result

    def convert_resource_dealloca(
        self, op: stream.ResourceDeallocaOp, out: list[Operation]
    ) -> None:
        fence = hal.FenceCreateOp(self.device())
        dealloca = hal.DeviceQueueDeallocaOp(
            self.device(),
            self.const(-1, i64),
            self.fence_of(op.await_timepoint),
            fence,
            self.resources[op.operand].buffer,
        )
        out.extend([fence, dealloca])
        self.fences[op.result_timepoint] = fence.result

    def convert_resource_size(self, op: stream.ResourceSizeOp, out: list[Operation]) -> None:
        op.result.replace_all_uses_with(self.resources[op.operand].size)

    def convert_resource_load(self, op: stream.ResourceLoadOp, out: list[Operation]) -> None:
        source = self.resources[op.source]
        offset = op.source_offset
        if source.offset is not None:
            add = arith.AddiOp(source.offset, op.source_offset)
            out.append(add)
            offset = add.result
        load = hal.BufferLoadOp(source.buffer, offset, op.result.type)
        out.append(load)
        op.result.replace_all_uses_with(load.result)

    def convert_resource_subview(self, op: stream.ResourceSubviewOp, out: list[Operation]) -> None:
        source = self.resources[op.source]
        offset = op.source_offset
        if source.offset is not None:
            add = arith.AddiOp(source.offset, op.source_offset)
            out.append(add)
            offset = add.result
        self.resources[op.result] = _Buffer(source.buffer, offset, op.result_size)

    def convert_timepoint_immediate(
        self, op: stream.TimepointImmediateOp, out: list[Operation]
    ) -> None:
        self.fences[op.result_timepoint] = self.null_fence()

    def convert_timepoint_join(self, op: stream.TimepointJoinOp, out: list[Operation]) -> None:
        join = hal.FenceJoinOp([self.fences[t] for t in op.await_timepoints])
        out.append(join)
        self.fences[op.result_timepoint] = join.result

    def convert_timepoint_import(self, op: stream.TimepointImportOp, out: list[Operation]) -> None:
        (fence,) = op.operands_
        self.fences[op.result_timepoint] = fence  # an imported fence is its own timepoint

    def convert_timepoint_chain_external(
        self, op: stream.TimepointChainExternalOp, out: list[Operation]
    ) -> None:
        for fence in op.external_values:
            out.append(
                hal.DeviceQueueBarrierOp(
                    self.device(), self.const(-1, i64), self.fence_of(op.await_timepoint), fence
                )
            )

    def convert_timepoint_await(self, op: stream.TimepointAwaitOp, out: list[Operation]) -> None:
        wait = hal.FenceAwaitOp([self.fences[op.await_timepoint]], self.const(-1, i32))
        out.extend([wait, util.StatusCheckOkOp(wait.status, "failed to wait on timepoint")])
        for source, result in zip(op.resource_operands, op.outputs, strict=True):
            self.resources[result] = self.resources[source]

    def convert_cmd_execute(self, op: stream.CmdExecuteOp, out: list[Operation]) -> None:
        affinity = self.const(-1, i64)
        for arg, operand in zip(op.body.block.args, op.resource_operands, strict=True):
            self.resources[arg] = self.resources[operand]
        slots = binding_slots(op) if self.indirect_command_buffers else {}
        if not slots:
            cmd = self.record(op, "OneShot|AllowInlineExecution", {}, out)
            fence = hal.FenceCreateOp(self.device())
            execute = hal.DeviceQueueExecuteOp(
                self.device(), affinity, self.fence_of(op.await_timepoint), fence, cmd
            )
            out.extend([fence, execute])
            self.fences[op.result_timepoint] = fence.result
            return
        body: list[Operation] = []
        cmd = self.record(op, "None", slots, body)
        body.append(hal.ReturnOp(cmd))
        memoize = hal.DeviceMemoizeOp(
            self.device(), affinity, [hal.CommandBufferType()], Block(body)
        )
        table = []
        for arg in slots:
            buffer = self.resources[arg]
            size = op.resource_operand_sizes[arg.index]
            table.append((buffer.buffer, buffer.offset or self.const(0, IndexType()), size))
        fence = hal.FenceCreateOp(self.device())
        execute = hal.DeviceQueueExecuteIndirectOp(
            self.device(), affinity, self.fence_of(op.await_timepoint), fence,
            memoize.results_[0], table,
        )  # fmt: skip
        out.extend([memoize, fence, execute])
        self.fences[op.result_timepoint] = fence.result

    def record(
        self, op: stream.CmdExecuteOp, modes: str, slots: dict[SSAValue, int], out: list
    ) -> SSAValue:
        """Create, record and finalize the command buffer of `op` into `out`."""
        capacity = self.const(len(slots), IndexType())
        cmd = hal.CommandBufferCreateOp(
            self.device(), modes, "Transfer|Dispatch", self.const(-1, i64), capacity
        )
        out.append(cmd)
        _CommandRecorder(self, cmd.result, out, slots).record_serial(op.body.block)
        out.append(hal.CommandBufferFinalizeOp(cmd))
        return cmd.result

    # ---- executables -------------------------------------------------------------------------

    def executable(self, ref: SymbolRefAttr) -> SSAValue:
        name = ref.root_reference.data
        global_name = self.executable_globals.get(name)
        if global_name is None:
            raise CompileError(f"dispatch of unknown executable @{name}", stage=STAGE)

        def load():
            op = util.GlobalLoadOp(global_name, hal.ExecutableType(), immutable=True)
            # symbol names may hold any text; SSA names may not (MLIR sanitises them too)
            op.result.name_hint = re.sub(r"[^A-Za-z0-9_$.-]", "_", global_name)
            return op

        return self.entry(f"executable {name}", load)


@dataclass
class _CommandRecorder:
    """Records the commands of one `stream.cmd.execute` body into a command buffer."""

    fn: _FunctionConverter
    cmd: SSAValue
    out: list[Operation]
    slots: dict[SSAValue, int]
    """Captured resource (a block argument of the execute) -> its binding-table slot."""

    def barrier(self) -> None:
        self.out.append(hal.CommandBufferExecutionBarrierOp(self.cmd))

    def record_serial(self, block: Block) -> None:
        for op in block.ops:
            if isinstance(op, stream.CmdFlushOp):
                continue  # IREE 3.13 records nothing for a flush (host-coherent staging)
            self.record(op)
            self.barrier()

    def record(self, op: Operation) -> None:
        if isinstance(op, stream.CmdSerialOp):
            self.record_serial(op.body.block)
            return
        if isinstance(op, stream.CmdConcurrentOp):
            for inner in op.body.block.ops:
                self.record(inner)
            return
        if isinstance(op, stream.CmdDispatchOp):
            self.dispatch(op)
            return
        if isinstance(op, stream.CmdFillOp):
            target = self.fn.resources[op.target]
            self.out.append(
                hal.CommandBufferFillBufferOp(
                    self.cmd,
                    target.buffer,
                    self.offset(target, op.target_offset),
                    op.target_length,
                    op.value,
                )
            )
            return
        if isinstance(op, stream.CmdFlushOp):
            return
        if isinstance(op, stream.CmdCopyOp):
            source = self.fn.resources[op.source]
            target = self.fn.resources[op.target]
            self.out.append(
                hal.CommandBufferCopyBufferOp(
                    self.cmd,
                    source.buffer,
                    self.offset(source, op.source_offset),
                    target.buffer,
                    self.offset(target, op.target_offset),
                    op.length,
                )
            )
            return
        raise CompileError.at(op, f"'{op.name}' cannot be recorded in a command buffer", STAGE)

    def offset(self, resource: _Buffer, offset: SSAValue) -> SSAValue:
        if resource.offset is None:
            return offset
        add = arith.AddiOp(resource.offset, offset)
        self.out.append(add)
        return add.result

    def dispatch(self, op: stream.CmdDispatchOp) -> None:
        ref = op.entry_point
        export = SymbolTable.lookup_symbol(self.fn.module, ref)
        if not isinstance(export, hal.ExecutableExportOp):
            raise CompileError.at(
                op,
                f"{ref} is not a hal.executable.export (run MaterializeInterfacesPass first)",
                STAGE,
            )
        executable = self.fn.executable(ref)
        function = hal.ExecutableLookupFunctionOp(executable, ref)
        counts = self.workgroup_counts(export, op)
        bindings = []
        for _access, resource, _size, offset, length in op.bindings():
            slot = self.slots.get(resource)
            if slot is not None:  # the table entry holds the buffer and its offset
                bindings.append((self.fn.const(slot, IndexType()), offset, length))
                continue
            buffer = self.fn.resources[resource]
            bindings.append((buffer.buffer, self.offset(buffer, offset), length))
        constants = push_constants(export, op)
        dispatch = hal.CommandBufferDispatchOp(
            self.cmd, executable, function, counts, bindings, constants
        )
        self.out.extend([function, dispatch])

    def workgroup_counts(self, export: hal.ExecutableExportOp, site: stream.CmdDispatchOp):
        """(x, y, z) at the site: constants as entry constants; a count computed from the
        workload (a `?` size) is the count region's code cloned before the dispatch, its
        arguments bound to the device and the site's workload (as IREE's
        `hal.executable.calculate_workgroups` inlines it in ConvertToHAL)."""
        ret = _count_return(export, site)
        if all(_constant_index(v) is not None for v in ret.operands):
            return [self.fn.const(_constant_index(v), IndexType()) for v in ret.operands]
        block = export.workgroup_count.block
        if len(block.args) != 1 + len(site.workload):
            raise CompileError.at(
                site,
                f"the count region of @{export.sym_name.data} takes {len(block.args) - 1} "
                f"workload values but the dispatch passes {len(site.workload)}",
                STAGE,
            )
        mapping: dict[SSAValue, SSAValue] = {block.args[0]: self.fn.device()}
        mapping.update(zip(block.args[1:], site.workload, strict=True))
        for count_op in block.ops:
            if count_op is not ret:
                self.out.append(count_op.clone(value_mapper=mapping))
        return [mapping[v] for v in ret.operands]


def binding_slots(op: stream.CmdExecuteOp) -> dict[SSAValue, int]:
    """The binding-table slot of each captured resource that is not an immutable global
    (IREE's `BindingTable`), or none when the command buffer cannot be reused: recorded for
    one run (`once`), capturing a dynamic scalar, or with a fill or copy of a slot buffer."""
    if op.once is not None or _captures_dynamic_uniform_values(op):
        return {}
    slots: dict[SSAValue, int] = {}
    for arg, operand in zip(op.body.block.args, op.resource_operands, strict=True):
        if not _is_constant_or_immutable_global(operand):
            slots[arg] = len(slots)
    for inner in op.body.walk():
        if isinstance(inner, stream.CmdFillOp | stream.CmdCopyOp):
            if any(operand in slots for operand in inner.operands):
                return {}
    return slots


def _is_constant_or_immutable_global(value: SSAValue) -> bool:
    """IREE's `categorizeValue` is LocalConstant or ImmutableGlobal."""
    owner = value.owner
    if isinstance(owner, Operation) and owner.has_trait(ConstantLike):
        return True
    return isinstance(owner, util.GlobalLoadOp) and owner.is_immutable is not None


def _captures_dynamic_uniform_values(op: stream.CmdExecuteOp) -> bool:
    """A scalar operand of `op`, or a scalar its body uses from above, that is neither a
    constant nor an immutable global (a `?` size, a push constant computed per call)."""
    inside = {id(o) for o in op.body.walk()}
    values = list(op.operands)
    for inner in op.body.walk():
        values += [v for v in inner.operands if id(v.owner) not in inside]
    scalars = [v for v in values if isinstance(v.type, IntegerType | IndexType | AnyFloat)]
    return not all(_is_constant_or_immutable_global(v) for v in scalars)


def push_constants(export: hal.ExecutableExportOp, site: stream.CmdDispatchOp) -> list[SSAValue]:
    """The dispatch site's scalar operands: the i32 push constants of the export's layout."""
    constants = list(site.uniform_operands)
    declared = export.layout.constants.value.data
    if len(constants) != declared:
        raise CompileError.at(
            site,
            f"dispatch of @{export.sym_name.data} passes {len(constants)} operands but its "
            f"layout has {declared} push constants",
            STAGE,
        )
    for value in constants:
        if value.type != IntegerType(32):
            raise CompileError.at(
                site,
                f"push constants are i32, not {value.type} (run PackDispatchOperandsPass first)",
                STAGE,
            )
    return constants


def _count_return(export: hal.ExecutableExportOp, site: Operation) -> hal.ReturnOp:
    if not export.workgroup_count.blocks:
        raise CompileError.at(
            site, f"export @{export.sym_name.data} has no workgroup count region", STAGE
        )
    ret = export.workgroup_count.block.last_op
    assert isinstance(ret, hal.ReturnOp)
    for op in export.workgroup_count.block.ops:
        if op is not ret and not op.name.startswith("arith."):
            raise CompileError.at(
                site,
                f"the workgroup count of @{export.sym_name.data} is not computed yet (run "
                "codegen before HAL conversion)",
                STAGE,
            )
    return ret


def _constant_index(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None
