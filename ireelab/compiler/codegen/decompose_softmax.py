"""`DecomposeSoftmaxPass` (`iree-codegen-decompose-softmax`): `linalg.softmax` -> generics.

IREE keeps `linalg.softmax` whole through Flow, so it forms one dispatch, and decomposes it at
the start of codegen, right after the executable sources are materialised. The decomposition is
MLIR's (`SoftmaxOp::decomposeOperation`), softmax made numerically safe:

    max = reduce(maximumf, x)          over `dimension`, starting from -inf
    e   = exp(x - broadcast(max))
    sum = reduce(addf, e)              starting from 0
    out = e / broadcast(sum)

four generics and two fills in the dispatch, which the rest of codegen tiles like any
hand-written softmax (rows distributed; each row's reductions vectorised).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, math, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FloatAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.ir import Attribute, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from ireelab.compiler.flow.structured import make_generic
from ireelab.compiler.util.dynamic_dims import find_dynamic_dims
from ireelab.diagnostics import copy_location
from ireelab.dialects.linalg_softmax import SoftmaxOp


def _region(arg_types: list[Attribute], combine) -> Region:
    @Builder.implicit_region(arg_types)
    def body(args: tuple[BlockArgument, ...]) -> None:
        linalg_ops.YieldOp(combine(*args))

    return body


def _maximum(x: SSAValue, acc: SSAValue) -> SSAValue:
    return arith.MaximumfOp(x, acc).result


def _add(x: SSAValue, acc: SSAValue) -> SSAValue:
    return arith.AddfOp(x, acc).result


def _exp_of_difference(x: SSAValue, row_max: SSAValue, _out: SSAValue) -> SSAValue:
    return math.ExpOp(arith.SubfOp(x, row_max)).result


def _quotient(e: SSAValue, row_sum: SSAValue, _out: SSAValue) -> SSAValue:
    return arith.DivfOp(e, row_sum).result


def _reduced_sizes(op: SoftmaxOp, dim: int, made: list[Operation]) -> list[SSAValue]:
    """The `?` sizes of the row statistics: the output's, less the softmax dimension's (a
    `tensor.dim` of the input where the output's producer does not hold them)."""
    shape = op.output.type.get_shape()
    known = find_dynamic_dims(op.output)
    sizes: list[SSAValue] = []
    for d, size in enumerate(shape):
        if size != DYNAMIC_INDEX:
            continue
        if known is not None:
            value = known[sum(1 for s in shape[:d] if s == DYNAMIC_INDEX)]
        else:
            index = arith.ConstantOp(IntegerAttr(d, IndexType()))
            dim_op = tensor.DimOp(op.input, index.result)
            made.extend([index, dim_op])
            value = dim_op.result
        if d != dim:
            sizes.append(value)
    return sizes


class DecomposeSoftmax(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SoftmaxOp, rewriter: PatternRewriter) -> None:
        out_type = op.output.type
        assert isinstance(out_type, TensorType)
        element = out_type.element_type
        rank = len(out_type.get_shape())
        dim = op.dimension.value.data
        full = AffineMap.identity(rank)
        reduced = AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in range(rank) if d != dim))
        reduced_type = TensorType(
            element, [s for d, s in enumerate(out_type.get_shape()) if d != dim]
        )
        parallel = ["parallel"] * rank
        reducing = ["reduction" if d == dim else "parallel" for d in range(rank)]
        made: list[Operation] = []

        sizes = _reduced_sizes(op, dim, made)

        def fill(value: float) -> SSAValue:
            empty = tensor.EmptyOp(sizes, reduced_type)
            constant = arith.ConstantOp(FloatAttr(value, element))
            filled = linalg_ops.FillOp([constant.result], [empty.tensor], [reduced_type])
            made.extend([empty, constant, filled])
            return filled.results[0]

        def generic(ins, out, maps, iterators, combine) -> SSAValue:
            types = [v.type.element_type for v in (*ins, out)]
            op_ = make_generic(list(ins), [out], _region(types, combine), maps, iterators)
            made.append(op_)
            return op_.results[0]

        row_max = generic([op.input], fill(float("-inf")), [full, reduced], reducing, _maximum)
        exps = generic(
            [op.input, row_max], op.output, [full, reduced, full], parallel, _exp_of_difference
        )
        row_sum = generic([exps], fill(0.0), [full, reduced], reducing, _add)
        result = generic([exps, row_sum], op.output, [full, reduced, full], parallel, _quotient)
        for new in made:
            copy_location(op, new)
        rewriter.insert(made)
        rewriter.replace(op, [], [result])


@dataclass(frozen=True)
class DecomposeSoftmaxPass(ModulePass):
    name = "iree-codegen-decompose-softmax"

    use_fusion: bool = True
    """IREE's `use-fusion` (the exponential is computed once and reused by the sum and the
    division, as here)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(DecomposeSoftmax(), apply_recursively=False).rewrite_module(op)
