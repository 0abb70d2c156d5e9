"""MLIR's `arith.scaling_extf` / `arith.scaling_truncf`: conversions of the OCP microscaling
(MX) formats, a narrow float with a power-of-two scale.

    %w = arith.scaling_extf %x, %s : f4E2M1FN, f8E8M0FNU to f32
    %n = arith.scaling_truncf %w, %s : f32, f8E8M0FNU to f4E2M1FN

`scaling_extf` is `extf(x) * extf(scale)`, `scaling_truncf` is `truncf(x / extf(scale))`, as
MLIR's `arith-expand` rewrites them (IREE's CPU backend runs that expansion before LLVM);
ireelab's kernels compute them so (`codegen/scalar_ops.py`). xDSL 0.75 has neither op. The
scale is an `f8E8M0FNU` (MLIR also accepts a 16- or 32-bit float scale and truncates it to
f8E8M0FNU first; ireelab refuses that form at codegen). Scalars only here, as the e2e tests
use them inside `linalg.generic` bodies; MLIR's elementwise tensor form does not parse.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

_FORMAT = (
    "$input `,` $scale (`fastmath` `` $fastmath^)? attr-dict `:` type($input) `,` type($scale) "
    "`to` type($out)"
)


class _ScalingOp(IRDLOperation):
    input = operand_def(AnyFloat)
    scale = operand_def(AnyFloat)
    out = result_def(AnyFloat)
    fastmath = prop_def(arith.FastMathFlagsAttr, default_value=arith.FastMathFlagsAttr("none"))

    traits = traits_def(Pure())

    def __init__(self, value, scale, result_type):
        super().__init__(operands=[value, scale], result_types=[result_type])

    def _check_widths(self, narrow, wide) -> None:
        if not narrow.bitwidth < wide.bitwidth:
            raise VerifyException(f"'{self.name}': {narrow} must be narrower than {wide}")


@irdl_op_definition
class ScalingExtFOp(_ScalingOp):
    """`arith.scaling_extf %x, %s : f4E2M1FN, f8E8M0FNU to f32`."""

    name = "arith.scaling_extf"
    assembly_format = _FORMAT

    def verify_(self) -> None:
        self._check_widths(self.input.type, self.out.type)


@irdl_op_definition
class ScalingTruncFOp(_ScalingOp):
    """`arith.scaling_truncf %x, %s : f32, f8E8M0FNU to f4E2M1FN` (to nearest even; MLIR's
    optional rounding mode does not parse)."""

    name = "arith.scaling_truncf"
    assembly_format = _FORMAT

    def verify_(self) -> None:
        self._check_widths(self.out.type, self.input.type)


SCALING_OPS = (ScalingExtFOp, ScalingTruncFOp)
