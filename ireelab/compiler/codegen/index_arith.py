"""Index arithmetic as `arith` ops: affine expressions and constants, built in one place.

IREE expresses indices with `affine.apply` and lowers them later (`IREELowerAffinePass`,
`IREEAffineExpandIndexOpsPass`). ireelab's codegen emits the `arith` form directly, so the loop
IR the numba emitter reads holds only `arith` on `index`. `IndexBuilder` inserts ops at one
insertion point and reuses constants it made there.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
)
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.diagnostics import CompileError

_BINARY = {
    AffineBinaryOpKind.Add: arith.AddiOp,
    AffineBinaryOpKind.Mul: arith.MuliOp,
    AffineBinaryOpKind.Mod: arith.RemSIOp,
    AffineBinaryOpKind.FloorDiv: arith.FloorDivSIOp,
    AffineBinaryOpKind.CeilDiv: arith.CeilDivSIOp,
}


def _is(value: SSAValue | int, number: int) -> bool:
    return isinstance(value, int) and value == number


class IndexBuilder:
    """Inserts `arith` index computations before a fixed point (or at a block's end)."""

    def __init__(self, point: InsertPoint, constants_point: InsertPoint | None = None) -> None:
        self.point = point
        self.constants_point = constants_point or point
        self._constants: dict[int, SSAValue] = {}

    def insert(self, op: Operation) -> SSAValue | None:
        """Insert `op`; return its first result, if it has one."""
        Rewriter.insert_op(op, self.point)
        return op.results[0] if op.results else None

    def constant(self, value: int) -> SSAValue:
        if value not in self._constants:
            op = arith.ConstantOp.from_int_and_width(value, IndexType())
            Rewriter.insert_op(op, self.constants_point)
            self._constants[value] = op.result
        return self._constants[value]

    def add(self, lhs: SSAValue | int, rhs: SSAValue | int) -> SSAValue | int:
        """`lhs + rhs`, folded when both are known numbers or one is zero."""
        if isinstance(lhs, int) and isinstance(rhs, int):
            return lhs + rhs
        if _is(lhs, 0):
            return rhs
        if _is(rhs, 0):
            return lhs
        return self.insert(arith.AddiOp(self.value(lhs), self.value(rhs)))

    def mul(self, lhs: SSAValue | int, rhs: SSAValue | int) -> SSAValue | int:
        if isinstance(lhs, int) and isinstance(rhs, int):
            return lhs * rhs
        if _is(lhs, 1):
            return rhs
        if _is(rhs, 1):
            return lhs
        if _is(lhs, 0) or _is(rhs, 0):
            return 0
        return self.insert(arith.MuliOp(self.value(lhs), self.value(rhs)))

    def value(self, v: SSAValue | int) -> SSAValue:
        return self.constant(v) if isinstance(v, int) else v

    def expr(self, expr: AffineExpr, dims: Sequence[SSAValue | int]) -> SSAValue | int:
        """The value of an affine expression over `dims` (symbols are not supported)."""
        if isinstance(expr, AffineDimExpr):
            return dims[expr.position]
        if isinstance(expr, AffineConstantExpr):
            return expr.value
        if not isinstance(expr, AffineBinaryOpExpr):
            raise CompileError(
                f"affine expression '{expr}' is not supported in codegen", stage="codegen"
            )
        lhs, rhs = self.expr(expr.lhs, dims), self.expr(expr.rhs, dims)
        if expr.kind == AffineBinaryOpKind.Add:
            return self.add(lhs, rhs)
        if expr.kind == AffineBinaryOpKind.Mul:
            return self.mul(lhs, rhs)
        if isinstance(lhs, int) and isinstance(rhs, int):
            return expr.eval([], [])
        return self.insert(_BINARY[expr.kind](self.value(lhs), self.value(rhs)))
