"""Folds of `tensor.expand_shape` / `tensor.collapse_shape` that MLIR's patterns apply.

Mirrors the reshape canonicalizations of MLIR's Tensor/IR/TensorOps.cpp and
`tensor::populateFoldTensorEmptyPatterns`, which IREE's BubbleUpExpandShapesPass adds beside
the reshape-by-expansion patterns so the reshapes they leave behind go away:

- `FoldReshapeWithConstant` (and the reshape ops' `fold`): a reshape of a dense constant is the
  constant with the new type (`dense<...> : tensor<6xf32>` -> `... : tensor<2x3xf32>`);
- `FoldEmptyTensorWithReshapeOp`: a reshape of a `tensor.empty` is an empty of the new shape;
- `ComposeReassociativeReshapeOps`: an expand of an expand, or a collapse of a collapse, is one
  reshape with the composed groups;
- the fold of a reshape undone by the next one (`collapse(expand(x))` of `x`'s type, and the
  converse) to `x`, where each group holds at most one `?` (so the sizes are the same).

xDSL 0.75 has none of these; they are patterns here, used by the passes that need them.
"""

from __future__ import annotations

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Operation, OpResult
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from ireelab.compiler.flow.collapse_dimensions import _reassoc_attr
from ireelab.compiler.flow.fold_reshape_by_expansion import groups_of, mixed_output_shape
from ireelab.compiler.util.dynamic_dims import build_dynamic_dims
from ireelab.dialects import tensor_ext

_RESHAPES = (tensor.ExpandShapeOp, tensor.CollapseShapeOp)


def _source_op(reshape: Operation) -> Operation | None:
    return reshape.src.op if isinstance(reshape.src, OpResult) else None


def _static(t: TensorType) -> bool:
    return DYNAMIC_INDEX not in t.get_shape()


def _one_dynamic_per_group(reshape: Operation) -> bool:
    expanded = reshape.result if isinstance(reshape, tensor.ExpandShapeOp) else reshape.src
    shape = expanded.type.get_shape()
    return all(sum(shape[i] == DYNAMIC_INDEX for i in g) <= 1 for g in groups_of(reshape))


def _source_reshape(op: Operation, same_kind: bool) -> Operation | None:
    """The reshape `op` reads, of `op`'s kind or of the inverse kind, if it is one."""
    if not isinstance(op, _RESHAPES):
        return None
    expanding = isinstance(op, tensor.ExpandShapeOp)
    kind = tensor.ExpandShapeOp if expanding == same_kind else tensor.CollapseShapeOp
    source = _source_op(op)
    return source if isinstance(source, kind) else None


class FoldReshapeWithConstant(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, _RESHAPES) or not _static(op.result.type):
            return
        source = _source_op(op)
        if not isinstance(source, arith.ConstantOp):
            return
        value = source.value
        if not isinstance(value, DenseIntOrFPElementsAttr):
            return
        folded = DenseIntOrFPElementsAttr(op.result.type, value.data)
        rewriter.replace(op, arith.ConstantOp(folded, op.result.type))


class FoldEmptyTensorWithReshapeOp(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, _RESHAPES) or not isinstance(_source_op(op), tensor.EmptyOp):
            return
        dims = build_dynamic_dims(op.result)
        if dims is None:
            return
        rewriter.replace(op, tensor.EmptyOp(dims, op.result.type))


class FoldReshapeOfInverseReshape(RewritePattern):
    """`expand(collapse(x))` or `collapse(expand(x))` back to `x`'s type is `x`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        source = _source_reshape(op, same_kind=False)
        if source is None or source.src.type != op.result.type:
            return
        if not _one_dynamic_per_group(op) or not _one_dynamic_per_group(source):
            return
        rewriter.replace(op, [], [source.src])


class ComposeReassociativeReshapeOps(RewritePattern):
    """`expand(expand(x))` -> one expand; `collapse(collapse(x))` -> one collapse."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        source = _source_reshape(op, same_kind=True)
        if source is None:
            return
        outer, inner = groups_of(op), groups_of(source)
        if isinstance(op, tensor.ExpandShapeOp):
            groups = [[d for i in g for d in outer[i]] for g in inner]
            shape = mixed_output_shape(op)
            dynamic = [s for s in shape if not isinstance(s, int)]
            static = [s if isinstance(s, int) else DYNAMIC_INDEX for s in shape]
            new = tensor_ext.ExpandShapeOp(
                source.src, dynamic, _reassoc_attr(groups), static, op.result.type
            )
        else:
            groups = [[d for i in g for d in inner[i]] for g in outer]
            new = tensor.CollapseShapeOp.create(
                operands=[source.src],
                result_types=[op.result.type],
                properties={"reassociation": _reassoc_attr(groups)},
            )
        rewriter.replace(op, new)


def reshape_fold_patterns() -> list[RewritePattern]:
    return [
        FoldReshapeWithConstant(),
        FoldEmptyTensorWithReshapeOp(),
        FoldReshapeOfInverseReshape(),
        ComposeReassociativeReshapeOps(),
    ]
