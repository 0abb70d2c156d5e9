"""`check.*` host ops to calls of the imported `check` module (IREE's
`populateCheckToVMPatterns`, `Modules/Check/Conversion/ConversionPatterns.cpp`).

Each op becomes one `vm.call @check.<op>(...)`: an i1/i32 operand is passed as i32, buffer
views and the device as refs, `expect_almost_eq`'s tolerances as f32 (IREE's defaults when the
op has none). IREE guards each call with `vm.import.resolved` so a module still runs where no
check module is linked; ireelab's runtime always provides it, so the call is unconditional.
The VM has no f32 constant op here: a tolerance is its i32 bit pattern, bitcast to f32.
"""

from __future__ import annotations

import struct
from collections.abc import Callable

from xdsl.dialects.builtin import f32
from xdsl.ir import Operation, SSAValue

from ireelab.compiler.vm.check_imports import check_import_op
from ireelab.compiler.vm.conversion_state import STAGE, ConversionState
from ireelab.diagnostics import CompileError
from ireelab.dialects import check, vm

Converter = Callable[[Operation, ConversionState], None]


def _call(name: str, args: list[SSAValue], s: ConversionState) -> None:
    key = f"check.{name}"
    if key not in s.imports:
        s.imports[key] = check_import_op(name)
    s.emit(vm.CallOp(key, args, []))


def _f32(value: float, s: ConversionState) -> SSAValue:
    bits = struct.unpack("<i", struct.pack("<f", value))[0]
    return s.emit(vm.op_class("vm.bitcast.i32.f32")(s.const_i32(bits), f32)).results[0]


def _device(op: Operation, s: ConversionState) -> SSAValue:
    device = getattr(op, "device", None)
    if device is None:
        raise CompileError.at(
            op, f"'{op.name}' reached the VM without a device (did the HAL stage run?)", STAGE
        )
    return s.get(device)


def _expect_true(op: check.ExpectTrueOp, s: ConversionState) -> None:
    _call("expect_true", [s.as_i32(s.get(op.operand))], s)


def _expect_false(op: check.ExpectFalseOp, s: ConversionState) -> None:
    _call("expect_false", [s.as_i32(s.get(op.operand))], s)


def _expect_all_true(op: check.ExpectAllTrueOp, s: ConversionState) -> None:
    _call("expect_all_true", [_device(op, s), s.get(op.operand)], s)


def _expect_eq(op: check.ExpectEqOp, s: ConversionState) -> None:
    _call("expect_eq", [_device(op, s), s.get(op.lhs), s.get(op.rhs)], s)


def _expect_almost_eq(op: check.ExpectAlmostEqOp, s: ConversionState) -> None:
    atol, rtol = op.tolerances()
    args = [_device(op, s), s.get(op.lhs), s.get(op.rhs), _f32(atol, s), _f32(rtol, s)]
    _call("expect_almost_eq", args, s)


CHECK_CONVERTERS: dict[str, Converter] = {
    "check.expect_true": _expect_true,
    "check.expect_false": _expect_false,
    "check.expect_all_true": _expect_all_true,
    "check.expect_eq": _expect_eq,
    "check.expect_almost_eq": _expect_almost_eq,
}
