"""The `hal` dialect: IREE's hardware abstraction layer, as types, attributes and ops.

Mirrors IREE's `compiler/src/iree/compiler/Dialect/HAL/IR/{HALTypes,HALAttrs,HALOps}.td`. The
dialect has three faces, one module per op family:

- the ABI boundary of stage A (`tensor_ops`): `hal.tensor.import` / `hal.tensor.export`
  between `!hal.buffer_view` and tensors (WrapEntryPointsPass);
- executables of stages E/F (`executables`, `interface_ops`): `hal.executable` >
  `hal.executable.variant` > `hal.executable.export` with ordinal, `#hal.pipeline.layout` and
  workgroup-count region, the device code reading its bindings through
  `hal.interface.binding.subspan`, and `hal.executable.binary` once serialised;
- host code of stage F (`buffer_ops`, `buffer_element_ops`, `device_ops`,
  `command_buffer_ops`, `queue_ops`; the reference `a0_matmul_tiny.hal.mlir`): devices, buffers, buffer views, command buffers, fences
  and queue operations, which the VM stage turns into `hal.*` module imports.

`types`, `attributes` and `flags` hold what they say; IREE's bit-enum flags (memory types,
buffer usages, binding flags, ...) are kept as their printed text (`"ReadOnly|Indirect"`),
checked against IREE's flag names by the verifier. This package builds the one `HAL` dialect
object and re-exports every public name, so `from ireelab.dialects import hal; hal.X` works for
any op, type or attribute.
"""

from __future__ import annotations

from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation

from ireelab.dialects.hal.attributes import (
    DeviceAffinityAttr,
    DeviceTargetAttr,
    ExecutableTargetAttr,
    PipelineBindingAttr,
    PipelineLayoutAttr,
)
from ireelab.dialects.hal.buffer_element_ops import BufferLoadOp
from ireelab.dialects.hal.buffer_ops import (
    AllocatorImportOp,
    BufferAssertOp,
    BufferSubspanOp,
    BufferUsageOp,
    BufferViewAssertOp,
    BufferViewBufferOp,
    BufferViewCreateOp,
    BufferViewDimOp,
    ElementTypeOp,
    EncodingTypeOp,
    MemoryTypeOp,
)
from ireelab.dialects.hal.command_buffer_ops import (
    CommandBufferCopyBufferOp,
    CommandBufferCreateOp,
    CommandBufferDispatchOp,
    CommandBufferExecutionBarrierOp,
    CommandBufferFillBufferOp,
    CommandBufferFinalizeOp,
)
from ireelab.dialects.hal.device_ops import (
    DeviceAllocatorOp,
    DeviceQueryOp,
    DevicesCountOp,
    DevicesGetOp,
    ExecutableCreateOp,
    ExecutableLookupFunctionOp,
)
from ireelab.dialects.hal.executables import (
    ExecutableBinaryOp,
    ExecutableExportOp,
    ExecutableOp,
    ExecutableVariantOp,
    ReturnOp,
)
from ireelab.dialects.hal.flags import (
    FLAG_NAMES,
    BindingFlagsAttr,
    BufferUsageAttr,
    CommandBufferModeAttr,
    CommandCategoryAttr,
    ExecutionStageAttr,
    MemoryTypeAttr,
    NoFlagsAttr,
    none_flags,
    parse_flags,
    print_flags,
    verify_flags,
)
from ireelab.dialects.hal.interface_ops import (
    InterfaceBindingSubspanOp,
    InterfaceConstantLoadOp,
    InterfaceWorkgroupCountOp,
    InterfaceWorkgroupIDOp,
    InterfaceWorkgroupSizeOp,
)
from ireelab.dialects.hal.memoize_ops import DeviceMemoizeOp
from ireelab.dialects.hal.queue_ops import (
    DeviceQueueAllocaOp,
    DeviceQueueBarrierOp,
    DeviceQueueDeallocaOp,
    DeviceQueueExecuteIndirectOp,
    DeviceQueueExecuteOp,
    FenceAwaitOp,
    FenceCreateOp,
    FenceJoinOp,
)
from ireelab.dialects.hal.syntax import (
    parse_binding_list,
    parse_flags_clause,
    parse_stripped_or_full,
    parse_target_prefix,
    print_binding_list,
)
from ireelab.dialects.hal.tensor_ops import TensorBarrierOp, TensorExportOp, TensorImportOp
from ireelab.dialects.hal.types import (
    AllocatorType,
    BufferType,
    BufferViewType,
    CommandBufferType,
    DeviceType,
    ExecutableType,
    FenceType,
)

# `iree_cpu` appears inside HAL targets (`#iree_cpu.cpu_encoding_resolver<>`); its dialect
# object lives in `ireelab.dialects.iree_cpu` and stays reachable from here.
from ireelab.dialects.iree_cpu import IREECPU, CPUEncodingResolverAttr

# ---- the dialect ------------------------------------------------------------------------------

