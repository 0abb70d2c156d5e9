"""Canonicalization of util's compiler hints.

`util.unfoldable_constant` (IREE's `ExpandUnfoldableConstantOp` in
`Dialect/Util/IR/UtilOpFolders.cpp`) becomes an `arith.constant` whose only user is a
`util.optimization_barrier`, so folding stops at the barrier. A barrier none of whose results
is read holds nothing back from folding, and ireelab erases it (IREE keeps it: MLIR treats
an op without declared effects as having some); IREE's tests use one to keep a value alive
that they then do not read (`tensor_cast.mlir` casts to a dynamic shape behind one).
"""

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


class EraseUnreadBarrier(RewritePattern):
    """`util.optimization_barrier` whose results nothing reads -> nothing."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: util.OptimizationBarrierOp, rewriter: PatternRewriter) -> None:
        if any(result.uses for result in op.results_):
            return
        rewriter.erase(op)
