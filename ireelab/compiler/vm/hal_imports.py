"""The `hal` module's import signatures, as IREE declares them for the VM
(`compiler/src/iree/compiler/Dialect/HAL/hal.imports.mlir`, IREE 3.13): names, argument names
and types, results, attributes. The conversion declares exactly the ones a program calls.

Type keys: `i32`, `i64`, `buffer` (`!vm.buffer`), a HAL object name (`device` ->
`!vm.ref<!hal.device>`), or a parenthesised tuple. A trailing `...` marks a variadic argument.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, TupleType, UnitAttr, i32, i64
from xdsl.ir import Attribute

from ireelab.dialects import hal, vm

_HAL_TYPES = {
    "allocator": hal.AllocatorType,
    "buffer_ref": hal.BufferType,
    "buffer_view": hal.BufferViewType,
    "command_buffer": hal.CommandBufferType,
    "device": hal.DeviceType,
    "executable": hal.ExecutableType,
    "fence": hal.FenceType,
}

# name: (arguments "name:type", results, attributes)
HAL_IMPORTS: dict[str, tuple[tuple[str, ...], tuple[str, ...], dict[str, object]]] = {
    "allocator.import": (
        ("allocator:allocator", "try:i32", "queue_affinity:i64", "memory_types:i32",
         "buffer_usage:i32", "source:buffer", "offset:i64", "length:i64"), ("buffer_ref",), {}),
    "buffer.assert": (
        ("buffer:buffer_ref", "message:buffer", "allocator:allocator", "minimum_length:i64",
         "memory_types:i32", "buffer_usage:i32"), (), {}),
    "buffer.subspan": (
        ("source_buffer:buffer_ref", "source_offset:i64", "length:i64"), ("buffer_ref",),
        {"nosideeffects": True}),
    "buffer.length": (("buffer:buffer_ref",), ("i64",), {"nosideeffects": True}),
    "buffer.load": (("source_buffer:buffer_ref", "source_offset:i64", "length:i32"), ("i32",), {}),
    "buffer_view.create": (
        ("buffer:buffer_ref", "source_offset:i64", "source_length:i64", "element_type:i32",
         "encoding_type:i32", "shape:i64..."), ("buffer_view",), {"nosideeffects": True}),
    "buffer_view.assert": (
        ("buffer_view:buffer_view", "message:buffer", "element_type:i32", "encoding_type:i32",
         "shape:i64..."), (), {}),
    "buffer_view.buffer": (("buffer_view:buffer_view",), ("buffer_ref",), {"nosideeffects": True}),
    "buffer_view.dim": (
        ("buffer_view:buffer_view", "index:i32"), ("i64",), {"nosideeffects": True}),
    "command_buffer.create": (
        ("device:device", "modes:i32", "command_categories:i32", "queue_affinity:i64",
         "binding_capacity:i32"), ("command_buffer",), {"minimum_version": 6}),
    "command_buffer.finalize": (("command_buffer:command_buffer",), (), {}),
    "command_buffer.execution_barrier": (
        ("command_buffer:command_buffer", "source_stage_mask:i32", "target_stage_mask:i32",
         "flags:i64"), (), {}),
    "command_buffer.fill_buffer": (
        ("command_buffer:command_buffer", "target_buffer:buffer_ref", "target_offset:i64",
         "length:i64", "target_buffer_slot:i32", "pattern:i64", "pattern_length:i32",
         "flags:i64"), (), {}),
    "command_buffer.copy_buffer": (
        ("command_buffer:command_buffer", "source_buffer_slot:i32", "target_buffer_slot:i32",
         "source_buffer:buffer_ref", "source_offset:i64", "target_buffer:buffer_ref",
         "target_offset:i64", "length:i64", "flags:i64"), (), {}),
    "command_buffer.dispatch": (
        ("command_buffer:command_buffer", "executable:executable", "function_id:i64",
         "workgroup_x:i32", "workgroup_y:i32", "workgroup_z:i32", "flags:i64",
         "constants:i32...", "bindings:(i32,i32,buffer_ref,i64,i64)..."), (),
        {"minimum_version": 7}),
    "device.allocator": (("device:device",), ("allocator",), {"nosideeffects": True}),
    "device.query.i64": (
        ("device:device", "category:buffer", "key:buffer"), ("i32", "i64"),
        {"nosideeffects": True}),
    "device.queue.alloca": (
        ("device:device", "queue_affinity:i64", "wait_fence:fence", "signal_fence:fence",
         "pool:i64", "memory_types:i32", "buffer_usage:i32", "allocation_size:i64",
         "flags:i64"), ("buffer_ref",), {}),
    "device.queue.dealloca": (
        ("device:device", "queue_affinity:i64", "wait_fence:fence", "signal_fence:fence",
         "buffer:buffer_ref", "flags:i64"), (), {}),
    "device.queue.barrier": (
        ("device:device", "queue_affinity:i64", "wait_fence:fence", "signal_fence:fence",
         "flags:i64"), (), {}),
    "device.queue.execute": (
        ("device:device", "queue_affinity:i64", "wait_fence:fence", "signal_fence:fence",
         "command_buffer:command_buffer", "flags:i64"), (), {}),
    "device.queue.execute.indirect": (
        ("device:device", "queue_affinity:i64", "wait_fence:fence", "signal_fence:fence",
         "command_buffer:command_buffer", "flags:i64",
         "binding_table:(buffer_ref,i64,i64)..."), (), {}),
    "devices.count": ((), ("i32",), {"nosideeffects": True}),
    "devices.get": (("index:i32",), ("device",), {"nosideeffects": True}),
    "executable.create": (
        ("device:device", "queue_affinity:i64", "executable_format:buffer",
         "executable_data:buffer", "constants:buffer"), ("executable",),
        {"nosideeffects": True}),
    "executable.lookup.function": (
        ("executable:executable", "function_name:buffer"), ("i64",),
        {"nosideeffects": True, "minimum_version": 7}),
    "fence.create": (("device:device", "flags:i64"), ("fence",), {}),
    "fence.join": (("flags:i64", "fences:fence..."), ("fence",), {"nosideeffects": True}),
    "fence.await": (
        ("timeout_millis:i32", "flags:i64", "fences:fence..."), ("i32",), {"vm.yield": True}),
}  # fmt: skip
"""Import name (without `hal.`) -> signature. Order is IREE's declaration order."""


def vm_type(key: str) -> Attribute:
    if key == "i32":
        return i32
    if key == "i64":
        return i64
    if key == "buffer":
        return vm.BufferType()
    if key.startswith("("):
        return TupleType([vm_type(k) for k in key.strip("()").split(",")])
    return vm.RefType(_HAL_TYPES[key]())


def import_op(name: str) -> vm.ImportOp:
    """`vm.import private @hal.<name>(...)` with IREE's signature."""
    args, results, attrs = HAL_IMPORTS[name]
    parsed = []
    for arg in args:
        arg_name, _, key = arg.partition(":")
        variadic = key.endswith("...")
        parsed.append((arg_name, vm_type(key.removesuffix("...")), variadic))
    op = vm.ImportOp(f"hal.{name}", parsed, [vm_type(r) for r in results])
    for key, value in attrs.items():
        op.attributes[key] = UnitAttr() if value is True else IntegerAttr(value, 32)
    return op


def import_order(name: str) -> tuple[int, int]:
    """hal imports in IREE's declaration order, then the other modules' (`check.*`)."""
    if not name.startswith("hal."):
        return (1, 0)
    return (0, list(HAL_IMPORTS).index(name.removeprefix("hal.")))
