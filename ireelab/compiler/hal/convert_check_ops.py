"""The `check` ops in the HAL stage (IREE's `populateCheckToHALPatterns`,
`Modules/Check/Conversion/ConversionPatterns.cpp`): each comparison of buffer views gets the
device it runs on, `check.expect_eq<%device>(%lhs, %rhs) : !hal.buffer_view`, which the VM
stage passes to the `check` module (it may need the device to read device memory)."""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from ireelab.diagnostics import copy_location
from ireelab.dialects import check

DEVICE_CHECKS = (check.ExpectAllTrueOp, check.ExpectEqOp, check.ExpectAlmostEqOp)


def needs_device(op: Operation) -> bool:
    return isinstance(op, DEVICE_CHECKS) and op.device is None


def attach_device(op: Operation, device: SSAValue) -> None:
    """Rebuild `op` with `<device>` (its buffer-view operands unchanged)."""
    if isinstance(op, check.ExpectAllTrueOp):
        new = check.ExpectAllTrueOp(op.operand, device)
    elif isinstance(op, check.ExpectEqOp):
        new = check.ExpectEqOp(op.lhs, op.rhs, device)
    else:
        assert isinstance(op, check.ExpectAlmostEqOp)
        new = check.ExpectAlmostEqOp(op.lhs, op.rhs, device=device)
        new.atol, new.rtol = op.atol, op.rtol
    copy_location(op, new)
    Rewriter.replace_op(op, new)
