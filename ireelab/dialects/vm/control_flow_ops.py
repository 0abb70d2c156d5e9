"""Control flow: `vm.return`, `vm.br`, `vm.cond_br`, `vm.fail` and `vm.discard.refs`.

Mirrors IREE's control-flow ops (`Dialect/VM/IR/VMOps.td`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import StringAttr, i32
from xdsl.ir import Block, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    successor_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator

from ireelab.dialects.vm.syntax import print_types


@irdl_op_definition
class ReturnOp(IRDLOperation):
    name = "vm.return"
    operands_ = var_operand_def()
    traits = traits_def(IsTerminator())
    assembly_format = "attr-dict ($operands_^ `:` type($operands_))?"

    def __init__(self, values: Sequence[SSAValue] = ()):
        super().__init__(operands=[values])


def _print_dest(printer: Printer, block: Block, args: Sequence[SSAValue]) -> None:
    printer.print_block_name(block)
    if args:
        printer.print_string("(")
        printer.print_list(args, printer.print_operand)
        printer.print_string(" : ")
        print_types(printer, [a.type for a in args])
        printer.print_string(")")


def _parse_dest(parser: Parser) -> tuple[Block, list[SSAValue]]:
    block = parser.parse_successor()
    if parser.parse_optional_punctuation("(") is None:
        return block, []
    operands = parser.parse_comma_separated_list(
        Parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return block, parser.resolve_operands(operands, types, parser.pos)


@irdl_op_definition
class BranchOp(IRDLOperation):
    """`vm.br ^bb1(%a, %b : i64, i64)`."""

    name = "vm.br"
    dest_operands = var_operand_def()
    dest = successor_def()
    traits = traits_def(IsTerminator())

    def __init__(self, dest: Block, args: Sequence[SSAValue] = ()):
        super().__init__(operands=[args], successors=[dest])

    @classmethod
    def parse(cls, parser: Parser) -> BranchOp:
        return cls(*_parse_dest(parser))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_dest(printer, self.dest, self.dest_operands)


@irdl_op_definition
class CondBranchOp(IRDLOperation):
    """`vm.cond_br %c, ^bb3, ^bb4(%zero : i32)`: branch on a nonzero i32."""

    name = "vm.cond_br"
    condition = operand_def(i32)
    true_operands = var_operand_def()
    false_operands = var_operand_def()
    true_dest = successor_def()
    false_dest = successor_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(IsTerminator())

    def __init__(
        self,
        condition: SSAValue,
        true_dest: Block,
        true_args: Sequence[SSAValue],
        false_dest: Block,
        false_args: Sequence[SSAValue],
    ):
        super().__init__(
            operands=[condition, true_args, false_args], successors=[true_dest, false_dest]
        )

    @classmethod
    def parse(cls, parser: Parser) -> CondBranchOp:
        condition = parser.resolve_operand(parser.parse_unresolved_operand(), i32)
        parser.parse_punctuation(",")
        true_dest, true_args = _parse_dest(parser)
        parser.parse_punctuation(",")
        false_dest, false_args = _parse_dest(parser)
        return cls(condition, true_dest, true_args, false_dest, false_args)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.condition)
        printer.print_string(", ")
        _print_dest(printer, self.true_dest, self.true_operands)
        printer.print_string(", ")
        _print_dest(printer, self.false_dest, self.false_operands)


@irdl_op_definition
class FailOp(IRDLOperation):
    """`vm.fail %status, "message"`: end the invocation with a status code and message."""

    name = "vm.fail"
    status = operand_def(i32)
    message = prop_def(StringAttr)
    traits = traits_def(IsTerminator())
    assembly_format = "$status `,` $message attr-dict"

    def __init__(self, status: SSAValue, message: str):
        super().__init__(operands=[status], properties={"message": StringAttr(message)})


@irdl_op_definition
class DiscardRefsOp(IRDLOperation):
    """`vm.discard.refs %a, %b : T1, T2`: release refs early (IREE inserts these at last use)."""

    name = "vm.discard.refs"
    refs = var_operand_def()
    assembly_format = "$refs attr-dict `:` type($refs)"

    def __init__(self, refs: Sequence[SSAValue]):
        super().__init__(operands=[refs])
