"""`flow.tensor.bitcast`: the same bytes read as another element type and shape.

    %f4 = flow.tensor.bitcast %bytes : tensor<4xi8> -> tensor<8xf4E2M1FN>
    %h = flow.tensor.bitcast %x : tensor<2x3xf16> {%d} -> tensor<2x3xi16> {%d}

IREE's op (FlowOps.td `Flow_TensorBitCastOp`): the source and the result hold the same number
of bytes as the Stream stage stores them (packed for sub-byte types:
`schemas/packed_storage.py`), so an `i8` tensor of 4 elements is 8 `i4` or `f4E2M1FN` ones,
an f16 tensor is the i16 tensor of its bits. IREE clones a bitcast next to a dispatch into
it (`iree_tensor_ext.bitcast`); ireelab keeps every bitcast on the host, where
`ConvertToStreamPass` makes it a `stream.tensor.clone` of the resource (the bytes do not
change, so copy elision leaves nothing of it). Static shapes only: a `?` size is refused at
input (`input/dynamic_shapes.py`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, TensorType
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ireelab.dialects.flow_tensor_ops import TensorReshapeOp
from ireelab.schemas import packed_storage


def storage_bits(tensor_type: TensorType) -> int | None:
    """Bits a static tensor takes in a buffer (None for a `?` size or a non-numeric type)."""
    element = tensor_type.element_type
    bits = packed_storage.packed_bits(element, packed_storage.has_packed_storage(tensor_type))
    if bits is None:
        width = packed_storage.type_bits(element)
        if width is None:
            return None
        bits = (width + 7) // 8 * 8
    count = 1
    for size in tensor_type.get_shape():
        if size == DYNAMIC_INDEX:
            return None
        count *= size
    return count * bits


class BitCastBase(IRDLOperation):
    """The operands, text and checks of a bitcast, shared by `flow.tensor.bitcast` and the
    importers' `iree_tensor_ext.bitcast` (each op is its own class, so passes matching one
    do not take the other).

    Printed by hand, as `flow.tensor.reshape` is (whose parser and printer it shares): IREE
    writes each type's `?` sizes in braces right after it, which the format language cannot
    say."""

    source = operand_def(TensorType)
    source_dims = var_operand_def(IndexType)
    result_dims = var_operand_def(IndexType)
    result = result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    # The same operands and text as `flow.tensor.reshape`: its parser and printer serve (not
    # a subclass, so passes matching reshapes do not take bitcasts).
    parse = classmethod(TensorReshapeOp.parse.__func__)
    print = TensorReshapeOp.print

    def __init__(self, source, result_type, source_dims=(), result_dims=()):
        operands = [source, list(source_dims), list(result_dims)]
        super().__init__(operands=operands, result_types=[result_type])

    def verify_(self) -> None:
        source, result = storage_bits(self.source.type), storage_bits(self.result.type)
        if source is not None and result is not None and source != result:
            raise VerifyException(
                f"{self.name} changes the storage size: {self.source.type} holds "
                f"{source} bits, {self.result.type} {result}"
            )


@irdl_op_definition
class TensorBitCastOp(BitCastBase):
    """`%r = flow.tensor.bitcast %src : tensor<4xi8> -> tensor<8xf4E2M1FN>`."""

    name = "flow.tensor.bitcast"
