"""Index arithmetic built on the host, constants folded as they are combined.

What MLIR's `affine.apply` folding and the canonicalizer leave of offset and size arithmetic
(`%i * 16 + 0` is `%i * 16`, `4 * 1` is `4`): passes that compute a position or an extent
from constants and SSA values (a slice's byte offset in EncodeHostTensorsPass, a collapsed
slice's offset in CollapseDimensionsPass) combine them here, and only what is not constant
becomes an `arith.addi` / `arith.muli` right before the op that needs it.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

Index = SSAValue | int
"""A constant or the SSA value of an index computed on the host."""


class IndexMath:
    """`arith.addi` / `arith.muli` on index values before one op, constants folded."""

    def __init__(self, before: Operation, constant: Callable[[int], SSAValue] | None = None):
        self.before = before
        self.constant = constant or self._new_constant
        """how a constant operand is made (a hoisted one, or a new `arith.constant`)."""

    def value(self, x: Index) -> SSAValue:
        return self.constant(x) if isinstance(x, int) else x

    def mul(self, a: Index, b: Index) -> Index:
        if isinstance(a, int) and isinstance(b, int):
            return a * b
        if a == 0 or b == 0:
            return 0
        if a == 1 or b == 1:
            return b if a == 1 else a
        return self._emit(arith.MuliOp(self.value(a), self.value(b)))

    def add(self, a: Index, b: Index) -> Index:
        if isinstance(a, int) and isinstance(b, int):
            return a + b
        if a == 0 or b == 0:
            return b if a == 0 else a
        return self._emit(arith.AddiOp(self.value(a), self.value(b)))

    def _new_constant(self, n: int) -> SSAValue:
        op = arith.ConstantOp(IntegerAttr(n, IndexType()))
        op.result.name_hint = f"c{n}"
        return self._emit(op)

    def _emit(self, op: Operation) -> SSAValue:
        Rewriter.insert_op(op, InsertPoint.before(self.before))
        return op.results[0]
