"""The `iree_encoding` dialect: tensor encodings of IREE's data tiling.

Mirrors IREE's `compiler/src/iree/compiler/Dialect/Encoding/IR`: with `--iree-opt-data-tiling`,
`SetEncodingPass` gives each operand of a contraction a tensor type that says how it will be
used (`#iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types =
[...], user_indexing_maps = [...], iteration_sizes = [...]>`), without choosing a layout yet;
the target later materialises it into a packed layout (`linalg.pack` / `mmt4d` / `unpack`).

- `iree_encoding.set_encoding %t : tensor<MxK> -> tensor<MxK, #enc>`: the value, now encoded;
- `iree_encoding.unset_encoding %r : tensor<MxN, #enc> -> tensor<MxN>`: back to a plain tensor.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import Pure

OPERAND_NAMES = ("LHS", "RHS", "RESULT")
"""IREE's `stringifyOperandIndex` of a matmul's operands (dispatch names `set_encoding_LHS_...`)."""


@irdl_attr_definition
class EncodingAttr(ParametrizedAttribute):
    """`#iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, ...>`."""

    name = "iree_encoding.encoding"

    operand_index: IntegerAttr
    """Which operand of the user op the tensor is (0 lhs, 1 rhs, 2 result)."""
    op_type: StringAttr
    """The kind of user op (`matmul`)."""
    element_types: ArrayAttr
    """Element types of all the user op's operands."""
    user_indexing_maps: ArrayAttr
    """The user op's indexing maps."""
    iteration_sizes: ArrayAttr
    """The user op's loop sizes."""

    def __init__(
        self,
        operand_index: int,
        element_types: list[Attribute],
        maps: list[AffineMapAttr],
        iteration_sizes: list[int],
    ):
        super().__init__(
            IntegerAttr(operand_index, IndexType()),
            StringAttr("matmul"),
            ArrayAttr(element_types),
            ArrayAttr(maps),
            ArrayAttr([IntegerAttr(s, 64) for s in iteration_sizes]),
        )

    @property
    def index(self) -> int:
        return self.operand_index.value.data

    def sizes(self) -> list[int]:
        return [s.value.data for s in self.iteration_sizes.data]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        # key = value pairs with a bare keyword and integer lists: beyond the format language
        with parser.in_angle_brackets():
            parser.parse_characters("operand_index")
            parser.parse_punctuation("=")
            index = parser.parse_attribute()
            parser.parse_punctuation(",")
            parser.parse_characters("op_type")
            parser.parse_punctuation("=")
            op_type = StringAttr(parser.parse_identifier())
            parser.parse_punctuation(",")
            parser.parse_characters("element_types")
            parser.parse_punctuation("=")
            types = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_type)
            parser.parse_punctuation(",")
            parser.parse_characters("user_indexing_maps")
            parser.parse_punctuation("=")
            maps = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, parser.parse_attribute
            )
            parser.parse_punctuation(",")
            parser.parse_characters("iteration_sizes")
            parser.parse_punctuation("=")
            sizes = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
        return (
            index,
            op_type,
            ArrayAttr(types),
            ArrayAttr(maps),
            ArrayAttr([IntegerAttr(s, 64) for s in sizes]),
        )

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<operand_index = ")
        printer.print_attribute(self.operand_index)
        printer.print_string(f", op_type = {self.op_type.data}, element_types = [")
        printer.print_list(self.element_types.data, printer.print_attribute)
        printer.print_string("], user_indexing_maps = [")
        printer.print_list(self.user_indexing_maps.data, printer.print_attribute)
        printer.print_string("], iteration_sizes = [")
        printer.print_list(self.sizes(), lambda s: printer.print_string(str(s)))
        printer.print_string("]>")


def encoding_of(value_type: Attribute) -> EncodingAttr | None:
    if isinstance(value_type, TensorType) and isinstance(value_type.encoding, EncodingAttr):
        return value_type.encoding
    return None


class _EncodingChangeOp(IRDLOperation):
    """The same tensor with another encoding (set or unset)."""

    source = operand_def(TensorType)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    assembly_format = "$source attr-dict `:` type($source) `->` type($result)"

    def __init__(self, source, result_type: TensorType):
        super().__init__(operands=[source], result_types=[result_type])


@irdl_op_definition
class SetEncodingOp(_EncodingChangeOp):
    name = "iree_encoding.set_encoding"


@irdl_op_definition
class UnsetEncodingOp(_EncodingChangeOp):
    name = "iree_encoding.unset_encoding"


@irdl_attr_definition
class PackedStorageAttr(ParametrizedAttribute):
    """`#iree_encoding.packed_storage`: on an `i1` tensor, its elements are stored packed,
    eight to a byte, the first in the low bit (`schemas/packed_storage.py`); without it IREE
    stores a byte per `i1`."""

    name = "iree_encoding.packed_storage"


IREEEncoding = Dialect(
    "iree_encoding", [SetEncodingOp, UnsetEncodingOp], [EncodingAttr, PackedStorageAttr]
)
