"""The `vm` dialect: IREE's virtual machine IR, what the host program becomes before bytecode.

Mirrors IREE's `compiler/src/iree/compiler/Dialect/VM/IR` (VMOps.td, VMTypes): a `vm.module`
holds globals, read-only data, imports of the `hal` module, and `vm.func`s whose values live in
typed registers: i32 (i1 and booleans too), i64, and refs (`!vm.ref<!hal.device>`,
`!vm.buffer`). The text matches what `iree-compile --compile-to=vm` prints (see
`shared/reference/iree-3.13-ir/a0_matmul_tiny.vm.mlir`), which parses here unchanged.

Most ops are declarative; the module, functions, imports, rodata, globals, calls and branches
print IREE's custom syntax, which the format language cannot say (symbol visibility keywords,
`...` variadic markers, tuple operand groups), so they carry hand-written `parse`/`print`.

One module per op family (`structure_ops`, `rodata_ops`, `global_ops`, `const_ops`,
`call_ops`, `control_flow_ops`, `arithmetic_ops`), the types in `types` and the shared format
pieces in `syntax`. This package builds the one `VM` dialect object and re-exports every op
class, the generated arithmetic ones included, so `vm.AddI32Op` and `vm.op_class("vm.add.i32")`
work as before.
"""

from __future__ import annotations

from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation

from ireelab.dialects.vm.arithmetic_ops import ARITHMETIC_OPS
from ireelab.dialects.vm.call_ops import CallOp, CallVariadicOp, CallVariadicYieldableOp
from ireelab.dialects.vm.const_ops import (
    ConstF32Op,
    ConstI32Op,
    ConstI32ZeroOp,
    ConstI64Op,
    ConstI64ZeroOp,
    ConstRefRodataOp,
    ConstRefZeroOp,
)
from ireelab.dialects.vm.control_flow_ops import (
    BranchOp,
    CondBranchOp,
    DiscardRefsOp,
    FailOp,
    ReturnOp,
)
from ireelab.dialects.vm.global_ops import (
    GlobalI32Op,
    GlobalI64Op,
    GlobalLoadI32Op,
    GlobalLoadI64Op,
    GlobalLoadRefOp,
    GlobalRefOp,
    GlobalStoreI32Op,
    GlobalStoreI64Op,
    GlobalStoreRefOp,
)
from ireelab.dialects.vm.rodata_ops import RodataInlineOp, RodataOp
from ireelab.dialects.vm.structure_ops import ExportOp, FuncOp, ImportOp, ModuleOp
from ireelab.dialects.vm.syntax import (
    parse_extra_attrs,
    parse_operand_list,
    parse_visibility,
    print_extra_attrs,
    print_types,
    print_visibility,
)
from ireelab.dialects.vm.types import BufferType, RefType, is_ref

# The arithmetic op classes are generated per IREE op name; make them `vm.<ClassName>` too.
globals().update({cls.__name__: cls for cls in ARITHMETIC_OPS})


def op_class(name: str) -> type[IRDLOperation]:
    """The class of a vm op by its IREE name (`vm.add.i64`)."""
    return _BY_NAME[name]


VM = Dialect(
    "vm",
    [
        ModuleOp,
        FuncOp,
        ExportOp,
        ImportOp,
        RodataOp,
        RodataInlineOp,
        GlobalRefOp,
        GlobalI32Op,
        GlobalI64Op,
        GlobalLoadRefOp,
        GlobalLoadI32Op,
        GlobalLoadI64Op,
        GlobalStoreRefOp,
        GlobalStoreI32Op,
        GlobalStoreI64Op,
        ConstI32Op,
        ConstI64Op,
        ConstF32Op,
        ConstI32ZeroOp,
        ConstI64ZeroOp,
        ConstRefZeroOp,
        ConstRefRodataOp,
        CallOp,
        CallVariadicOp,
        CallVariadicYieldableOp,
        ReturnOp,
        BranchOp,
        CondBranchOp,
        FailOp,
        DiscardRefsOp,
        *ARITHMETIC_OPS,
    ],
    [RefType, BufferType],
)

_BY_NAME: dict[str, type[IRDLOperation]] = {op.name: op for op in VM.operations}


__all__ = [
    "ARITHMETIC_OPS",
    "BranchOp",
    "BufferType",
    "CallOp",
    "CallVariadicOp",
    "CallVariadicYieldableOp",
    "CondBranchOp",
    "ConstF32Op",
    "ConstI32Op",
    "ConstI32ZeroOp",
    "ConstI64Op",
    "ConstI64ZeroOp",
    "ConstRefRodataOp",
    "ConstRefZeroOp",
    "DiscardRefsOp",
    "ExportOp",
    "FailOp",
    "FuncOp",
    "GlobalI32Op",
    "GlobalI64Op",
    "GlobalLoadI32Op",
    "GlobalLoadI64Op",
    "GlobalLoadRefOp",
    "GlobalRefOp",
    "GlobalStoreI32Op",
    "GlobalStoreI64Op",
    "GlobalStoreRefOp",
    "ImportOp",
    "ModuleOp",
    "RefType",
    "ReturnOp",
    "RodataInlineOp",
    "RodataOp",
    "VM",
    "is_ref",
    "op_class",
    "parse_extra_attrs",
    "parse_operand_list",
    "parse_visibility",
    "print_extra_attrs",
    "print_types",
    "print_visibility",
]

__all__ += [cls.__name__ for cls in ARITHMETIC_OPS]
