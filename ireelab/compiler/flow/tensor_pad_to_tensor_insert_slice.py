"""TensorPadToTensorInsertSlicePass (`iree-dispatch-creation-tensor-pad-to-tensor-insert-slice`).

Mirrors IREE's DispatchCreation/TensorPadToTensorInsertSlice.cpp, the first pass of dispatch
creation. IREE has no native pad handling by default, so every `tensor.pad` on the host whose
padding value does not depend on the element position is written in destination-passing style:

    %e = tensor.empty() : tensor<6x10xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<6x10xf32>) -> tensor<6x10xf32>
    %p = tensor.insert_slice %src into %f[1, 2] [4, 6] [1, 1] : ...

Dispatch formation then fuses the insert_slice into the dispatch producing `%src` (or gives it
a copy dispatch of its own), and ConvertTensorToFlowPass turns the host fill into
`flow.tensor.splat`. (IREE's option to keep a pad whose single user is a linalg op,
`--iree-dispatch-creation-enable-fuse-padding-into-linalg-consumer-ops`, is off by default and
not modelled.) Padding amounts computed at run time (the shapes stay static) make the
insert_slice's offsets SSA values, the low padding. A pad whose yielded value is a region
argument, or with a `?` size, is left alone and reported later as unsupported.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from ireelab.compiler.flow.dispatch_utils import is_outside_dispatch
from ireelab.diagnostics import copy_location


def padding_value(pad: tensor.PadOp):
    """The value every padded element takes, or None when it depends on the position."""
    ops = list(pad.region.block.ops)
    if len(ops) != 1 or not isinstance(ops[0], tensor.YieldOp):
        return None
    value = ops[0].operands[0]
    if value in pad.region.block.args:
        return None
    return value


class ConvertPadToFillAndInsertSlice(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, pad: tensor.PadOp, rewriter: PatternRewriter) -> None:
        if not is_outside_dispatch(pad):
            return
        value = padding_value(pad)
        source_type, result_type = pad.source.type, pad.result.type
        if value is None or not isinstance(source_type, TensorType):
            return
        if DYNAMIC_INDEX in result_type.get_shape() or DYNAMIC_INDEX in source_type.get_shape():
            return
        empty = tensor.EmptyOp([], result_type)
        fill = linalg.FillOp([value], [empty.tensor], [result_type])
        low = list(pad.static_low.get_values())
        insert = tensor.InsertSliceOp.get(
            pad.source,
            fill.results[0],
            static_sizes=list(source_type.get_shape()),
            static_offsets=low,
            static_strides=[1] * len(low),
            offsets=list(pad.low),
        )
        for new in (empty, fill, insert):
            copy_location(pad, new)
        rewriter.replace_op(pad, [empty, fill, insert])


@dataclass(frozen=True)
class TensorPadToTensorInsertSlicePass(ModulePass):
    name = "iree-dispatch-creation-tensor-pad-to-tensor-insert-slice"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            ConvertPadToFillAndInsertSlice(), apply_recursively=False
        ).rewrite_module(op)
