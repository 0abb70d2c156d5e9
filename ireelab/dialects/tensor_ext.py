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

from math import prod

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, ShapedType, TensorType
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


class PadOp(tensor.PadOp):
    """`tensor.pad`; a result dimension may be static where a padding amount is dynamic.

    MLIR checks each result dimension against the one inferred from the source and the
    static amounts, and a dimension the inference leaves unknown (a dynamic amount) may be
    given statically: ONNX's Pad with constant `pads` and `axes` inputs imports so, with the
    amounts computed in host code and the padded shape known. xDSL 0.75 asks for exactly as
    many dynamic result dimensions as dynamic amounts; this keeps MLIR's rule."""

    def verify_(self) -> None:
        source_shape = self.source.type.get_shape()
        lows, highs = self.static_low.get_values(), self.static_high.get_values()
        if len(lows) != len(source_shape) or len(highs) != len(source_shape):
            super().verify_()
            return
        result_shape = self.result.type.get_shape()
        for source, low, high, result in zip(source_shape, lows, highs, result_shape, strict=True):
            if DYNAMIC_INDEX in (source, low, high):
                continue  # the inferred dimension is unknown: any result size is compatible
            if result != source + low + high:
                raise VerifyException(
                    f"specified type {self.result.type} does not match the inferred type "
                    f"(dimension of size {source} padded by {low} and {high})"
                )
        if len(self.region.block.args) != len(source_shape):
            raise VerifyException(
                "region must have an arg for each dimension of the source tensor"
                f" ({len(source_shape)}) but region has ({len(self.region.block.args)})"
            )


class ReshapeOp(tensor.ReshapeOp):
    """`tensor.reshape`; the element counts must agree only where both shapes are static.

    MLIR compares the counts when source and result are both static (a `?` on either side
    is checked at run time, by the program's own shape arithmetic). xDSL 0.75 multiplies
    the sizes with each `?` as -1, so `tensor<?xf32>` to `tensor<?x?xf32>` fails and only
    some `?` reshapes pass, by the signs. This keeps MLIR's rule."""

    def verify_(self) -> None:
        source, result = self.source.type, self.result.type
        if not isinstance(source, TensorType) or not isinstance(self.shape.type, TensorType):
            raise VerifyException("tensor.reshape operands must be tensors")
        if source.element_type != result.element_type:
            raise VerifyException(
                "element types of source and result tensor types should be the same"
            )
        shape = self.shape.type.get_shape()
        if len(shape) != 1:
            raise VerifyException("shape tensor must have a rank one")
        if shape[0] != DYNAMIC_INDEX and shape[0] != len(result.get_shape()):
            raise VerifyException("length of shape operand differs from the result's tensor rank")
        sizes = (*source.get_shape(), *result.get_shape())
        if DYNAMIC_INDEX not in sizes and prod(source.get_shape()) != prod(result.get_shape()):
            raise VerifyException(
                "source and destination tensor should have the same number of elements"
            )


REPLACED_OPS: list = [ExpandShapeOp, PadOp, ReshapeOp]
"""xDSL ops ireelab redefines (same name, MLIR's verifier)."""

_replaced = {op.name for op in REPLACED_OPS}

Tensor = Dialect(
    "tensor",
    [*(op for op in tensor.Tensor.operations if op.name not in _replaced), *REPLACED_OPS],
    [*tensor.Tensor.attributes],
)
