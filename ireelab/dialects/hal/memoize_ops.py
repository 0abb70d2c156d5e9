"""`hal.device.memoize`: a region whose results are computed once per device and queue
affinity and reused after (IREE's `HAL_DeviceMemoizeOp`, `Dialect/HAL/IR/HALOps.td`).

`ConvertToHALPass` records a reusable command buffer inside one; `OutlineMemoizeRegionsPass`
then moves the region into an `__<fn>_memoize_apply` function called by an initializer, so
the recording happens once when the module loads. Inside the region only the device, the
affinity, constants and immutable globals may be used from above (IREE's rule); anything
else makes the outlining call the region in place instead.
"""

from __future__ import annotations

from xdsl.dialects.builtin import i64
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    region_def,
    traits_def,
    var_result_def,
)
from xdsl.traits import RecursiveMemoryEffect

from ireelab.dialects.hal.types import DeviceType


@irdl_op_definition
class DeviceMemoizeOp(IRDLOperation):
    """`%r = hal.device.memoize<%device : !hal.device> affinity(%a) -> !hal.command_buffer
    { ... hal.return %cmd : !hal.command_buffer }`."""

    name = "hal.device.memoize"

    device = operand_def(DeviceType)
    queue_affinity = operand_def(i64)
    results_ = var_result_def()
    body = region_def("single_block")

    traits = traits_def(RecursiveMemoryEffect())

    assembly_format = (
        "`<` $device `:` type($device) `>` `affinity` `(` $queue_affinity `)`"
        " `->` type($results_) attr-dict-with-keyword $body"
    )

    def __init__(
        self, device: SSAValue, affinity: SSAValue, result_types: list[Attribute], body: Block
    ):
        super().__init__(
            operands=[device, affinity], result_types=[result_types], regions=[Region(body)]
        )
