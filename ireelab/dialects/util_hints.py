"""`util`'s compiler hints that keep test programs honest: `util.unfoldable_constant` and
`util.optimization_barrier` (IREE's `Dialect/Util/IR/UtilOps.td`, "compiler hints").

A value behind an optimization barrier is opaque to folding: the canonicalizer cannot see that
it is a constant, so a program that computes on it really computes at run time. IREE's check
tests start from `util.unfoldable_constant`, which canonicalizes to an `arith.constant` behind
a barrier (`ExpandUnfoldableConstant` in ireelab's `compiler/input/util_hint_canonicalization`).
The barrier passes its operands through unchanged; it lasts until the Stream stage, after which
no ireelab pass folds host values (IREE keeps it on resources and buffers until the VM, where
it does nothing either).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import TypedAttribute
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    RangeVarConstraint,
    irdl_op_definition,
    lazy_traits_def,
    prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasCanonicalizationPatternsTrait
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class OptimizationBarrierOp(IRDLOperation):
    """`%0, %1 = util.optimization_barrier %a, %b : tensor<4xf32>, i32`: its operands, which
    no pass may look through."""

    name = "util.optimization_barrier"

    T: ClassVar = RangeVarConstraint("T", AnyAttr())
    operands_ = var_operand_def(T)
    results_ = var_result_def(T)

    traits = lazy_traits_def(lambda: (_BarrierCanonicalization(),))

    assembly_format = "attr-dict ($operands_^ `:` type($operands_))?"

    def __init__(self, *values: SSAValue | Operation):
        values_ = [SSAValue.get(v) for v in values]
        super().__init__(operands=[values_], result_types=[[v.type for v in values_]])


class _BarrierCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from ireelab.compiler.input.util_hint_canonicalization import EraseUnreadBarrier

        return (EraseUnreadBarrier(),)


class _UnfoldableConstantCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from ireelab.compiler.input.util_hint_canonicalization import (
            ExpandUnfoldableConstant,
        )

        return (ExpandUnfoldableConstant(),)


@irdl_op_definition
class UnfoldableConstantOp(IRDLOperation):
    """`%0 = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>`: a constant the compiler
    must treat as unknown."""

    name = "util.unfoldable_constant"

    value = prop_def(TypedAttribute)
    result = result_def()

    traits = lazy_traits_def(lambda: (_UnfoldableConstantCanonicalization(),))

    def __init__(self, value: TypedAttribute):
        super().__init__(properties={"value": value}, result_types=[value.get_type()])

    @classmethod
    def parse(cls, parser: Parser) -> UnfoldableConstantOp:
        # IREE's `attr-dict $value`: the result type is the typed attribute's own, which the
        # format language cannot derive.
        attrs = parser.parse_optional_attr_dict()
        pos = parser.pos
        value = parser.parse_attribute()
        if not isinstance(value, TypedAttribute):
            parser.raise_error("expected a typed constant (`dense<...> : tensor<...>`)", pos)
        op = cls(value)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" ")
        printer.print_attribute(self.value)

    def verify_(self) -> None:
        if self.value.get_type() != self.result.type:
            raise VerifyException(f"value type {self.value.get_type()} != {self.result.type}")
