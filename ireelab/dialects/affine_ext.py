"""The `affine` dialect as ireelab parses it: xDSL's affine ops plus MLIR's index ops.

MLIR's `affine.linearize_index` and `affine.delinearize_index` (which IREE's programs use in
`iree_linalg_ext.map_load` / `map_store` regions to say how a reshape maps indices) are not in
xDSL 0.75. xDSL registers one `affine` dialect, so this module rebuilds `Affine` from xDSL's ops
and these two. A linearize's basis may hold SSA values, as MLIR's (`by (%n, 4)`: a collapsed
slice's offset in a `?` source, CollapseDimensionsPass); a delinearize's is static here.
Codegen expands them to `arith` (`codegen/affine_expand_index_ops.py`).
"""

from __future__ import annotations

from xdsl.dialects.affine import Affine as _XAffine
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IndexType, UnitAttr, i64
from xdsl.ir import Dialect, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


def _parse_basis(parser: Parser) -> DenseArrayBase:
    values = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_integer)
    return DenseArrayBase.from_list(i64, values)


def _print_basis(printer: Printer, basis: DenseArrayBase) -> None:
    printer.print_string("(" + ", ".join(str(v) for v in basis.get_values()) + ")")


def _parse_mixed_basis(parser: Parser) -> tuple[list[UnresolvedOperand], DenseArrayBase]:
    """`(%n, 4)`: each size a number or an SSA value (DYNAMIC_INDEX in the static list)."""
    dynamic: list[UnresolvedOperand] = []

    def one() -> int:
        if (operand := parser.parse_optional_unresolved_operand()) is not None:
            dynamic.append(operand)
            return DYNAMIC_INDEX
        return parser.parse_integer()

    values = parser.parse_comma_separated_list(parser.Delimiter.PAREN, one)
    return dynamic, DenseArrayBase.from_list(i64, values)


def _check_basis(op: IRDLOperation, basis: DenseArrayBase, count: int) -> None:
    values = basis.get_values()
    if len(values) not in (count, count - 1) or any(v <= 0 and v != DYNAMIC_INDEX for v in values):
        raise VerifyException(
            f"'{op.name}' needs {count} (or {count - 1}) positive static basis sizes"
        )


@irdl_op_definition
class LinearizeIndexOp(IRDLOperation):
    """`affine.linearize_index [disjoint] [%i, %j] by (4, 8) : index`: the row-major linear
    index of a multi-index in a basis (the outermost size may be left out)."""

    name = "affine.linearize_index"

    multi_index = var_operand_def(IndexType)
    dynamic_basis = var_operand_def(IndexType)
    basis = prop_def(DenseArrayBase.constr(i64))
    """the sizes, DYNAMIC_INDEX where `dynamic_basis` holds the size (MLIR's static_basis)"""
    disjoint = opt_prop_def(UnitAttr)
    linear_index = var_result_def(IndexType)

    traits = traits_def(Pure())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def of(
        cls, indices: list[SSAValue], basis: list[int | SSAValue], disjoint: bool = False
    ) -> LinearizeIndexOp:
        dynamic = [b for b in basis if isinstance(b, SSAValue)]
        static = [DYNAMIC_INDEX if isinstance(b, SSAValue) else b for b in basis]
        properties = {"basis": DenseArrayBase.from_list(i64, static)}
        if disjoint:
            properties["disjoint"] = UnitAttr()
        return cls(operands=[indices, dynamic], result_types=[[IndexType()]], properties=properties)

    # Custom syntax: the basis is printed as `(%n, 4)`, which the declarative format cannot
    # say for a dense array property.
    @classmethod
    def parse(cls, parser: Parser) -> LinearizeIndexOp:
        disjoint = parser.parse_optional_keyword("disjoint") is not None
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        parser.parse_keyword("by")
        dynamic, basis = _parse_mixed_basis(parser)
        parser.parse_punctuation(":")
        parser.parse_type()
        values = [parser.resolve_operand(o, IndexType()) for o in operands]
        sizes = [parser.resolve_operand(o, IndexType()) for o in dynamic]
        properties = {"basis": basis} | ({"disjoint": UnitAttr()} if disjoint else {})
        return cls(operands=[values, sizes], result_types=[[IndexType()]], properties=properties)

    def print(self, printer: Printer) -> None:
        if self.disjoint is not None:
            printer.print_string(" disjoint")
        printer.print_string(" [")
        printer.print_list(self.multi_index, printer.print_operand)
        printer.print_string("] by (")
        printer.print_list(
            mixed_basis(self),
            lambda b: (
                printer.print_string(str(b)) if isinstance(b, int) else printer.print_operand(b)
            ),
        )
        printer.print_string(") : index")

    def verify_(self) -> None:
        _check_basis(self, self.basis, len(self.multi_index))
        if list(self.basis.get_values()).count(DYNAMIC_INDEX) != len(self.dynamic_basis):
            raise VerifyException(f"'{self.name}' needs one SSA size per dynamic basis size")
        if len(self.linear_index) != 1:
            raise VerifyException(f"'{self.name}' has one result")


@irdl_op_definition
class DelinearizeIndexOp(IRDLOperation):
    """`%i:2 = affine.delinearize_index %x into (4, 8) : index, index`: the multi-index of a
    row-major linear index in a basis (the outermost size may be left out)."""

    name = "affine.delinearize_index"

    linear_index = operand_def(IndexType)
    basis = prop_def(DenseArrayBase.constr(i64))
    multi_index = var_result_def(IndexType)

    traits = traits_def(Pure())

    # Custom syntax for the same reason as `affine.linearize_index`.
    @classmethod
    def parse(cls, parser: Parser) -> DelinearizeIndexOp:
        operand: UnresolvedOperand = parser.parse_unresolved_operand()
        parser.parse_keyword("into")
        basis = _parse_basis(parser)
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        value = parser.resolve_operand(operand, IndexType())
        return cls(operands=[value], result_types=[types], properties={"basis": basis})

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.linear_index)
        printer.print_string(" into ")
        _print_basis(printer, self.basis)
        printer.print_string(" : ")
        printer.print_list((r.type for r in self.multi_index), printer.print_attribute)

    def verify_(self) -> None:
        _check_basis(self, self.basis, len(self.multi_index))


def strides(basis: list[int], count: int) -> list[int]:
    """Row-major strides of `count` indices in `basis` (aligned to the innermost size)."""
    sizes = ([0] * (count - len(basis))) + list(basis)
    result, stride = [], 1
    for size in reversed(sizes):
        result.append(stride)
        stride *= size
    return result[::-1]


def basis_of(op: LinearizeIndexOp | DelinearizeIndexOp) -> list[int]:
    return list(op.basis.get_values())


def mixed_basis(op: LinearizeIndexOp) -> list[int | SSAValue]:
    """The basis with each dynamic size's SSA value in its place."""
    dynamic = iter(op.dynamic_basis)
    return [next(dynamic) if b == DYNAMIC_INDEX else b for b in basis_of(op)]


Affine = Dialect(
    "affine",
    [*_XAffine.operations, LinearizeIndexOp, DelinearizeIndexOp],
    list(_XAffine.attributes),
)
