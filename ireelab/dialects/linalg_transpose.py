"""`linalg.transpose` of any element type, complex included.

xDSL 0.75's `TransposeOp` builds its hidden body from its operands' element types and asserts
each is a float or an integer, so a transpose of `complex<f32>` (ONNX's STFT output, as IREE's
importer writes it) cannot even be parsed. This subclass builds the same body, `linalg.yield`
of the input element, for any element type; everything else is xDSL's op.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects.builtin import MemRefType, TensorType
from xdsl.dialects.linalg import ops as _linalg
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Attribute, BlockArgument, SSAValue


def _element(value: SSAValue) -> Attribute:
    t = value.type
    return t.get_element_type() if isinstance(t, TensorType | MemRefType) else t


class TransposeOp(_linalg.TransposeOp):
    """xDSL's op definition as it is (a plain subclass: its IRDL definition is inherited)."""

    def __init__(
        self,
        input: SSAValue,
        init: SSAValue,
        permutation: Attribute,
        result: Attribute | None = None,
    ):
        if result is None:
            results = (init.type,) if isinstance(init.type, TensorType) else ()
        else:
            results = (result,)

        @Builder.implicit_region((_element(input), _element(init)))
        def hidden_region(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(args[0])

        super(_linalg.TransposeOp, self).__init__(
            operands=[(input,), (init,)],
            result_types=[results],
            properties={"permutation": permutation},
            regions=[hidden_region],
        )
