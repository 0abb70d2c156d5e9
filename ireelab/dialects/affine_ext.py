"""The `affine` dialect as ireelab parses it: xDSL's affine ops plus MLIR's index ops.

MLIR's `affine.linearize_index` and `affine.delinearize_index` (which IREE's programs use in
`iree_linalg_ext.map_load` / `map_store` regions to say how a reshape maps indices) are not in
xDSL 0.75. xDSL registers one `affine` dialect, so this module rebuilds `Affine` from xDSL's ops
and these two. Their basis is static here (MLIR also takes SSA values in it). Codegen expands
them to `arith` (`codegen/affine_expand_index_ops.py`).
"""

from __future__ import annotations

from xdsl.dialects.affine import Affine as _XAffine
from xdsl.dialects.builtin import DenseArrayBase, IndexType, UnitAttr, i64
from xdsl.ir import Dialect
from xdsl.irdl import (
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


def _check_basis(op: IRDLOperation, basis: DenseArrayBase, count: int) -> None:
    values = basis.get_values()
    if len(values) not in (count, count - 1) or any(v <= 0 for v in values):
        raise VerifyException(
            f"'{op.name}' needs {count} (or {count - 1}) positive static basis sizes"
        )


@irdl_op_definition
class LinearizeIndexOp(IRDLOperation):
    """`affine.linearize_index [disjoint] [%i, %j] by (4, 8) : index`: the row-major linear
    index of a multi-index in a basis (the outermost size may be left out)."""

    name = "affine.linearize_index"

    multi_index = var_operand_def(IndexType)
    basis = prop_def(DenseArrayBase.constr(i64))
    disjoint = opt_prop_def(UnitAttr)
    linear_index = var_result_def(IndexType)

    traits = traits_def(Pure())

    # Custom syntax: the basis is printed as `(4, 8)`, which the declarative format cannot
    # say for a dense array property.
    @classmethod
    def parse(cls, parser: Parser) -> LinearizeIndexOp:
        disjoint = parser.parse_optional_keyword("disjoint") is not None
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        parser.parse_keyword("by")
        basis = _parse_basis(parser)
        parser.parse_punctuation(":")
        parser.parse_type()
        values = [parser.resolve_operand(o, IndexType()) for o in operands]
        properties = {"basis": basis} | ({"disjoint": UnitAttr()} if disjoint else {})
        return cls(operands=[values], result_types=[[IndexType()]], properties=properties)

    def print(self, printer: Printer) -> None:
        if self.disjoint is not None:
            printer.print_string(" disjoint")
        printer.print_string(" [")
        printer.print_list(self.multi_index, printer.print_operand)
        printer.print_string("] by ")
        _print_basis(printer, self.basis)
        printer.print_string(" : index")

    def verify_(self) -> None:
        _check_basis(self, self.basis, len(self.multi_index))
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


Affine = Dialect(
    "affine",
    [*_XAffine.operations, LinearizeIndexOp, DelinearizeIndexOp],
    list(_XAffine.attributes),
)
