"""DecomposeConcatPass (`iree-global-opt-decompose-concat`).

Mirrors IREE's GlobalOptimization/DecomposeConcat.cpp with its default options: a host
`tensor.concat` along any dimension but the outermost is decomposed into a `tensor.empty` and
one `tensor.insert_slice` per input (each at the running offset along the concat dimension), so
dispatch formation can fuse the pieces or give each a copy dispatch. An outer-dimension concat
is kept: ConvertTensorToFlowPass lowers it to `flow.tensor.update`s, which are plain copies.
(IREE's `--iree-global-opt-enable-outer-dim-concat` transposition is off by default and not
modelled.)
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from ireelab.compiler.flow.dispatch_utils import is_outside_dispatch
from ireelab.diagnostics import copy_location


def decompose(concat: tensor.ConcatOp) -> list[Operation]:
    """`tensor.empty` then an insert_slice per input; the last op's result is the concat."""
    result_type = concat.result.type
    dim = concat.dim.value.data
    empty = tensor.EmptyOp([], result_type)
    ops: list[Operation] = [empty]
    dest = empty.tensor
    offset = 0
    for value in concat.inputs:
        shape = list(value.type.get_shape())
        offsets = [0] * len(shape)
        offsets[dim] = offset
        insert = tensor.InsertSliceOp.from_static_parameters(value, dest, offsets, shape)
        ops.append(insert)
        dest = insert.result
        offset += shape[dim]
    for op in ops:
        copy_location(concat, op)
    return ops


class DecomposeNonOuterDimConcats(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, concat: tensor.ConcatOp, rewriter: PatternRewriter) -> None:
        if concat.dim.value.data == 0 or not is_outside_dispatch(concat):
            return
        types = [v.type for v in concat.inputs] + [concat.result.type]
        if any(not isinstance(t, TensorType) or DYNAMIC_INDEX in t.get_shape() for t in types):
            return
        rewriter.replace_op(concat, decompose(concat))


@dataclass(frozen=True)
class DecomposeConcatPass(ModulePass):
    name = "iree-global-opt-decompose-concat"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(DecomposeNonOuterDimConcats(), apply_recursively=False).rewrite_module(
            op
        )
