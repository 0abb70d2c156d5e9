"""The `arith` dialect as ireelab parses it: xDSL's arith with MLIR's casts and `select` on
tensors, and `arith.remf`.

MLIR applies `arith`'s casts elementwise to tensors (`arith.extsi %x : tensor<3x4xi8> to
tensor<3x4xi32>`, `arith.sitofp`, `arith.fptosi`, `arith.index_cast`, ...) and lets
`arith.select` take a tensor of conditions (`arith.select %c, %a, %b : tensor<4xi1>,
tensor<4xf32>`); IREE's e2e tests write them so and `ConvertElementwiseToLinalgPass` makes
each a `linalg.generic` over the scalar op. xDSL 0.75 accepts only scalars for these, so they
are redefined here, the casts as subclasses of xDSL's (so `isinstance(op, arith.ExtSIOp)`
keeps matching and the scalar forms parse and print as before), `select` anew, with MLIR's constraints: a scalar,
or a tensor of one, with result and operand shapes equal. xDSL registers one `arith` dialect,
so this module rebuilds `Arith` from xDSL's ops, the replacements and MLIR's scaling
conversions xDSL lacks (`arith_scaling.py`).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerAttr,
    IntegerType,
    ShapedType,
    TensorType,
    container_of,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ireelab.dialects.arith_scaling import SCALING_OPS

_INTEGER_LIKE = container_of(IntegerType)
_INDEX_OR_INTEGER_LIKE = container_of(IntegerType | IndexType)
_FLOAT_LIKE = container_of(AnyFloat)
_BOOL_LIKE = container_of(IntegerType(1))


# A subclass of an op with an assembly format inherits the parser and printer generated from
# it, and IRDL refuses a class that has both; resetting them lets the format be generated anew.
_RESET_PARSE = classmethod(Operation.parse.__func__)
_RESET_PRINT = Operation.print


def _element(type_: Attribute) -> Attribute:
    return type_.get_element_type() if isinstance(type_, ShapedType) else type_


def _same_shape(op: IRDLOperation, source: Attribute, target: Attribute) -> None:
    source_shape = source.get_shape() if isinstance(source, ShapedType) else None
    target_shape = target.get_shape() if isinstance(target, ShapedType) else None
    containers = {type(t) for t in (source, target) if isinstance(t, ShapedType)}
    if source_shape != target_shape or len(containers) > 1:
        raise VerifyException(f"'{op.name}' casts {source} to {target}: shapes differ")


def _widths(op: IRDLOperation) -> tuple[int, int]:
    source, target = op.operands[0].type, op.results[0].type
    _same_shape(op, source, target)
    return _element(source).width.data, _element(target).width.data


@irdl_op_definition
class ExtSIOp(arith.ExtSIOp):
    input = operand_def(_INTEGER_LIKE)
    result = result_def(_INTEGER_LIKE)
    parse = _RESET_PARSE
    print = _RESET_PRINT

    def verify_(self) -> None:
        source, target = _widths(self)
        if not target > source:
            raise VerifyException("Destination bit-width must be larger than the input bit-width")


@irdl_op_definition
class ExtUIOp(arith.ExtUIOp):
    input = operand_def(_INTEGER_LIKE)
    result = result_def(_INTEGER_LIKE)
    parse = _RESET_PARSE
    print = _RESET_PRINT

    def verify_(self) -> None:
        source, target = _widths(self)
        if not target > source:
            raise VerifyException("Destination bit-width must be larger than the input bit-width")


@irdl_op_definition
class TruncIOp(arith.TruncIOp):
    input = operand_def(_INTEGER_LIKE)
    result = result_def(_INTEGER_LIKE)
    parse = _RESET_PARSE
    print = _RESET_PRINT

    def verify_(self) -> None:
        source, target = _widths(self)
        if not target < source:
            raise VerifyException("Destination bit-width must be smaller than the input bit-width")


def _cast_verify(op: IRDLOperation) -> None:
    _same_shape(op, op.operands[0].type, op.results[0].type)


@irdl_op_definition
class SIToFPOp(arith.SIToFPOp):
    input = operand_def(_INTEGER_LIKE)
    result = result_def(_FLOAT_LIKE)
    parse = _RESET_PARSE
    print = _RESET_PRINT

    verify_ = _cast_verify


@irdl_op_definition
class UIToFPOp(arith.UIToFPOp):
    input = operand_def(_INTEGER_LIKE)
    result = result_def(_FLOAT_LIKE)
    parse = _RESET_PARSE
    print = _RESET_PRINT

    verify_ = _cast_verify


@irdl_op_definition
class FPToSIOp(arith.FPToSIOp):
    input = operand_def(_FLOAT_LIKE)
    result = result_def(_INTEGER_LIKE)
    parse = _RESET_PARSE
    print = _RESET_PRINT

    verify_ = _cast_verify


@irdl_op_definition
class FPToUIOp(arith.FPToUIOp):
    input = operand_def(_FLOAT_LIKE)
    result = result_def(_INTEGER_LIKE)
    parse = _RESET_PARSE
    print = _RESET_PRINT

    verify_ = _cast_verify


@irdl_op_definition
class IndexCastOp(arith.IndexCastOp):
    input = operand_def(_INDEX_OR_INTEGER_LIKE)
    result = result_def(_INDEX_OR_INTEGER_LIKE)
    parse = _RESET_PARSE
    print = _RESET_PRINT

    def verify_(self) -> None:
        _cast_verify(self)
        source, target = _element(self.input.type), _element(self.result.type)
        if not isinstance(source, IndexType) ^ isinstance(target, IndexType):
            raise VerifyException(
                f"'arith.index_cast' op operand type '{self.input.type}' and result type "
                f"'{self.result.type}' are cast incompatible"
            )


def _bool_like(type_: Attribute) -> Attribute:
    if isinstance(type_, TensorType):
        return TensorType(IntegerType(1), type_.get_shape())
    return IntegerType(1)


def _same_shape_or_scalar(op: IRDLOperation) -> None:
    if op.operands[0].type != op.operands[1].type:
        raise VerifyException(f"'{op.name}' compares values of two types")
    if op.results[0].type != _bool_like(op.operands[0].type):
        raise VerifyException(f"'{op.name}' result must be {_bool_like(op.operands[0].type)}")


def _init_comparison(op: IRDLOperation, parent: type, lhs, rhs, predicate: int | str) -> None:
    """Build `op` as `parent` would, with MLIR's result type (i1, or a tensor of i1 shaped
    like the operands); the parent's constructor resolves the predicate's mnemonic."""
    lhs, rhs = SSAValue.get(lhs), SSAValue.get(rhs)
    proto = parent(lhs, rhs, predicate)
    properties = dict(proto.properties)
    proto.erase()
    IRDLOperation.__init__(
        op, operands=[lhs, rhs], result_types=[_bool_like(lhs.type)], properties=properties
    )


@irdl_op_definition
class CmpiOp(arith.CmpiOp):
    """`arith.cmpi slt, %a, %b : tensor<4xi32>` gives a `tensor<4xi1>`."""

    predicate = prop_def(IntegerAttr)
    lhs = operand_def(_INDEX_OR_INTEGER_LIKE)
    rhs = operand_def(_INDEX_OR_INTEGER_LIKE)
    result = result_def(_BOOL_LIKE)

    traits = traits_def(Pure())

    def verify_(self) -> None:
        # Replaces the inherited verifier, which checks xDSL's i1-only result.
        _same_shape_or_scalar(self)

    def __init__(self, lhs, rhs, predicate: int | str):
        _init_comparison(self, arith.CmpiOp, lhs, rhs, predicate)


@irdl_op_definition
class CmpfOp(arith.CmpfOp):
    """`arith.cmpf olt, %a, %b : tensor<4xf32>` gives a `tensor<4xi1>`."""

    predicate = prop_def(IntegerAttr)
    lhs = operand_def(_FLOAT_LIKE)
    rhs = operand_def(_FLOAT_LIKE)
    fastmath = prop_def(arith.FastMathFlagsAttr, default_value=arith.FastMathFlagsAttr("none"))
    result = result_def(_BOOL_LIKE)

    traits = traits_def(Pure())

    def verify_(self) -> None:
        # Replaces the inherited verifier, which checks xDSL's i1-only result.
        _same_shape_or_scalar(self)

    def __init__(self, lhs, rhs, predicate: int | str, fastmath=None):
        _init_comparison(self, arith.CmpfOp, lhs, rhs, predicate)
        if fastmath is not None:
            self.properties["fastmath"] = fastmath


@irdl_op_definition
class SelectOp(IRDLOperation):
    """`arith.select %c, %a, %b : f32`, or with a tensor of conditions
    `arith.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>` (MLIR prints the condition's type
    only when it is not `i1`, which the format language cannot say)."""

    name = "arith.select"

    _T: ClassVar = VarConstraint("_T", AnyAttr())
    cond = operand_def(_BOOL_LIKE)
    lhs = operand_def(_T)
    rhs = operand_def(_T)
    result = result_def(_T)

    traits = traits_def(Pure())

    def __init__(self, cond: SSAValue, lhs: SSAValue, rhs: SSAValue):
        lhs = SSAValue.get(lhs)
        super().__init__(operands=[cond, lhs, rhs], result_types=[lhs.type])

    def verify_(self) -> None:
        if isinstance(self.cond.type, TensorType):
            _same_shape(self, self.cond.type, self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
        cond = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        first = parser.parse_type()
        if parser.parse_optional_punctuation(",") is not None:
            cond_type, value_type = first, parser.parse_type()
        else:
            cond_type, value_type = IntegerType(1), first
        op = cls(
            parser.resolve_operand(cond, cond_type),
            parser.resolve_operand(lhs, value_type),
            parser.resolve_operand(rhs, value_type),
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.cond, self.lhs, self.rhs], printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        if self.cond.type != IntegerType(1):
            printer.print_attribute(self.cond.type)
            printer.print_string(", ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class RemFOp(arith.FloatingPointLikeBinaryOperation):
    """`arith.remf`: the remainder of a division truncated toward zero, with the sign of the
    dividend (C's `fmodf`, as MLIR lowers it; ONNX's Mod with `fmod = 1`)."""

    name = "arith.remf"
    traits = traits_def(Pure())


ADDED_OPS = (RemFOp,)
"""MLIR arith ops xDSL 0.75 lacks."""

REPLACED_OPS = (
    ExtSIOp,
    ExtUIOp,
    TruncIOp,
    SIToFPOp,
    UIToFPOp,
    FPToSIOp,
    FPToUIOp,
    IndexCastOp,
    CmpiOp,
    CmpfOp,
    SelectOp,
)
_replaced = {op.name for op in REPLACED_OPS}

Arith = Dialect(
    "arith",
    [
        *(op for op in arith.Arith.operations if op.name not in _replaced),
        *REPLACED_OPS,
        *ADDED_OPS,
        *SCALING_OPS,
    ],
    [*arith.Arith.attributes],
)
