"""What every `iree_linalg_ext` op answers: IREE's `LinalgExtInterface` in small.

Mirrors the op interface of IREE's `compiler/src/iree/compiler/Dialect/LinalgExt/IR/
LinalgExtInterfaces.td`: an op's DPS inputs and inits and its largest tensor (which IREE's
dispatch naming and cost model use). The op families (`iree_linalg_ext.py`,
`iree_linalg_ext_fft.py`) build on it; bufferization, dispatch formation and codegen ask
`isinstance(op, LinalgExtOp)`.
"""

from __future__ import annotations

import sys
from typing import ClassVar

from xdsl.dialects.builtin import MemRefType, ShapedType, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.utils.exceptions import VerifyException

SHAPED = TensorType.constr() | MemRefType.constr()
"""A tensor or a buffer: every op works on either (before and after bufferization)."""


class LinalgExtOp(IRDLOperation):
    """What every `iree_linalg_ext` op answers (IREE's `LinalgExtInterface` in small)."""

    INPUTS: ClassVar[tuple[str, ...]] = ()
    """The operand fields that are DPS inputs, in operand order (absent optionals skipped)."""
    OUTPUTS: ClassVar[tuple[str, ...]] = ()
    """The operand fields that are DPS inits (`outs`), in operand order."""

    @property
    def inputs(self) -> list[SSAValue]:
        return present(self, self.INPUTS)

    @property
    def outputs(self) -> list[SSAValue]:
        return present(self, self.OUTPUTS)

    def main_tensor(self) -> ShapedType | None:
        """The largest shaped type among operands and results, the first on ties (IREE's
        `getMainTensorForLinalgExtOp`)."""
        main: ShapedType | None = None
        for value in (*self.operands, *self.results):
            shaped = value.type
            if not isinstance(shaped, ShapedType):
                continue
            if main is None or elements(shaped) > elements(main):
                main = shaped
        return main

    def _verify_results(self) -> None:
        """On tensors the results are the `outs`' types; on buffers there are none."""
        tensors = [v.type for v in self.outputs if isinstance(v.type, TensorType)]
        if [r.type for r in self.results] != tensors:
            raise VerifyException(f"'{self.name}' results must have the types of its outs")

    def _dimension_in_range(self, rank: int) -> None:
        dimension = self.dimension.value.data
        if not 0 <= dimension < rank:
            raise VerifyException(f"'{self.name}' dimension {dimension} is out of rank {rank}")


def present(op: Operation, fields: tuple[str, ...]) -> list[SSAValue]:
    values: list[SSAValue] = []
    for field in fields:
        value = getattr(op, field)
        if isinstance(value, SSAValue):
            values.append(value)
        elif value is not None:
            values.extend(value)
    return values


def elements(shaped: ShapedType) -> int:
    """IREE's `costOfDomain`: the element count, the largest possible when a size is `?`."""
    count = 1
    for size in shaped.get_shape():
        if size < 0:
            return sys.maxsize
        count *= max(size, 1)
    return count


def shape_of(value: SSAValue) -> tuple[int, ...]:
    shaped = value.type
    assert isinstance(shaped, ShapedType)
    return tuple(shaped.get_shape())