_TYPES = [
    BufferViewType,
    BufferType,
    DeviceType,
    AllocatorType,
    ExecutableType,
    CommandBufferType,
    FenceType,
]
_ATTRIBUTES = [
    MemoryTypeAttr,
    BufferUsageAttr,
    CommandBufferModeAttr,
    CommandCategoryAttr,
    ExecutionStageAttr,
    BindingFlagsAttr,
    NoFlagsAttr,
    ExecutableTargetAttr,
    DeviceTargetAttr,
    DeviceAffinityAttr,
    PipelineBindingAttr,
    PipelineLayoutAttr,
]
_OPS: list[type[IRDLOperation]] = [
    DeviceMemoizeOp,
    TensorImportOp,
    TensorBarrierOp,
    TensorExportOp,
    ExecutableOp,
    ExecutableVariantOp,
    ExecutableExportOp,
    ExecutableBinaryOp,
    ReturnOp,
    InterfaceBindingSubspanOp,
    InterfaceConstantLoadOp,
    InterfaceWorkgroupIDOp,
    InterfaceWorkgroupCountOp,
    InterfaceWorkgroupSizeOp,
    ElementTypeOp,
    EncodingTypeOp,
    MemoryTypeOp,
    BufferUsageOp,
    BufferViewAssertOp,
    BufferViewBufferOp,
    BufferViewCreateOp,
    BufferViewDimOp,
    BufferAssertOp,
    BufferLoadOp,
    BufferSubspanOp,
    AllocatorImportOp,
    DeviceAllocatorOp,
    DevicesCountOp,
    DevicesGetOp,
    DeviceQueryOp,
    ExecutableCreateOp,
    ExecutableLookupFunctionOp,
    CommandBufferCreateOp,
    CommandBufferDispatchOp,
    CommandBufferExecutionBarrierOp,
    CommandBufferFinalizeOp,
    CommandBufferFillBufferOp,
    CommandBufferCopyBufferOp,
    FenceCreateOp,
    FenceJoinOp,
    FenceAwaitOp,
    DeviceQueueAllocaOp,
    DeviceQueueDeallocaOp,
    DeviceQueueBarrierOp,
    DeviceQueueExecuteOp,
    DeviceQueueExecuteIndirectOp,
]

HAL = Dialect("hal", _OPS, [*_TYPES, *_ATTRIBUTES])


__all__ = [
    "DeviceMemoizeOp",
    "AllocatorType",
    "BindingFlagsAttr",
    "AllocatorImportOp",
    "BufferSubspanOp",
    "BufferAssertOp",
    "BufferType",
    "BufferUsageAttr",
    "BufferUsageOp",
    "BufferViewAssertOp",
    "BufferViewBufferOp",
    "BufferLoadOp",
    "BufferViewCreateOp",
    "BufferViewDimOp",
    "BufferViewType",
    "CPUEncodingResolverAttr",
    "CommandBufferCopyBufferOp",
    "CommandBufferCreateOp",
    "CommandBufferDispatchOp",
    "CommandBufferExecutionBarrierOp",
    "CommandBufferFillBufferOp",
    "CommandBufferFinalizeOp",
    "CommandBufferModeAttr",
    "CommandBufferType",
    "CommandCategoryAttr",
    "DeviceAffinityAttr",
    "DeviceAllocatorOp",
    "DeviceQueryOp",
    "DeviceQueueAllocaOp",
    "DeviceQueueBarrierOp",
    "DeviceQueueDeallocaOp",
    "DeviceQueueExecuteIndirectOp",
    "DeviceQueueExecuteOp",
    "DeviceTargetAttr",
    "DeviceType",
    "DevicesCountOp",
    "DevicesGetOp",
    "ElementTypeOp",
    "EncodingTypeOp",
    "ExecutableBinaryOp",
    "ExecutableCreateOp",
    "ExecutableExportOp",
    "ExecutableLookupFunctionOp",
    "ExecutableOp",
    "ExecutableTargetAttr",
    "ExecutableType",
    "ExecutableVariantOp",
    "ExecutionStageAttr",
    "FLAG_NAMES",
    "FenceAwaitOp",
    "FenceCreateOp",
    "FenceJoinOp",
    "FenceType",
    "HAL",
    "IREECPU",
    "InterfaceBindingSubspanOp",
    "InterfaceConstantLoadOp",
    "InterfaceWorkgroupCountOp",
    "InterfaceWorkgroupIDOp",
    "InterfaceWorkgroupSizeOp",
    "MemoryTypeAttr",
    "MemoryTypeOp",
    "NoFlagsAttr",
    "PipelineBindingAttr",
    "PipelineLayoutAttr",
    "ReturnOp",
    "TensorBarrierOp",
    "TensorExportOp",
    "TensorImportOp",
    "none_flags",
    "parse_binding_list",
    "parse_flags",
    "parse_flags_clause",
    "parse_stripped_or_full",
    "parse_target_prefix",
    "print_binding_list",
    "print_flags",
    "verify_flags",
]
