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
not modelled.) Padding amounts computed at run time make the insert_slice's offsets SSA
values, the low padding. A `?`-sized result (ONNX's CenterCropPad pads by amounts read from
an input to `tensor<3x?x?xf32>`) is an empty of the sizes MLIR's `reifyResultShapes` gives,
source size + low + high, computed on the host; a `?`-sized source is inserted at its own
sizes. A pad whose yielded value is a region argument is left alone and reported later as
unsupported.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, ModuleOp, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from ireelab.compiler.flow.dispatch_utils import is_outside_dispatch
from ireelab.compiler.util.dynamic_dims import find_dynamic_dims
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


def _amount(static: int, dynamic) -> tuple[list[Operation], SSAValue | None]:
    """One padding amount or size as an index value: a new constant when it is written in
    the op (used only where a `?` result size needs it), else the next of `dynamic`."""
    if static != DYNAMIC_INDEX:
        constant = arith.ConstantOp(IntegerAttr(static, IndexType()))
        return [constant], constant.result
    return [], next(dynamic) if dynamic is not None else None


def _dim(source: SSAValue, i: int, ops: list[Operation]) -> SSAValue:
    """`tensor.dim %source, i` (for a source whose producer does not name its sizes)."""
    index = arith.ConstantOp(IntegerAttr(i, IndexType()))
    dim = tensor.DimOp(source, index)
    ops += [index, dim]
    return dim.result


def padded_sizes(pad: tensor.PadOp) -> tuple[list[Operation], list[SSAValue], list[SSAValue]]:
    """The ops computing the sizes of `pad`'s `?` result dims (MLIR's
    `PadOp::reifyResultShapes`: source size + low + high), those sizes, and the source's
    `?` sizes (`tensor.dim`s), which the insert_slice takes as its sizes."""
    ops: list[Operation] = []
    result_dims: list[SSAValue] = []
    source_dims: list[SSAValue] = []
    low, high = iter(pad.low), iter(pad.high)
    known = iter(find_dynamic_dims(pad.source) or [])
    source_shape = pad.source.type.get_shape()
    result_shape = pad.result.type.get_shape()
    for i, (size, want) in enumerate(zip(source_shape, result_shape, strict=True)):
        lo_ops, lo = _amount(pad.static_low.get_values()[i], low)
        hi_ops, hi = _amount(pad.static_high.get_values()[i], high)
        extent_ops, extent = _amount(size, None)
        if size == DYNAMIC_INDEX:
            extent = next(known, None) or _dim(pad.source, i, ops)
            source_dims.append(extent)
        if want != DYNAMIC_INDEX:
            continue
        if pad.static_low.get_values()[i] == 0 and pad.static_high.get_values()[i] == 0:
            result_dims.append(extent)  # MLIR's reification folds `+ 0 + 0`: one size value
            continue
        first = arith.AddiOp(extent, lo)
        second = arith.AddiOp(first.result, hi)
        ops += [*extent_ops, *lo_ops, *hi_ops, first, second]
        result_dims.append(second.result)
    return ops, result_dims, source_dims


class ConvertPadToFillAndInsertSlice(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, pad: tensor.PadOp, rewriter: PatternRewriter) -> None:
        if not is_outside_dispatch(pad):
            return
        value = padding_value(pad)
        source_type, result_type = pad.source.type, pad.result.type
        if value is None or not isinstance(source_type, TensorType):
            return
        sizes, result_dims, source_dims = padded_sizes(pad)
        empty = tensor.EmptyOp(result_dims, result_type)
        fill = linalg.FillOp([value], [empty.tensor], [result_type])
        low = list(pad.static_low.get_values())
        insert = tensor.InsertSliceOp.get(
            pad.source,
            fill.results[0],
            static_sizes=list(source_type.get_shape()),
            static_offsets=low,
            static_strides=[1] * len(low),
            offsets=list(pad.low),
            sizes=source_dims,
        )
        for new in (*sizes, empty, fill, insert):
            copy_location(pad, new)
        rewriter.replace(pad, [*sizes, empty, fill, insert])


@dataclass(frozen=True)
class TensorPadToTensorInsertSlicePass(ModulePass):
    name = "iree-dispatch-creation-tensor-pad-to-tensor-insert-slice"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            ConvertPadToFillAndInsertSlice(), apply_recursively=False
        ).rewrite_module(op)
