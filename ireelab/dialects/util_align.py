"""`util.align`: round an index up to a multiple of a power of two (IREE's `util.align`,
`Dialect/Util/IR/UtilOps.td`, "address calculation").

`LayoutSlicesPass` computes the offsets of slices sized at run time with it
(`%o = util.align %n, %c64 : index`); the VM conversion lowers it to `(v + (a - 1)) & ~(a - 1)`,
as IREE's `UtilToVM` does.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure


@irdl_op_definition
class AlignOp(IRDLOperation):
    """`%r = util.align %value, %alignment : index`: `value` rounded up to a multiple of
    `alignment` (a power of two)."""

    name = "util.align"

    T: ClassVar = VarConstraint("T", base(IndexType) | base(IntegerType))
    value = operand_def(T)
    alignment = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure())
    assembly_format = "$value `,` $alignment attr-dict `:` type($result)"

    def __init__(self, value: SSAValue, alignment: SSAValue):
        super().__init__(operands=[value, alignment], result_types=[value.type])
