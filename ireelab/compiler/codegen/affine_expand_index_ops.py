"""`AffineExpandIndexOpsPass` (`affine-expand-index-ops`): (de)linearize_index -> `arith`.

MLIR's pass of this name (IREE runs it in its CPU codegen pipeline as part of lowering affine
index arithmetic) rewrites `affine.linearize_index` into multiplies and adds by the basis'
strides and `affine.delinearize_index` into divisions and remainders, so the numba emitter
sees only `arith` on `index`. Indices are in bounds here (the ops are `disjoint` or come from
loop counters), so unsigned division is exact.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from ireelab.dialects.affine_ext import (
    DelinearizeIndexOp,
    LinearizeIndexOp,
    basis_of,
    mixed_basis,
    strides,
)


class _Ops(list):
    """The `arith` ops an expansion makes, in order (they replace the matched op)."""

    def add(self, op: Operation) -> SSAValue:
        self.append(op)
        return op.results[0]

    def constant(self, value: int) -> SSAValue:
        return self.add(arith.ConstantOp.from_int_and_width(value, IndexType()))


class ExpandLinearizeIndex(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: LinearizeIndexOp, rewriter: PatternRewriter) -> None:
        ops = _Ops()
        total: SSAValue | None = None
        for index, stride in zip(op.multi_index, _strides(op, ops), strict=True):
            if isinstance(stride, int):
                stride = None if stride == 1 else ops.constant(stride)
            term = index if stride is None else ops.add(arith.MuliOp(index, stride))
            total = term if total is None else ops.add(arith.AddiOp(total, term))
        rewriter.replace(op, ops, [total if total is not None else ops.constant(0)])


def _strides(op: LinearizeIndexOp, ops: _Ops) -> list[int | SSAValue]:
    """Row-major strides of the multi-index: the product of the inner sizes, multiplied
    out with `arith.muli` where a size is an SSA value (the outermost size is not needed)."""
    count = len(op.multi_index)
    basis = mixed_basis(op)
    if all(isinstance(b, int) for b in basis):
        return list(strides(basis_of(op), count))
    sizes = basis[len(basis) - count + 1 :] if count > 1 else []
    result: list[int | SSAValue] = [1]
    for size in reversed(sizes):
        inner = result[0]
        if isinstance(inner, int) and isinstance(size, int):
            result.insert(0, inner * size)
            continue
        left = ops.constant(inner) if isinstance(inner, int) else inner
        right = ops.constant(size) if isinstance(size, int) else size
        result.insert(0, ops.add(arith.MuliOp(left, right)))
    return result


class ExpandDelinearizeIndex(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DelinearizeIndexOp, rewriter: PatternRewriter) -> None:
        ops = _Ops()
        count = len(op.multi_index)
        basis = basis_of(op)
        sizes = ([None] * (count - len(basis))) + basis
        results = []
        for position, stride in enumerate(strides(basis, count)):
            value = op.linear_index
            if stride != 1:
                value = ops.add(arith.DivUIOp(value, ops.constant(stride)))
            if position > 0 and sizes[position] is not None:
                value = ops.add(arith.RemUIOp(value, ops.constant(sizes[position])))
            results.append(value)
        rewriter.replace(op, ops, results)


@dataclass(frozen=True)
class AffineExpandIndexOpsPass(ModulePass):
    """Expand every `affine.linearize_index` / `affine.delinearize_index` into `arith`."""

    name = "affine-expand-index-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = GreedyRewritePatternApplier([ExpandLinearizeIndex(), ExpandDelinearizeIndex()])
        PatternRewriteWalker(patterns).rewrite_module(op)
