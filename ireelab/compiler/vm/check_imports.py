"""The `check` module's import signatures, as IREE declares them for the VM
(`compiler/src/iree/compiler/Modules/Check/check.imports.mlir`): the functions a test
program's `check.expect_*` ops call, implemented by `ireelab/runtime/check_module.py`."""

from __future__ import annotations

from xdsl.dialects.builtin import f32, i32
from xdsl.ir import Attribute

from ireelab.dialects import hal, vm


def _device() -> Attribute:
    return vm.RefType(hal.DeviceType())


def _view() -> Attribute:
    return vm.RefType(hal.BufferViewType())


CHECK_IMPORTS: dict[str, tuple[tuple[str, Attribute], ...]] = {
    "expect_true": (("operand", i32),),
    "expect_false": (("operand", i32),),
    "expect_all_true": (("device", _device()), ("operand", _view())),
    "expect_eq": (("device", _device()), ("lhs", _view()), ("rhs", _view())),
    "expect_almost_eq": (
        ("device", _device()), ("lhs", _view()), ("rhs", _view()), ("atol", f32), ("rtol", f32),
    ),
}  # fmt: skip
"""Import name (without `check.`) -> (argument name, VM type); none returns a value."""


def check_import_op(name: str) -> vm.ImportOp:
    """`vm.import private @check.<name>(...)` with IREE's signature."""
    args = [(arg, type_, False) for arg, type_ in CHECK_IMPORTS[name]]
    return vm.ImportOp(f"check.{name}", args, [])
