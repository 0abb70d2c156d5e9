"""The `tensor` dialect as ireelab parses it: xDSL's tensor with MLIR's rank-0 reshapes.

MLIR lets `tensor.expand_shape` grow a rank-0 tensor into one whose dimensions are all 1, with
an empty reassociation (`tensor.expand_shape %x [] output_shape [1, 1] : tensor<f32> into
tensor<1x1xf32>`); IREE's FoldUnitExtentDimsPass prints exactly that when a reduction's result
or a broadcast operand has only unit dimensions. xDSL 0.75's verifier asks the reassociation to
cover every expanded dimension and rejects it, so `ExpandShapeOp` is redefined here with MLIR's
rule. Passes build `tensor_ext.ExpandShapeOp`; it is a subclass of xDSL's, so
`isinstance(op, tensor.ExpandShapeOp)` keeps matching.

xDSL registers one `tensor` dialect; a second dialect of the same name cannot be loaded beside
it, so this module rebuilds `Tensor` from xDSL's ops and the replacement.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import ShapedType
from xdsl.ir import Dialect
from xdsl.utils.exceptions import VerifyException


class ExpandShapeOp(tensor.ExpandShapeOp):
    """`tensor.expand_shape`; a rank-0 source expands to any all-ones shape.

    A plain subclass: xDSL's operation definition (operands, properties, syntax) is inherited
    as it is, only the verifier changes."""

    def verify_(self) -> None:
        src, result = self.src.type, self.result.type
        assert isinstance(src, ShapedType) and isinstance(result, ShapedType)
        if src.get_shape() or self.reassociation.data:
            super().verify_()
            return
        shape = result.get_shape()
        if len(self.static_output_shape) != len(shape):
            raise VerifyException(
                f"expected number of static shape dims to be equal to the output rank "
                f"({len(shape)}) but found {len(self.static_output_shape)} inputs instead"
            )
        if any(d != 1 for d in shape):
            raise VerifyException(
                "invalid to reshape tensor/memref with non-unit extent dimensions to "
                "zero-rank tensor/memref"
            )


REPLACED_OPS: list = [ExpandShapeOp]
"""xDSL ops ireelab redefines (same name, MLIR's verifier)."""

_replaced = {op.name for op in REPLACED_OPS}

Tensor = Dialect(
    "tensor",
    [*(op for op in tensor.Tensor.operations if op.name not in _replaced), *REPLACED_OPS],
    [*tensor.Tensor.attributes],
)
