"""`iree_linalg_ext.fft`: one radix-2 Cooley-Tukey stage along the innermost dimension.

Mirrors IREE's `FftOp` (`compiler/src/iree/compiler/Dialect/LinalgExt/IR/LinalgExtOps.td`).
IREE's input conversion turns an FFT (ONNX `DFT` / `STFT`, StableHLO `fft`, torch's
`fft_rfft`) into a bit-reversal permutation followed by log2(n) of these ops, stage 1 first.
The op is iterative, not recursive: it assumes the input is already in bit-reversed order.
Stage `s` merges pairs of transforms of length `m / 2` into transforms of length `m = 2^s`:

    for k in 0, m, 2m, ... < n:             # n: the innermost size, a power of two
      for j in 0 .. m/2 - 1:
        w = exp(-2 pi i j / m)              # or (real_coeff[j], imag_coeff[j]) when given
        t = w * a[k + j + m/2];  u = a[k + j]
        a[k + j] = u + t;  a[k + j + m/2] = u - t

`real` and `imag` are the destination-style `outs`, updated in place; every other dimension
is a batch dimension. The optional coefficient operands (IREE's importer passes them, with
`m / 2` entries each) hold the twiddle factors; without them the op computes them with
`cos` / `sin`. It sits in this file beside `iree_linalg_ext.py`, registered in the same
dialect, and is lowered to loops by `codegen/fft_to_loops.py`.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import AnyTensorTypeConstr, IndexType, IntegerType
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    var_result_def,
)
from xdsl.utils.exceptions import VerifyException

from ireelab.dialects.iree_linalg_ext_interface import SHAPED, LinalgExtOp, shape_of


@irdl_op_definition
class FftOp(LinalgExtOp):
    """One Cooley-Tukey stage (`stage` = log2 of the merged length) on `outs(real, imag)`,
    with optional twiddle factors `real_coeff` / `imag_coeff` (both or neither)."""

    name = "iree_linalg_ext.fft"

    stage = operand_def(IndexType | IntegerType)
    real_coeff = opt_operand_def(SHAPED)
    imag_coeff = opt_operand_def(SHAPED)
    real = operand_def(SHAPED)
    imag = operand_def(SHAPED)
    results_ = var_result_def(AnyTensorTypeConstr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "attr-dict `ins` `(` $stage (`,` $real_coeff^ `,` $imag_coeff)? `:` type($stage)"
        " (`,` type($real_coeff)^ `,` type($imag_coeff))? `)`"
        " `outs` `(` $real `,` $imag `:` type($real) `,` type($imag) `)`"
        " (`:` type($results_)^)?"
    )

    INPUTS: ClassVar[tuple[str, ...]] = ("stage", "real_coeff", "imag_coeff")
    OUTPUTS: ClassVar[tuple[str, ...]] = ("real", "imag")

    def has_coefficients(self) -> bool:
        return self.real_coeff is not None

    def length(self) -> int:
        """The innermost size: the length of the whole transform (IREE's `getFftLength`)."""
        return shape_of(self.real)[-1]

    def verify_(self) -> None:
        self._verify_results()
        if (self.real_coeff is None) != (self.imag_coeff is None):
            raise VerifyException(f"'{self.name}' takes both coefficient operands or neither")
        shape = shape_of(self.real)
        if not shape or shape_of(self.imag) != shape:
            raise VerifyException(f"'{self.name}' real and imag must have one ranked shape")
        for coefficient in (self.real_coeff, self.imag_coeff):
            if coefficient is not None and len(shape_of(coefficient)) != 1:
                raise VerifyException(f"'{self.name}' coefficients must be 1-D")
        length = shape[-1]
        # After tiling IREE's sizes may be dynamic (`?`); a static one must be a power of 2.
        if length >= 0 and length & (length - 1):
            raise VerifyException(f"'{self.name}' only powers of 2 are handled currently")
