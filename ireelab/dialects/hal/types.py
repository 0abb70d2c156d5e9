"""The `hal` types: `!hal.buffer_view`, `!hal.buffer`, `!hal.device`, `!hal.allocator`,
`!hal.executable`, `!hal.command_buffer`, `!hal.fence`.

Mirrors IREE's `Dialect/HAL/IR/HALTypes.td`. None has parameters; the host code of stage F
passes them between `hal.*` ops, and the VM stage turns each into a `!vm.ref<...>`.
"""

from __future__ import annotations

from xdsl.ir import ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition


@irdl_attr_definition
class BufferViewType(ParametrizedAttribute, TypeAttribute):
    """`!hal.buffer_view`: a buffer plus shape, element type and encoding (the ABI type)."""

    name = "hal.buffer_view"


@irdl_attr_definition
class BufferType(ParametrizedAttribute, TypeAttribute):
    """`!hal.buffer`: a range of device memory."""

    name = "hal.buffer"


@irdl_attr_definition
class DeviceType(ParametrizedAttribute, TypeAttribute):
    """`!hal.device`: a logical device (one HAL driver instance)."""

    name = "hal.device"


@irdl_attr_definition
class AllocatorType(ParametrizedAttribute, TypeAttribute):
    """`!hal.allocator`: a device's buffer allocator."""

    name = "hal.allocator"


@irdl_attr_definition
class ExecutableType(ParametrizedAttribute, TypeAttribute):
    """`!hal.executable`: a loaded executable (compiled kernels) on one device."""

    name = "hal.executable"


@irdl_attr_definition
class CommandBufferType(ParametrizedAttribute, TypeAttribute):
    """`!hal.command_buffer`: recorded dispatches, copies and barriers."""

    name = "hal.command_buffer"


@irdl_attr_definition
class FenceType(ParametrizedAttribute, TypeAttribute):
    """`!hal.fence`: a set of semaphore timepoints (what a `!stream.timepoint` becomes)."""

    name = "hal.fence"
