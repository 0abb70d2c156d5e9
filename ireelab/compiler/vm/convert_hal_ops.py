"""`hal.*` host ops to calls of the `hal` module's imports (IREE's
`HAL/Conversion/HALToVM/*.cpp`): enum attributes become i32 constants, indices i64, strings
rodata, and each op one `vm.call` / `vm.call.variadic` with IREE's argument order.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from xdsl.dialects.builtin import IntegerAttr, IntegerType, f32, i32, i64
from xdsl.ir import Operation, SSAValue

from ireelab.compiler.vm.conversion_state import STAGE, ConversionState, convert_type
from ireelab.diagnostics import CompileError
from ireelab.dialects import hal, vm
from ireelab.schemas.hal_element_types import MLIR_TO_CODE

Converter = Callable[[Operation, ConversionState], None]

# IREE's bit values (HALAttrs.td) for the flag names the HAL ops carry as text.
_FLAG_BITS: dict[str, dict[str, int]] = {
    "memory_type": {
        "None": 0, "Optimal": 0x1, "HostVisible": 0x2, "HostCoherent": 0x4,
        "HostCached": 0x8, "HostLocal": 0x46, "DeviceVisible": 0x10, "DeviceLocal": 0x30,
    },
    "buffer_usage": {
        "None": 0, "TransferSource": 0x1, "TransferTarget": 0x2, "Transfer": 0x3,
        "DispatchIndirectParameters": 0x100, "DispatchUniformRead": 0x200,
        "DispatchStorageRead": 0x400, "DispatchStorageWrite": 0x800, "DispatchStorage": 0xC00,
        "DispatchImageRead": 0x1000, "DispatchImageWrite": 0x2000, "DispatchImage": 0x3000,
        "SharingExport": 0x10000, "SharingReplicate": 0x20000, "SharingConcurrent": 0x40000,
        "SharingImmutable": 0x80000, "MappingScoped": 0x1000000,
        "MappingPersistent": 0x2000000, "MappingOptional": 0x4000000,
        "MappingAccessRandom": 0x8000000, "MappingAccessSequentialWrite": 0x10000000,
        "Mapping": 0x9000000,
    },
    "command_buffer_mode": {"None": 0, "OneShot": 0x1, "AllowInlineExecution": 0x10},
    "command_category": {"None": 0, "Transfer": 0x1, "Dispatch": 0x2},
    "execution_stage": {
        "None": 0, "CommandIssue": 0x1, "CommandProcess": 0x2, "Dispatch": 0x4,
        "Transfer": 0x8, "CommandRetire": 0x10, "Host": 0x20,
    },
}  # fmt: skip

DENSE_ROW_MAJOR = 1


def flag_bits(attr, kind: str, where: Operation) -> int:
    bits = 0
    for name in attr.data.split("|"):
        value = _FLAG_BITS[kind].get(name.strip())
        if value is None:
            raise CompileError.at(where, f"unknown {kind} flag '{name}'", STAGE)
        bits |= value
    return bits


def _element_type_code(type_, where: Operation) -> int:
    code = MLIR_TO_CODE.get(str(type_))
    if code is None:
        raise CompileError.at(where, f"element type {type_} has no HAL element type code", STAGE)
    return code


def _map_one(op: Operation, s: ConversionState, value: SSAValue) -> None:
    s.map(op.results[0], value)


# ---- values computed at compile time ----------------------------------------------------------


def _element_type(op: hal.ElementTypeOp, s: ConversionState) -> None:
    _map_one(op, s, s.const_i32(_element_type_code(op.type_, op)))


def _encoding_type(op: hal.EncodingTypeOp, s: ConversionState) -> None:
    if op.encoding.data != "dense_row_major":
        raise CompileError.at(op, f"encoding {op.encoding.data} is not supported", STAGE)
    _map_one(op, s, s.const_i32(DENSE_ROW_MAJOR))


def _memory_type(op: hal.MemoryTypeOp, s: ConversionState) -> None:
    _map_one(op, s, s.const_i32(flag_bits(op.type_, "memory_type", op)))


def _buffer_usage(op: hal.BufferUsageOp, s: ConversionState) -> None:
    _map_one(op, s, s.const_i32(flag_bits(op.usage, "buffer_usage", op)))


# ---- buffers and buffer views -----------------------------------------------------------------


def _shape(op: Operation, s: ConversionState, dims) -> list[SSAValue]:
    return [s.as_i64(s.get(d)) for d in dims]


def _buffer_view_assert(op: hal.BufferViewAssertOp, s: ConversionState) -> None:
    s.call_variadic(
        "buffer_view.assert",
        [
            s.get(op.buffer_view),
            s.string(op.message.data),
            s.as_i32(s.get(op.element_type)),
            s.as_i32(s.get(op.encoding_type)),
            _shape(op, s, op.shape),
        ],
        op,
    )


def _buffer_view_buffer(op: hal.BufferViewBufferOp, s: ConversionState) -> None:
    _map_one(op, s, s.call("buffer_view.buffer", [s.get(op.buffer_view)], op)[0])


def _buffer_view_dim(op: hal.BufferViewDimOp, s: ConversionState) -> None:
    index = s.const_i32(op.index.value.data)
    _map_one(op, s, s.call("buffer_view.dim", [s.get(op.buffer_view), index], op)[0])


def _buffer_view_create(op: hal.BufferViewCreateOp, s: ConversionState) -> None:
    (view,) = s.call_variadic(
        "buffer_view.create",
        [
            s.get(op.source_buffer),
            s.get(op.source_offset),
            s.get(op.source_length),
            s.as_i32(s.get(op.element_type)),
            s.as_i32(s.get(op.encoding_type)),
            _shape(op, s, op.shape),
        ],
        op,
    )
    _map_one(op, s, view)


def _buffer_subspan(op: hal.BufferSubspanOp, s: ConversionState) -> None:
    args = [s.get(op.source_buffer), s.get(op.source_offset), s.get(op.length)]
    _map_one(op, s, s.call("buffer.subspan", args, op)[0])


def _buffer_assert(op: hal.BufferAssertOp, s: ConversionState) -> None:
    s.call(
        "buffer.assert",
        [
            s.get(op.buffer),
            s.string(op.message.data),
            s.get(op.allocator),
            s.get(op.minimum_length),
            s.const_i32(flag_bits(op.memory_types, "memory_type", op)),
            s.const_i32(flag_bits(op.buffer_usage, "buffer_usage", op)),
        ],
        op,
    )


# ---- devices ------------------------------------------------------------------------------------


def _allocator_import(op: hal.AllocatorImportOp, s: ConversionState) -> None:
    """`try = 1`: a null buffer (not a failure) when the allocator cannot import;
    `did_import` is whether the buffer is non-null, as IREE converts it."""
    (buffer,) = s.call(
        "allocator.import",
        [
            s.get(op.allocator),
            s.const_i32(1),
            s.get(op.queue_affinity),
            s.as_i32(s.get(op.memory_types)),
            s.as_i32(s.get(op.buffer_usage)),
            s.get(op.source),
            s.get(op.offset),
            s.get(op.length),
        ],
        op,
    )
    imported = s.emit(vm.op_class("vm.cmp.nz.ref")(buffer)).results[0]
    s.map(op.did_import, imported)
    s.map(op.result, buffer)


def _bitcast_i32_f32(where: Operation) -> type[Operation]:
    try:
        return vm.op_class("vm.bitcast.i32.f32")
    except KeyError:
        raise CompileError.at(where, "the VM has no f32 registers yet", STAGE) from None


def _buffer_load(op: hal.BufferLoadOp, s: ConversionState) -> None:
    """`hal.buffer.load` -> the `hal.buffer.load` import (an i32 of `length` bytes); an f32
    is the bits of that i32 (`vm.bitcast.i32.f32`, as IREE's HALToVM emits)."""
    result_type = op.result.type
    width = getattr(result_type, "bitwidth", 0)
    if isinstance(result_type, IntegerType):
        width = result_type.width.data
    if width not in (8, 16, 32, 64):
        raise CompileError.at(op, f"loading a {result_type} from a buffer is not supported", STAGE)
    if width == 64:
        if not isinstance(result_type, IntegerType):
            raise CompileError.at(op, f"{result_type} values have no VM register type", STAGE)
        _map_one(op, s, _load_i64(op, s))
        return
    args = [s.get(op.source_buffer), s.get(op.source_offset), s.const_i32(width // 8)]
    (value,) = s.call("buffer.load", args, op)
    if result_type == f32:
        value = s.emit(_bitcast_i32_f32(op)(value, f32)).results[0]
    elif not isinstance(result_type, IntegerType):
        raise CompileError.at(op, f"{result_type} values have no VM register type", STAGE)
    _map_one(op, s, value)


def _load_i64(op: hal.BufferLoadOp, s: ConversionState) -> SSAValue:
    """An i64 is two 4-byte loads combined, `(i64(hi) << 32) | zext(lo)`, as IREE's HALToVM
    does (the `hal.buffer.load` import returns at most 32 bits)."""
    buffer, offset = s.get(op.source_buffer), s.as_i64(s.get(op.source_offset))
    four = s.const_i32(4)
    (lo,) = s.call("buffer.load", [buffer, offset, four], op)
    hi_offset = s.emit(vm.op_class("vm.add.i64")(offset, s.const_i64(4))).results[0]
    (hi,) = s.call("buffer.load", [buffer, hi_offset, four], op)
    hi = s.emit(vm.op_class("vm.ext.i32.i64.s")(hi, i64)).results[0]
    hi = s.emit(vm.op_class("vm.shl.i64")(hi, s.const_i64(32))).results[0]
    lo = s.emit(vm.op_class("vm.ext.i32.i64.u")(lo, i64)).results[0]
    return s.emit(vm.op_class("vm.or.i64")(hi, lo)).results[0]


def _device_allocator(op: hal.DeviceAllocatorOp, s: ConversionState) -> None:
    _map_one(op, s, s.call("device.allocator", [s.get(op.device)], op)[0])


def _devices_count(op: hal.DevicesCountOp, s: ConversionState) -> None:
    (count,) = s.call("devices.count", [], op)
    _map_one(op, s, s.as_i64(count))


def _devices_get(op: hal.DevicesGetOp, s: ConversionState) -> None:
    _map_one(op, s, s.call("devices.get", [s.as_i32(s.get(op.index))], op)[0])


def _device_query(op: hal.DeviceQueryOp, s: ConversionState) -> None:
    """`(ok, value) = query.i64`; the result is `ok ? value : default` in the asked type."""
    ok, value = s.call(
        "device.query.i64",
        [s.get(op.device), s.string(op.category.data), s.string(op.key.data)],
        op,
    )
    default = op.default_value
    number = 0
    if isinstance(default, IntegerAttr):
        number = default.value.data
        if isinstance(default.type, IntegerType) and default.type.width.data == 1:
            number = int(number != 0)
    result_type = op.value.type
    if isinstance(result_type, IntegerType) and result_type.width.data == 1:
        truth = s.emit(vm.op_class("vm.cmp.nz.i64")(value)).results[0]
        chosen = vm.op_class("vm.select.i32")(ok, truth, s.const_i32(number))
    elif convert_type(result_type, op) == i32:
        narrowed = s.as_i32(value)
        chosen = vm.op_class("vm.select.i32")(ok, narrowed, s.const_i32(number))
    else:
        chosen = vm.op_class("vm.select.i64")(ok, value, s.const_i64(number))
    s.map(op.ok, ok)
    s.map(op.value, s.emit(chosen).results[0])


# ---- executables ------------------------------------------------------------------------------


def _executable_create(op: hal.ExecutableCreateOp, s: ConversionState) -> None:
    target = op.executable_target
    executable = target.root_reference.data
    nested = [r.data for r in target.nested_references.data]
    binary = s.binaries.get((executable, nested[0] if nested else ""))
    if binary is None:
        raise CompileError.at(op, f"no hal.executable.binary for {target}", STAGE)
    rodata_name, format_ = binary
    data = s.emit(vm.ConstRefRodataOp(rodata_name)).results[0]
    hint = re.sub(r"[^A-Za-z0-9_$.-]", "_", rodata_name)  # symbols may hold any text
    data.name_hint = "_" + hint if hint[:1].isdigit() else hint
    (result,) = s.call(
        "executable.create",
        [
            s.get(op.device),
            s.get(op.queue_affinity),
            s.string(format_),
            data,
            s.null(vm.BufferType()),
        ],
        op,
    )
    _map_one(op, s, result)


def _lookup_function(op: hal.ExecutableLookupFunctionOp, s: ConversionState) -> None:
    nested = op.function.nested_references.data
    if not nested:
        raise CompileError.at(op, f"function reference {op.function} names no export", STAGE)
    export = nested[-1].data
    (ordinal,) = s.call("executable.lookup.function", [s.get(op.executable), s.string(export)], op)
    _map_one(op, s, ordinal)


# ---- command buffers --------------------------------------------------------------------------


def _command_buffer_create(op: hal.CommandBufferCreateOp, s: ConversionState) -> None:
    (cmd,) = s.call(
        "command_buffer.create",
        [
            s.get(op.device),
            s.const_i32(flag_bits(op.modes, "command_buffer_mode", op)),
            s.const_i32(flag_bits(op.command_categories, "command_category", op)),
            s.get(op.queue_affinity),
            s.as_i32(s.get(op.binding_capacity)),
        ],
        op,
    )
    _map_one(op, s, cmd)


def _binding(s: ConversionState, buffer: SSAValue, offset, length) -> tuple:
    """`(reserved, slot, buffer, offset, length)`: an index operand is a binding-table slot."""
    converted = s.get(buffer)
    if vm.is_ref(converted.type):
        slot, ref = s.const_i32(0), converted
    else:
        slot, ref = s.as_i32(converted), s.null(vm.RefType(hal.BufferType()))
    return (s.const_i32(0), slot, ref, s.get(offset), s.get(length))


def _dispatch(op: hal.CommandBufferDispatchOp, s: ConversionState) -> None:
    counts = [s.as_i32(s.get(v)) for v in op.workgroup_count]
    if len(counts) != 3:
        raise CompileError.at(op, "a dispatch needs three workgroup counts", STAGE)
    bindings = [
        _binding(s, b, o, n)
        for b, o, n in zip(op.binding_buffers, op.binding_offsets, op.binding_lengths, strict=True)
    ]
    s.call_variadic(
        "command_buffer.dispatch",
        [
            s.get(op.command_buffer),
            s.get(op.executable),
            s.get(op.entry_point),
            *counts,
            s.const_i64(0),
            [s.as_i32(s.get(c)) for c in op.constants],
            bindings,
        ],
        op,
    )


def _execution_barrier(op: hal.CommandBufferExecutionBarrierOp, s: ConversionState) -> None:
    s.call(
        "command_buffer.execution_barrier",
        [
            s.get(op.command_buffer),
            s.const_i32(flag_bits(op.source_stage_mask, "execution_stage", op)),
            s.const_i32(flag_bits(op.target_stage_mask, "execution_stage", op)),
            s.const_i64(0),
        ],
        op,
    )


def _finalize(op: hal.CommandBufferFinalizeOp, s: ConversionState) -> None:
    s.call("command_buffer.finalize", [s.get(op.command_buffer)], op)


def _fill_buffer(op: hal.CommandBufferFillBufferOp, s: ConversionState) -> None:
    width = op.pattern.type.width.data if isinstance(op.pattern.type, IntegerType) else 32
    s.call(
        "command_buffer.fill_buffer",
        [
            s.get(op.command_buffer),
            s.get(op.target_buffer),
            s.get(op.target_offset),
            s.get(op.length),
            s.const_i32(0),
            s.as_i64(s.get(op.pattern)),
            s.const_i32(max(1, width // 8)),
            s.const_i64(0),
        ],
        op,
    )


def _copy_buffer(op: hal.CommandBufferCopyBufferOp, s: ConversionState) -> None:
    s.call(
        "command_buffer.copy_buffer",
        [
            s.get(op.command_buffer),
            s.const_i32(0),
            s.const_i32(0),
            s.get(op.source_buffer),
            s.get(op.source_offset),
            s.get(op.target_buffer),
            s.get(op.target_offset),
            s.get(op.length),
            s.const_i64(0),
        ],
        op,
    )


# ---- fences and queues --------------------------------------------------------------------------


def _fence_create(op: hal.FenceCreateOp, s: ConversionState) -> None:
    _map_one(op, s, s.call("fence.create", [s.get(op.device), s.const_i64(0)], op)[0])


def _fence_join(op: hal.FenceJoinOp, s: ConversionState) -> None:
    (fence,) = s.call_variadic("fence.join", [s.const_i64(0), [s.get(f) for f in op.fences]], op)
    _map_one(op, s, fence)


def _fence_await(op: hal.FenceAwaitOp, s: ConversionState) -> None:
    """A yieldable call: the status arrives as the argument of the next block."""
    import_op = s.declare("fence.await", op)
    segments = [s.get(op.timeout_millis), s.const_i64(0), [s.get(f) for f in op.fences]]
    args, sizes, types = s.segment_operands(import_op, segments)
    rest = s.split([i32])
    s.emit(vm.CallVariadicYieldableOp("hal.fence.await", args, sizes, types, rest))
    s.block = rest
    _map_one(op, s, rest.args[0])


def _queue_common(op, s: ConversionState) -> list[SSAValue]:
    return [
        s.get(op.device),
        s.get(op.queue_affinity),
        s.get(op.wait_fence),
        s.get(op.signal_fence),
    ]


def _queue_alloca(op: hal.DeviceQueueAllocaOp, s: ConversionState) -> None:
    (buffer,) = s.call(
        "device.queue.alloca",
        [
            *_queue_common(op, s),
            s.get(op.pool),
            s.as_i32(s.get(op.memory_types)),
            s.as_i32(s.get(op.buffer_usage)),
            s.get(op.result_size),
            s.const_i64(0),
        ],
        op,
    )
    _map_one(op, s, buffer)


def _queue_dealloca(op: hal.DeviceQueueDeallocaOp, s: ConversionState) -> None:
    s.call("device.queue.dealloca", [*_queue_common(op, s), s.get(op.buffer), s.const_i64(0)], op)


def _queue_barrier(op: hal.DeviceQueueBarrierOp, s: ConversionState) -> None:
    s.call("device.queue.barrier", [*_queue_common(op, s), s.const_i64(0)], op)


def _queue_execute(op: hal.DeviceQueueExecuteOp, s: ConversionState) -> None:
    s.call(
        "device.queue.execute",
        [*_queue_common(op, s), s.get(op.command_buffer), s.const_i64(0)],
        op,
    )


def _queue_execute_indirect(op: hal.DeviceQueueExecuteIndirectOp, s: ConversionState) -> None:
    table = [
        (s.get(b), s.get(o), s.get(n))
        for b, o, n in zip(op.binding_buffers, op.binding_offsets, op.binding_lengths, strict=True)
    ]
    s.call_variadic(
        "device.queue.execute.indirect",
        [*_queue_common(op, s), s.get(op.command_buffer), s.const_i64(0), table],
        op,
    )


HAL_CONVERTERS: dict[str, Converter] = {
    "hal.element_type": _element_type,
    "hal.encoding_type": _encoding_type,
    "hal.memory_type": _memory_type,
    "hal.buffer_usage": _buffer_usage,
    "hal.buffer_view.assert": _buffer_view_assert,
    "hal.buffer_view.buffer": _buffer_view_buffer,
    "hal.buffer_view.create": _buffer_view_create,
    "hal.buffer_view.dim": _buffer_view_dim,
    "hal.buffer.assert": _buffer_assert,
    "hal.buffer.subspan": _buffer_subspan,
    "hal.buffer.load": _buffer_load,
    "hal.device.allocator": _device_allocator,
    "hal.allocator.import": _allocator_import,
    "hal.devices.count": _devices_count,
    "hal.devices.get": _devices_get,
    "hal.device.query": _device_query,
    "hal.executable.create": _executable_create,
    "hal.executable.lookup.function": _lookup_function,
    "hal.command_buffer.create": _command_buffer_create,
    "hal.command_buffer.dispatch": _dispatch,
    "hal.command_buffer.execution_barrier": _execution_barrier,
    "hal.command_buffer.finalize": _finalize,
    "hal.command_buffer.fill_buffer": _fill_buffer,
    "hal.command_buffer.copy_buffer": _copy_buffer,
    "hal.fence.create": _fence_create,
    "hal.fence.join": _fence_join,
    "hal.fence.await": _fence_await,
    "hal.device.queue.alloca": _queue_alloca,
    "hal.device.queue.dealloca": _queue_dealloca,
    "hal.device.queue.barrier": _queue_barrier,
    "hal.device.queue.execute": _queue_execute,
    "hal.device.queue.execute.indirect": _queue_execute_indirect,
}
