"""The `flow.tensor.*` ops: tensors the Flow stage keeps on the host (IREE's FlowOps.td).

`flow.tensor.reshape` (a row-major reshape outside any dispatch), `flow.tensor.empty` /
`splat` (new tensors), `flow.tensor.slice` / `update` (contiguous ranges) and
`flow.tensor.load` / `store` (one element), in IREE 3.13's text, as ConvertTensorToFlowPass
writes them.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    TensorType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    Pure,
)
from xdsl.utils.exceptions import VerifyException

from ireelab.dialects.flow_directives import (
    parse_shaped_type,
    print_op_attributes,
    print_shaped_type,
)


@irdl_op_definition
class TensorReshapeOp(IRDLOperation):
    """`%r = flow.tensor.reshape %src : tensor<4x8xf32> -> tensor<32xf32>`

    A metadata-only reshape of a row-major tensor (the same bytes, another shape).
    """

    name = "flow.tensor.reshape"

    source = operand_def(TensorType)
    source_dims = var_operand_def(IndexType)
    result_dims = var_operand_def(IndexType)
    result = result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        source: SSAValue,
        result_type: Attribute,
        source_dims: Sequence[SSAValue] = (),
        result_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[source, list(source_dims), list(result_dims)], result_types=[result_type]
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorReshapeOp:
        unresolved = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        source_type, source_dims = parse_shaped_type(parser)
        parser.parse_punctuation("->")
        result_type, result_dims = parse_shaped_type(parser)
        source = parser.resolve_operand(unresolved, source_type)
        attrs = parser.parse_optional_attr_dict()
        op = cls(source, result_type, source_dims, result_dims)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" : ")
        print_shaped_type(printer, self.source.type, self.source_dims)
        printer.print_string(" -> ")
        print_shaped_type(printer, self.result.type, self.result_dims)
        print_op_attributes(printer, self)

    def verify_(self) -> None:
        src, dst = self.source.type, self.result.type
        assert isinstance(src, TensorType) and isinstance(dst, TensorType)
        if src.element_type != dst.element_type:
            raise VerifyException("flow.tensor.reshape cannot change the element type")
        if DYNAMIC_INDEX in src.get_shape() or DYNAMIC_INDEX in dst.get_shape():
            return
        if _product(src.get_shape()) != _product(dst.get_shape()):
            raise VerifyException(f"flow.tensor.reshape changes the element count: {src} -> {dst}")


def _parse_index_list(parser: Parser) -> list[SSAValue]:
    return parser.parse_comma_separated_list(
        Parser.Delimiter.NONE, lambda: parser.parse_operand(IndexType())
    )


def _print_index_list(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_list(values, printer.print_operand)


@irdl_op_definition
class TensorEmptyOp(IRDLOperation):
    """`%r = flow.tensor.empty : tensor<4x9xf32>`: a tensor whose contents are undefined.

    The host form of a `tensor.empty` that is still needed after dispatch formation (the
    destination of the copies a non-outer-dim concat became).
    """

    name = "flow.tensor.empty"

    result_dims = var_operand_def(IndexType)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(self, result_type: Attribute, result_dims: Sequence[SSAValue] = ()):
        super().__init__(operands=[list(result_dims)], result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser) -> TensorEmptyOp:
        parser.parse_punctuation(":")
        ty, dims = parse_shaped_type(parser)
        op = cls(ty, dims)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" : ")
        print_shaped_type(printer, self.result.type, self.result_dims)
        print_keyword_attributes(printer, self)


@irdl_op_definition
class TensorSplatOp(IRDLOperation):
    """`%r = flow.tensor.splat %cst : tensor<6x10xf32>`: every element is `%cst`.

    A `linalg.fill` left on the host (the padding of a `tensor.pad`) becomes this; the stream
    stage turns it into a fill command instead of a kernel.
    """

    name = "flow.tensor.splat"

    value = operand_def()
    result_dims = var_operand_def(IndexType)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(
        self, value: SSAValue, result_type: Attribute, result_dims: Sequence[SSAValue] = ()
    ):
        super().__init__(operands=[value, list(result_dims)], result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser) -> TensorSplatOp:
        unresolved = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        ty, dims = parse_shaped_type(parser)
        if not isinstance(ty, TensorType):
            parser.raise_error("flow.tensor.splat produces a tensor")
        value = parser.resolve_operand(unresolved, ty.element_type)
        op = cls(value, ty, dims)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(" : ")
        print_shaped_type(printer, self.result.type, self.result_dims)
        print_keyword_attributes(printer, self)

    def verify_(self) -> None:
        ty = self.result.type
        assert isinstance(ty, TensorType)
        if self.value.type != ty.element_type:
            raise VerifyException("flow.tensor.splat value must have the element type")


@irdl_op_definition
class TensorSliceOp(IRDLOperation):
    """`%r = flow.tensor.slice %src[%o0, %o1 for %l0, %l1] : tensor<8x16xf32> -> tensor<2x16xf32>`

    Copies a contiguous range of the source (IREE only emits it when the offsets and lengths
    select one row-major run of elements), so the stream stage can do it with one copy.
    """

    name = "flow.tensor.slice"

    source = operand_def(TensorType)
    source_dims = var_operand_def(IndexType)
    start_indices = var_operand_def(IndexType)
    lengths = var_operand_def(IndexType)
    result_dims = var_operand_def(IndexType)
    result = result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        source: SSAValue,
        start_indices: Sequence[SSAValue],
        lengths: Sequence[SSAValue],
        result_type: Attribute,
        source_dims: Sequence[SSAValue] = (),
        result_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[
                source,
                list(source_dims),
                list(start_indices),
                list(lengths),
                list(result_dims),
            ],
            result_types=[result_type],
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorSliceOp:
        unresolved = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        starts = _parse_index_list(parser)
        parser.parse_keyword("for")
        lengths = _parse_index_list(parser)
        parser.parse_punctuation("]")
        parser.parse_punctuation(":")
        source_type, source_dims = parse_shaped_type(parser)
        parser.parse_punctuation("->")
        result_type, result_dims = parse_shaped_type(parser)
        source = parser.resolve_operand(unresolved, source_type)
        op = cls(source, starts, lengths, result_type, source_dims, result_dims)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string("[")
        _print_index_list(printer, self.start_indices)
        printer.print_string(" for ")
        _print_index_list(printer, self.lengths)
        printer.print_string("] : ")
        print_shaped_type(printer, self.source.type, self.source_dims)
        printer.print_string(" -> ")
        print_shaped_type(printer, self.result.type, self.result_dims)
        print_keyword_attributes(printer, self)

    def verify_(self) -> None:
        rank = len(self.source.type.get_shape())
        if len(self.start_indices) != rank or len(self.lengths) != rank:
            raise VerifyException("flow.tensor.slice needs one start and length per dimension")


@irdl_op_definition
class TensorUpdateOp(IRDLOperation):
    """`%r = flow.tensor.update %upd, %target[%o0, %o1] : tensor<2x16xf32> -> %target as tensor<8x16xf32>`

    Writes `%upd` into `%target` at the start indices; the result is tied to the target (the
    same storage, updated in place when nothing else reads the old contents).
    """

    name = "flow.tensor.update"

    target = operand_def(TensorType)
    target_dims = var_operand_def(IndexType)
    start_indices = var_operand_def(IndexType)
    update = operand_def(TensorType)
    update_dims = var_operand_def(IndexType)
    result = result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        target: SSAValue,
        start_indices: Sequence[SSAValue],
        update: SSAValue,
        target_dims: Sequence[SSAValue] = (),
        update_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[target, list(target_dims), list(start_indices), update, list(update_dims)],
            result_types=[target.type],
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorUpdateOp:
        update = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        starts = _parse_index_list(parser)
        parser.parse_punctuation("]")
        parser.parse_punctuation(":")
        update_type, update_dims = parse_shaped_type(parser)
        parser.parse_punctuation("->")
        parser.parse_unresolved_operand()
        parser.parse_keyword("as")
        target_type, target_dims = parse_shaped_type(parser)
        op = cls(
            parser.resolve_operand(target, target_type),
            starts,
            parser.resolve_operand(update, update_type),
            target_dims,
            update_dims,
        )
        attrs = parser.parse_optional_attr_dict_with_keyword()
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.update)
        printer.print_string(", ")
        printer.print_operand(self.target)
        printer.print_string("[")
        _print_index_list(printer, self.start_indices)
        printer.print_string("] : ")
        print_shaped_type(printer, self.update.type, self.update_dims)
        printer.print_string(" -> ")
        printer.print_operand(self.target)
        printer.print_string(" as ")
        print_shaped_type(printer, self.result.type, self.target_dims)
        print_keyword_attributes(printer, self)

    def verify_(self) -> None:
        if len(self.start_indices) != len(self.target.type.get_shape()):
            raise VerifyException("flow.tensor.update needs one start index per dimension")


def _parse_optional_indices(parser: Parser) -> list[SSAValue]:
    """`[%i, %j]` after a tensor operand, absent for a rank-0 tensor (IREE's `($indices^)?`)."""
    if parser.parse_optional_punctuation("[") is None:
        return []
    indices = _parse_index_list(parser)
    parser.parse_punctuation("]")
    return indices


def _print_optional_indices(printer: Printer, indices: Sequence[SSAValue]) -> None:
    if indices:
        printer.print_string("[")
        _print_index_list(printer, indices)
        printer.print_string("]")


def _parse_keyword_attributes(parser: Parser, op: IRDLOperation) -> None:
    attrs = parser.parse_optional_attr_dict_with_keyword()
    if attrs is not None:
        op.attributes.update(attrs.data)


def _verify_element_access(op_name: str, tensor_type: Attribute, indices: Sequence[SSAValue]):
    if not isinstance(tensor_type, TensorType):
        raise VerifyException(f"{op_name} needs a tensor")
    if len(indices) != len(tensor_type.get_shape()):
        raise VerifyException(f"{op_name} needs one index per dimension")


@irdl_op_definition
class TensorLoadOp(IRDLOperation):
    """`%v = flow.tensor.load %t[%c1, %c2] : tensor<4x6xf32>`: one element of a tensor.

    ConvertTensorToFlowPass turns a `tensor.extract` left on the host into this; the stream
    stage reads the element back from the device buffer (a transfer to a staging resource and
    a host load, as IREE does).
    """

    name = "flow.tensor.load"

    source = operand_def(TensorType)
    source_dims = var_operand_def(IndexType)
    indices = var_operand_def(IndexType)
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        source: SSAValue,
        indices: Sequence[SSAValue] = (),
        source_dims: Sequence[SSAValue] = (),
    ):
        source_type = source.type
        assert isinstance(source_type, TensorType)
        super().__init__(
            operands=[source, list(source_dims), list(indices)],
            result_types=[source_type.element_type],
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorLoadOp:
        unresolved = parser.parse_unresolved_operand()
        indices = _parse_optional_indices(parser)
        parser.parse_punctuation(":")
        ty, dims = parse_shaped_type(parser)
        if not isinstance(ty, TensorType):
            parser.raise_error("flow.tensor.load reads from a tensor")
        op = cls(parser.resolve_operand(unresolved, ty), indices, dims)
        _parse_keyword_attributes(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        _print_optional_indices(printer, self.indices)
        printer.print_string(" : ")
        print_shaped_type(printer, self.source.type, self.source_dims)
        print_keyword_attributes(printer, self)

    def verify_(self) -> None:
        _verify_element_access(self.name, self.source.type, self.indices)
        if self.result.type != self.source.type.element_type:
            raise VerifyException("flow.tensor.load returns the element type of its source")


@irdl_op_definition
class TensorStoreOp(IRDLOperation):
    """`%r = flow.tensor.store %v, %t[%c1, %c2] : tensor<4x6xf32>`: `%t` with one element set.

    The host form of `tensor.insert`; like `flow.tensor.update`, the stream stage writes the
    element in place into the target's storage when nothing else reads the old contents.
    """

    name = "flow.tensor.store"

    value = operand_def()
    target = operand_def(TensorType)
    target_dims = var_operand_def(IndexType)
    indices = var_operand_def(IndexType)
    result = result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        value: SSAValue,
        target: SSAValue,
        indices: Sequence[SSAValue] = (),
        target_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[value, target, list(target_dims), list(indices)],
            result_types=[target.type],
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorStoreOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        indices = _parse_optional_indices(parser)
        parser.parse_punctuation(":")
        ty, dims = parse_shaped_type(parser)
        if not isinstance(ty, TensorType):
            parser.raise_error("flow.tensor.store writes into a tensor")
        op = cls(
            parser.resolve_operand(value, ty.element_type),
            parser.resolve_operand(target, ty),
            indices,
            dims,
        )
        _parse_keyword_attributes(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        printer.print_operand(self.target)
        _print_optional_indices(printer, self.indices)
        printer.print_string(" : ")
        print_shaped_type(printer, self.target.type, self.target_dims)
        print_keyword_attributes(printer, self)

    def verify_(self) -> None:
        _verify_element_access(self.name, self.target.type, self.indices)
        if self.value.type != self.target.type.element_type:
            raise VerifyException("flow.tensor.store stores the element type of its target")


def print_keyword_attributes(printer: Printer, op: IRDLOperation) -> None:
    if op.attributes:
        printer.print_string(" attributes ")
        printer.print_attr_dict(op.attributes)


def _product(shape: Sequence[int]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n
