"""`flow.tensor.dynamic_constant` and `flow.tensor.tie_shape`: host tensors whose `?` sizes are
known only at run time (IREE's FlowOps.td).

    %c = flow.tensor.dynamic_constant dense<1.0> : tensor<4x3xf32> -> tensor<?x3xf32>
    %t = flow.tensor.tie_shape %v : tensor<?x?xi32>{%h, %w}

`dynamic_constant` is a test helper in IREE: its value has a static type, its result a
dynamic one, and IREE's canonicalizer (`ExpandDynamicShapeConstant`) rewrites it into a
constant of the static type reshaped to the dynamic type with each `?` size behind a
`util.optimization_barrier`, so no pass can learn the size and the program really runs with
runtime sizes. `tie_shape` names the SSA values holding a tensor's `?` sizes; it returns the
tensor unchanged, and the dims it names are what later passes read.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    IndexType,
    TensorType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.printer import Printer
from xdsl.traits import HasCanonicalizationPatternsTrait, Pure
from xdsl.utils.exceptions import VerifyException

from ireelab.dialects.flow_directives import (
    dynamic_dim_count,
    parse_shaped_type,
    print_op_attributes,
    print_shaped_type,
)


class _ExpandDynamicConstant(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        return (ExpandDynamicShapeConstant(),)


@irdl_op_definition
class TensorDynamicConstantOp(IRDLOperation):
    """`%c = flow.tensor.dynamic_constant dense<...> : tensor<4x3xf32> -> tensor<?x3xf32>`"""

    name = "flow.tensor.dynamic_constant"

    value = prop_def(DenseIntOrFPElementsAttr)
    result = result_def(TensorType)

    traits = traits_def(_ExpandDynamicConstant())

    def __init__(self, value: DenseIntOrFPElementsAttr, result_type: Attribute):
        super().__init__(properties={"value": value}, result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser) -> TensorDynamicConstantOp:
        attrs = parser.parse_optional_attr_dict()
        value = parser.parse_attribute()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        if not isinstance(value, DenseIntOrFPElementsAttr):
            parser.raise_error("flow.tensor.dynamic_constant expects a dense<...> value")
        op = cls(value, result_type)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        print_op_attributes(printer, self)
        printer.print_string(" ")
        printer.print_attribute(self.value)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        static = self.value.get_type()
        dynamic = self.result.type
        assert isinstance(static, TensorType) and isinstance(dynamic, TensorType)
        if static.element_type != dynamic.element_type or static.get_num_dims() != len(
            dynamic.get_shape()
        ):
            raise VerifyException(f"{dynamic} is not a dynamic form of the value's {static}")
        for s, d in zip(static.get_shape(), dynamic.get_shape(), strict=True):
            if d != DYNAMIC_INDEX and d != s:
                raise VerifyException(f"{dynamic} is not a dynamic form of the value's {static}")


class TieShapeSyntax:
    """`%t = OP %v : TYPE{%d0, ...}`, shared by `flow.tensor.tie_shape` (host tensors) and
    `flow.dispatch.tie_shape` (dispatch bindings); the op defines `operand`, `dynamic_dims`
    and `result`."""

    def __init__(self, operand: SSAValue, dynamic_dims: Sequence[SSAValue]):
        super().__init__(operands=[operand, list(dynamic_dims)], result_types=[operand.type])

    @classmethod
    def parse(cls, parser: Parser):
        operand = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ty, dims = parse_shaped_type(parser)
        op = cls(parser.resolve_operand(operand, ty), dims)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        print_shaped_type(printer, self.result.type, self.dynamic_dims)


@irdl_op_definition
class TensorTieShapeOp(TieShapeSyntax, IRDLOperation):
    """`%t = flow.tensor.tie_shape %v : tensor<?x?xi32>{%h, %w}`"""

    name = "flow.tensor.tie_shape"

    operand = operand_def(TensorType)
    dynamic_dims = var_operand_def(IndexType)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    def verify_(self) -> None:
        if self.operand.type != self.result.type:
            raise VerifyException("flow.tensor.tie_shape returns its operand's type")
        if dynamic_dim_count(self.result.type) != len(self.dynamic_dims):
            raise VerifyException(
                f"flow.tensor.tie_shape names {len(self.dynamic_dims)} dims for {self.result.type}"
            )


class ExpandDynamicShapeConstant(RewritePattern):
    """IREE's pattern of that name: the static constant, reshaped to the dynamic type with each
    `?` size an `arith.constant` behind `util.optimization_barrier`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TensorDynamicConstantOp, rewriter: PatternRewriter):
        from xdsl.dialects import arith

        from ireelab.dialects.flow_tensor_ops import TensorReshapeOp
        from ireelab.dialects.util_hints import OptimizationBarrierOp

        static = self.static_type(op)
        constant = arith.ConstantOp(op.value, static)
        new_ops = [constant]
        dims: list[SSAValue] = []
        dynamic = op.result.type
        assert isinstance(dynamic, TensorType)
        for size, want in zip(static.get_shape(), dynamic.get_shape(), strict=True):
            if want != DYNAMIC_INDEX:
                continue
            c = arith.ConstantOp.from_int_and_width(size, IndexType())
            barrier = OptimizationBarrierOp(c)
            new_ops += [c, barrier]
            dims.append(barrier.results[0])
        reshape = TensorReshapeOp(constant.result, dynamic, (), dims)
        rewriter.replace_op(op, [*new_ops, reshape], [reshape.result])

    @staticmethod
    def static_type(op: TensorDynamicConstantOp) -> TensorType:
        static = op.value.get_type()
        assert isinstance(static, TensorType)
        return static
