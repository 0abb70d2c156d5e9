"""OptimizeIntArithmeticPass (`iree-util-optimize-int-arithmetic`): `affine.apply` -> `arith`.

Mirrors IREE's `Dialect/Util/Transforms/OptimizeIntArithmetic.cpp`, which GlobalOptimization
runs near its start. Before its integer-range rewrites, IREE's pass expands every
`affine.apply` into `arith` ops, as MLIR's `expandAffineMap` does: importers write size
computations that way (ONNX's CenterCropPad gives a padded size as
`affine.apply affine_map<()[s0, s1] -> (s0 + s1 + 20)>()[%lo, %hi]`), and host code then holds
only `arith` on `index`, which the VM runs. ireelab models that expansion; the range analysis
(narrowing index arithmetic to i32, folding comparisons that ranges decide) is not modelled.

`mod`, `floordiv` and `ceildiv` keep affine's semantics (a `mod` is never negative, the
divisions round towards minus and plus infinity), so they expand into `remsi` / `divsi` and
a sign correction, by a positive constant only, as MLIR's expansion requires.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ireelab.diagnostics import CompileError, copy_location


class _Expansion:
    """The `arith` ops one `affine.apply` expands into, in order."""

    def __init__(self, op: affine.ApplyOp) -> None:
        self.op = op
        self.ops: list[Operation] = []

    def add(self, new: Operation) -> SSAValue:
        copy_location(self.op, new)
        self.ops.append(new)
        return new.results[0]

    def constant(self, value: int) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, IndexType())))

    def negative(self, value: SSAValue, predicate: str = "slt") -> SSAValue:
        return self.add(arith.CmpiOp(value, self.constant(0), predicate))

    def select(self, cond: SSAValue, yes: SSAValue, no: SSAValue) -> SSAValue:
        return self.add(arith.SelectOp(cond, yes, no))

    def mod(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        """`lhs mod rhs` in [0, rhs): the remainder, plus `rhs` where it is negative."""
        rem = self.add(arith.RemSIOp(lhs, rhs))
        return self.select(self.negative(rem), self.add(arith.AddiOp(rem, rhs)), rem)

    def floordiv(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        """`lhs floordiv rhs`: `-1 - (-1 - lhs) / rhs` for a negative `lhs`."""
        minus_one = self.constant(-1)
        negative = self.negative(lhs)
        flipped = self.add(arith.SubiOp(minus_one, lhs))
        quotient = self.add(arith.DivSIOp(self.select(negative, flipped, lhs), rhs))
        return self.select(negative, self.add(arith.SubiOp(minus_one, quotient)), quotient)

    def ceildiv(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        """`lhs ceildiv rhs`: `-((-lhs) / rhs)` for `lhs <= 0`, else `(lhs - 1) / rhs + 1`."""
        zero, one = self.constant(0), self.constant(1)
        not_positive = self.negative(lhs, "sle")
        negated = self.add(arith.SubiOp(zero, lhs))
        lowered = self.add(arith.SubiOp(lhs, one))
        quotient = self.add(arith.DivSIOp(self.select(not_positive, negated, lowered), rhs))
        up = self.add(arith.AddiOp(quotient, one))
        return self.select(not_positive, self.add(arith.SubiOp(zero, quotient)), up)

    def expr(self, expr: AffineExpr, dims: Sequence[SSAValue], symbols: Sequence[SSAValue]):
        if isinstance(expr, AffineConstantExpr):
            return self.constant(expr.value)
        if isinstance(expr, AffineDimExpr):
            return dims[expr.position]
        if isinstance(expr, AffineSymExpr):
            return symbols[expr.position]
        assert isinstance(expr, AffineBinaryOpExpr)
        lhs = self.expr(expr.lhs, dims, symbols)
        rhs = self.expr(expr.rhs, dims, symbols)
        if expr.kind == AffineBinaryOpKind.Add:
            return self.add(arith.AddiOp(lhs, rhs))
        if expr.kind == AffineBinaryOpKind.Mul:
            return self.add(arith.MuliOp(lhs, rhs))
        if not (isinstance(expr.rhs, AffineConstantExpr) and expr.rhs.value > 0):
            raise CompileError.at(
                self.op,
                f"'affine.apply' with '{expr}' (a divisor that is not a positive constant) "
                "cannot be expanded",
                stage="flow",
            )
        expand = {
            AffineBinaryOpKind.Mod: self.mod,
            AffineBinaryOpKind.FloorDiv: self.floordiv,
            AffineBinaryOpKind.CeilDiv: self.ceildiv,
        }[expr.kind]
        return expand(lhs, rhs)


def expand_affine_apply(op: affine.ApplyOp) -> None:
    """Replace `op` by the `arith` ops computing its one result."""
    affine_map = op.map.data
    operands = list(op.mapOperands)
    dims, symbols = operands[: affine_map.num_dims], operands[affine_map.num_dims :]
    expansion = _Expansion(op)
    value = expansion.expr(affine_map.results[0], dims, symbols)
    Rewriter.replace_op(op, expansion.ops, [value])


@dataclass(frozen=True)
class OptimizeIntArithmeticPass(ModulePass):
    name = "iree-util-optimize-int-arithmetic"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for apply in [o for o in op.walk() if isinstance(o, affine.ApplyOp)]:
            expand_affine_apply(apply)
