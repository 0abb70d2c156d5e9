"""DecomposeConcatPass (`iree-global-opt-decompose-concat`).

Mirrors IREE's GlobalOptimization/DecomposeConcat.cpp with its default options: a host
`tensor.concat` along any dimension but the outermost is decomposed into a `tensor.empty` and
one `tensor.insert_slice` per input (each at the running offset along the concat dimension), so
dispatch formation can fuse the pieces or give each a copy dispatch. With `?` sizes the empty
is sized and the inputs are placed by `arith.addi`s of the inputs' sizes, which become the copy
dispatches' workloads. An outer-dimension concat
is kept: ConvertTensorToFlowPass lowers it to `flow.tensor.update`s, which are plain copies.
(IREE's `--iree-global-opt-enable-outer-dim-concat` transposition is off by default and not
modelled.)
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from ireelab.compiler.flow.dispatch_utils import is_outside_dispatch
from ireelab.compiler.util.dynamic_dims import add_sizes, build_dynamic_dims
from ireelab.diagnostics import copy_location


def decompose(concat: tensor.ConcatOp) -> list[Operation]:
    """`tensor.empty` then an insert_slice per input; the last op's result is the concat.
    With `?` sizes, the empty is sized by the result's dims (the sum along the concat
    dimension, `arith.addi`s built before the concat) and each input goes at the running sum
    of the sizes before it, as MLIR's `ConcatOp::decomposeOperation` places them."""
    result_dims = build_dynamic_dims(concat.result)
    assert result_dims is not None  # every input's dims are known: they are carried values
    empty = tensor.EmptyOp(result_dims, concat.result.type)
    ops: list[Operation] = [empty]
    dest = empty.tensor
    dim = concat.dim.value.data
    offset: SSAValue | int = 0
    for value in concat.inputs:
        dims = iter(build_dynamic_dims(value) or [])
        sizes = [next(dims) if d == DYNAMIC_INDEX else d for d in value.type.get_shape()]
        offsets: list[SSAValue | int] = [0] * len(sizes)
        offsets[dim] = offset
        insert = _insert_slice(value, dest, offsets, sizes)
        ops.append(insert)
        dest = insert.result
        offset = _add(offset, sizes[dim], concat)
    for op in ops:
        copy_location(concat, op)
    return ops


def _add(a: SSAValue | int, b: SSAValue | int, before: Operation) -> SSAValue | int:
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    return add_sizes([a, b], before)


def _insert_slice(source, dest, offsets, sizes) -> tensor.InsertSliceOp:
    """An insert_slice at mixed (constant or SSA) offsets and sizes, unit strides."""

    def split(mixed):
        return [DYNAMIC_INDEX if isinstance(v, SSAValue) else v for v in mixed], [
            v for v in mixed if isinstance(v, SSAValue)
        ]

    (static_offsets, offset_values), (static_sizes, size_values) = split(offsets), split(sizes)
    return tensor.InsertSliceOp.get(
        source,
        dest,
        static_sizes=static_sizes,
        static_offsets=static_offsets,
        static_strides=[1] * len(sizes),
        offsets=offset_values,
        sizes=size_values,
    )


class DecomposeNonOuterDimConcats(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, concat: tensor.ConcatOp, rewriter: PatternRewriter) -> None:
        if concat.dim.value.data == 0 or not is_outside_dispatch(concat):
            return
        types = [v.type for v in concat.inputs] + [concat.result.type]
        if any(not isinstance(t, TensorType) for t in types):
            return
        rewriter.replace_op(concat, decompose(concat))


@dataclass(frozen=True)
class DecomposeConcatPass(ModulePass):
    name = "iree-global-opt-decompose-concat"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(DecomposeNonOuterDimConcats(), apply_recursively=False).rewrite_module(
            op
        )
