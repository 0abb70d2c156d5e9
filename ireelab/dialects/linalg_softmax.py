"""`linalg.softmax`: softmax along one dimension, as one op.

MLIR's `linalg.softmax` is an aggregate op: IREE keeps it whole through Flow (a dispatch of its
own, named `..._softmax_<shape>` by `AnnotateDispatchesPass`) and decomposes it into a max
reduction, an exponential, a sum reduction and a division only in codegen
(`DecomposeSoftmaxPass`, `codegen/decompose_softmax.py`).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import I64, IntegerAttr, TensorType
from xdsl.ir import SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class SoftmaxOp(IRDLOperation):
    name = "linalg.softmax"

    T: ClassVar = VarConstraint("T", base(TensorType))

    input = operand_def(T)
    output = operand_def(T)
    result = result_def(T)

    dimension = prop_def(IntegerAttr[I64])
    """The dimension softmax normalises over."""

    traits = traits_def(Pure())

    assembly_format = (
        "`dimension` `(` $dimension `)` `ins` `(` $input `:` type($input) `)` "
        "`outs` `(` $output `:` type($output) `)` attr-dict `->` type($result)"
    )

    def __init__(self, input: SSAValue, output: SSAValue, dimension: int):
        super().__init__(
            operands=[input, output],
            result_types=[output.type],
            properties={"dimension": IntegerAttr(dimension, 64)},
        )

    def verify_(self) -> None:
        rank = len(self.input.type.get_shape())
        if not 0 <= self.dimension.value.data < rank:
            raise VerifyException(f"dimension {self.dimension.value.data} out of range")
