"""The `check` dialect: assertions a test program makes about its own results.

Mirrors IREE's `compiler/src/iree/compiler/Modules/Check/IR/CheckOps.td`. IREE's e2e tests
(`tests/e2e/**.mlir`) compute something and compare it with `check.expect_*`; the ops stay in
the host program through Flow and Stream (Stream exports their tensor operands), the HAL
stage gives them the device and buffer views (`check.expect_eq<%device>(%a, %b) :
!hal.buffer_view`), and the VM stage turns each into a call of the imported `check` module
(`vm.call @check.expect_eq(...)`), which the runtime provides
(`ireelab/runtime/check_module.py`). A failed check is recorded, not raised: the function
goes on, as IREE's gtest `ADD_FAILURE` does.

The `_const` forms are conveniences that canonicalize to `arith.constant` plus the plain
form, as in IREE.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    Float32Type,
    FloatAttr,
    IntegerType,
    TensorType,
    f32,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    BaseAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
)
from xdsl.traits import HasCanonicalizationPatternsTrait
from xdsl.utils.exceptions import VerifyException

from ireelab.dialects.hal.types import BufferViewType, DeviceType

DEFAULT_ATOL = 1.0e-4
"""IREE's default absolute tolerance for `expect_almost_eq` (`DefaultValuedAttr 1.e-4f`)."""
DEFAULT_RTOL = 0.0
"""IREE's default relative tolerance: zero, so large values compare almost exactly."""

_TENSOR_OR_VIEW = BaseAttr(TensorType) | BaseAttr(BufferViewType)


def _f32_attr(value: float | None) -> FloatAttr | None:
    return None if value is None else FloatAttr(value, f32)


def _require_float_tensor(op: Operation, type_: Attribute) -> None:
    if isinstance(type_, TensorType) and not isinstance(type_.element_type, AnyFloat):
        raise VerifyException(f"'{op.name}' compares floats, not {type_.element_type}")


def _require_integer_tensor(op: Operation, type_: Attribute) -> None:
    if isinstance(type_, TensorType) and not isinstance(type_.element_type, IntegerType):
        raise VerifyException(f"'{op.name}' takes integer elements, not {type_.element_type}")


def _require_matching_value(op: Operation, value: DenseIntOrFPElementsAttr, lhs: Attribute):
    if value.type != lhs:
        raise VerifyException(f"'{op.name}' value has type {value.type}, expected {lhs}")


@irdl_op_definition
class ExpectTrueOp(IRDLOperation):
    """`check.expect_true(%x) : i32`: a non-zero integer."""

    name = "check.expect_true"

    operand = operand_def(IntegerType)

    assembly_format = "`(` $operand `)` attr-dict `:` type($operand)"

    def __init__(self, operand: SSAValue | Operation):
        super().__init__(operands=[operand])


@irdl_op_definition
class ExpectFalseOp(IRDLOperation):
    """`check.expect_false(%x) : i32`: a zero integer."""

    name = "check.expect_false"

    operand = operand_def(IntegerType)

    assembly_format = "`(` $operand `)` attr-dict `:` type($operand)"

    def __init__(self, operand: SSAValue | Operation):
        super().__init__(operands=[operand])


@irdl_op_definition
class ExpectAllTrueOp(IRDLOperation):
    """`check.expect_all_true(%t) : tensor<2xi32>`: every element non-zero."""

    name = "check.expect_all_true"

    device = opt_operand_def(DeviceType)
    operand = operand_def(_TENSOR_OR_VIEW)

    assembly_format = "(`<` $device^ `>`)? `` `(` $operand `)` attr-dict `:` type($operand)"

    def __init__(self, operand: SSAValue | Operation, device: SSAValue | None = None):
        super().__init__(operands=[[device] if device is not None else [], operand])

    def verify_(self) -> None:
        _require_integer_tensor(self, self.operand.type)


@irdl_op_definition
class ExpectEqOp(IRDLOperation):
    """`check.expect_eq(%a, %b) : tensor<5xi32>`: same element type, shape and bytes."""

    name = "check.expect_eq"

    T: ClassVar = VarConstraint("T", _TENSOR_OR_VIEW)
    device = opt_operand_def(DeviceType)
    lhs = operand_def(T)
    rhs = operand_def(T)

    assembly_format = "(`<` $device^ `>`)? `` `(` $lhs `,` $rhs `)` attr-dict `:` type($lhs)"

    def __init__(
        self, lhs: SSAValue | Operation, rhs: SSAValue | Operation, device: SSAValue | None = None
    ):
        super().__init__(operands=[[device] if device is not None else [], lhs, rhs])


