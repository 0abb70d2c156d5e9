"""Canonicalization of `util.unfoldable_constant` (IREE's `ExpandUnfoldableConstantOp` in
`Dialect/Util/IR/UtilOpFolders.cpp`): the constant becomes an `arith.constant` whose only
user is a `util.optimization_barrier`, so folding stops at the barrier."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from ireelab.diagnostics import copy_location
from ireelab.dialects import util


class ExpandUnfoldableConstant(RewritePattern):
    """`util.unfoldable_constant V` -> `util.optimization_barrier (arith.constant V)`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: util.UnfoldableConstantOp, rewriter: PatternRewriter) -> None:
        constant = arith.ConstantOp(op.value, op.result.type)
        barrier = util.OptimizationBarrierOp(constant.result)
        copy_location(op, constant)
        copy_location(op, barrier)
        rewriter.replace(op, [constant, barrier], barrier.results)
