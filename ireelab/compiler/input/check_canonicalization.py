"""Canonicalization patterns of the `check` dialect's `_const` forms (IREE's
`Modules/Check/IR/CheckOps.cpp`): the expected value becomes an `arith.constant` and the op
the plain comparison, so later stages handle one op per comparison."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from ireelab.diagnostics import copy_location
from ireelab.dialects import check


class ExpandExpectEqConst(RewritePattern):
    """`expect_eq_const(%a, dense<..>)` -> `expect_eq(%a, arith.constant dense<..>)`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: check.ExpectEqConstOp, rewriter: PatternRewriter) -> None:
        constant = arith.ConstantOp(op.value, op.lhs.type)
        new = check.ExpectEqOp(op.lhs, constant.result)
        copy_location(op, constant)
        copy_location(op, new)
        rewriter.replace(op, [constant, new], [])


class ExpandExpectAlmostEqConst(RewritePattern):
    """`expect_almost_eq_const(%a, dense<..>, atol ..)` -> `expect_almost_eq` of a constant."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: check.ExpectAlmostEqConstOp, rewriter: PatternRewriter) -> None:
        constant = arith.ConstantOp(op.value, op.lhs.type)
        new = check.ExpectAlmostEqOp(op.lhs, constant.result)
        new.atol, new.rtol = op.atol, op.rtol
        copy_location(op, constant)
        copy_location(op, new)
        rewriter.replace(op, [constant, new], [])