@irdl_op_definition
class ExpectEqConstOp(IRDLOperation):
    """`check.expect_eq_const(%a, dense<[1, 2]> : tensor<2xi32>) : tensor<2xi32>`."""

    name = "check.expect_eq_const"

    device = opt_operand_def(DeviceType)
    lhs = operand_def(TensorType)
    value = prop_def(DenseIntOrFPElementsAttr)

    traits = lazy_traits_def(lambda: (_ConstCanonicalization(),))

    assembly_format = "(`<` $device^ `>`)? `` `(` $lhs `,` $value `)` attr-dict `:` type($lhs)"

    def __init__(self, lhs: SSAValue | Operation, value: DenseIntOrFPElementsAttr):
        super().__init__(operands=[[], lhs], properties={"value": value})

    def verify_(self) -> None:
        _require_matching_value(self, self.value, self.lhs.type)


@irdl_op_definition
class ExpectAlmostEqOp(IRDLOperation):
    """`check.expect_almost_eq(%a, %b, atol 1.0e-2, rtol 1.0e-3) : tensor<5xf32>`:
    numpy's `isclose` per element (`rhs` is the reference), NaN equal to NaN."""

    name = "check.expect_almost_eq"

    T: ClassVar = VarConstraint("T", _TENSOR_OR_VIEW)
    device = opt_operand_def(DeviceType)
    lhs = operand_def(T)
    rhs = operand_def(T)
    atol = opt_prop_def(FloatAttr[Float32Type])
    """absolute tolerance; IREE's default (1e-4) when absent."""
    rtol = opt_prop_def(FloatAttr[Float32Type])
    """relative tolerance, scaled by |rhs|; zero when absent."""

    assembly_format = (
        "(`<` $device^ `>`)? `` `(` $lhs `,` $rhs (`,` `atol` $atol^)? (`,` `rtol` $rtol^)? `)` "
        "attr-dict `:` type($lhs)"
    )

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        atol: float | None = None,
        rtol: float | None = None,
        device: SSAValue | None = None,
    ):
        super().__init__(
            operands=[[device] if device is not None else [], lhs, rhs],
            properties={"atol": _f32_attr(atol), "rtol": _f32_attr(rtol)},
        )

    def verify_(self) -> None:
        _require_float_tensor(self, self.lhs.type)

    def tolerances(self) -> tuple[float, float]:
        """(atol, rtol), IREE's defaults filled in."""
        atol = self.atol.value.data if self.atol is not None else DEFAULT_ATOL
        rtol = self.rtol.value.data if self.rtol is not None else DEFAULT_RTOL
        return atol, rtol


@irdl_op_definition
class ExpectAlmostEqConstOp(IRDLOperation):
    """`check.expect_almost_eq_const(%a, dense<...> : tensor<5xf32>, atol 1.0e-2) : ...`."""

    name = "check.expect_almost_eq_const"

    device = opt_operand_def(DeviceType)
    lhs = operand_def(TensorType)
    value = prop_def(DenseIntOrFPElementsAttr)
    atol = opt_prop_def(FloatAttr[Float32Type])
    rtol = opt_prop_def(FloatAttr[Float32Type])

    traits = lazy_traits_def(lambda: (_ConstCanonicalization(),))

    assembly_format = (
        "(`<` $device^ `>`)? `` `(` $lhs `,` $value (`,` `atol` $atol^)? (`,` `rtol` $rtol^)? `)` "
        "attr-dict `:` type($lhs)"
    )

    def __init__(
        self,
        lhs: SSAValue | Operation,
        value: DenseIntOrFPElementsAttr,
        atol: float | None = None,
        rtol: float | None = None,
    ):
        super().__init__(
            operands=[[], lhs],
            properties={"value": value, "atol": _f32_attr(atol), "rtol": _f32_attr(rtol)},
        )

    def verify_(self) -> None:
        _require_float_tensor(self, self.lhs.type)
        _require_matching_value(self, self.value, self.lhs.type)


class _ConstCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from ireelab.compiler.input.check_canonicalization import (
            ExpandExpectAlmostEqConst,
            ExpandExpectEqConst,
        )

        return (ExpandExpectEqConst(), ExpandExpectAlmostEqConst())


Check = Dialect(
    "check",
    [
        ExpectTrueOp,
        ExpectFalseOp,
        ExpectAllTrueOp,
        ExpectEqOp,
        ExpectEqConstOp,
        ExpectAlmostEqOp,
        ExpectAlmostEqConstOp,
    ],
    [],
)
