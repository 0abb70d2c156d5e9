"""BubbleUpExpandShapesPass (`iree-dispatch-creation-bubble-up-expand-shapes`).

Mirrors IREE's DispatchCreation/BubbleUpExpandShapes.cpp, which runs after the first
ElementwiseOpFusionPass: `tensor.expand_shape`s move up the program and `tensor.collapse_shape`s
down (MLIR's reshape-by-expansion, `fold_reshape_by_expansion.py`), so elementwise generics are
rewritten in the higher-dimensional loops of their neighbours and the second ElementwiseOpFusionPass
fuses what the reshapes kept apart. A grouped convolution's bias broadcast, say, is built 4-D and
viewed 5-D (`N x G x F/G x H x W`) by an `expand_shape` the bias add reads; bubbled up, the
broadcast is built 5-D from a `2x3` view of the bias, fuses into the add, and the add into the
convolution's dispatch, as in iree-compile.

IREE's control function (`bubbleUpExpansionControlFn`), as modelled: producer and consumer exist
and are outside dispatch regions; an expand adding unit dims is not moved above a producer with
other uses (it could loop), nor at all unless one of its users is a linalg / tensor op the
producer could then fuse with; a collapse dropping unit dims is not sunk unless its source's
producer and the consumer could fuse; a generic producer or consumer moves the reshape only when
all its loops are parallel (`enable-reshape-movement-across-reductions` lifts that); named linalg
ops never move one; anything else does. The reshape folds IREE adds (constant, `tensor.empty`,
composed and inverse reshapes) run with them (`reshape_folds.py`). A collapse of a value entering
the compute and an expand only leaving it are not moved: IREE's FoldReshapesIntoTensorBarriersPass
has put those outside the compute barriers by then (see `at_barrier`).

Not modelled: the `extract_slice` patterns (`BubbleUpExtract`, `SwapExtractSliceOfFill`,
`BubbleExpandThroughExtract`), `BubbleExpandThroughConcat`, the `iree_tensor_ext.bitcast`
patterns, LinalgExt's reshape-by-expansion (attention, scatter, ...) and MLIR's pad patterns.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker

from ireelab.compiler.flow import structured as st
from ireelab.compiler.flow.dead_code import erase_dead_ops
from ireelab.compiler.flow.dispatch_utils import is_outside_dispatch
from ireelab.compiler.flow.fold_reshape_by_expansion import (
    FoldReshapeWithGenericOpByExpansion,
    FoldWithProducerReshapeOpByExpansion,
    groups_of,
)
from ireelab.compiler.flow.reshape_folds import reshape_fold_patterns
from ireelab.dialects.iree_tensor_ext import ComputeBarrierEndOp, ComputeBarrierStartOp

_FUSABLE_DIALECTS = ("linalg", "iree_linalg_ext", "tensor")


def is_expanding_unit_dims(groups: list[list[int]], expanded_shape) -> bool:
    """A group of several dims, one of them a unit dim (IREE's `isExpandingUnitDims`)."""
    return any(len(g) > 1 and any(expanded_shape[d] == 1 for d in g) for g in groups)


def _fusable(op: Operation | None) -> bool:
    return op is not None and op.name.split(".")[0] in _FUSABLE_DIALECTS


def is_reshape_blocking_fusion(producer: Operation | None, consumer: Operation | None) -> bool:
    """IREE's optimistic check: both sides are ops a dispatch could fuse."""
    return _fusable(producer) and _fusable(consumer)


def _owner(value) -> Operation | None:
    return value.owner if isinstance(value.owner, Operation) else None


def at_barrier(reshape: Operation) -> bool:
    """A collapse of a value entering the compute, or an expand only leaving it: IREE's
    FoldReshapesIntoTensorBarriersPass (GlobalOptimization's run, after FoldUnitExtentDims) has
    moved such a reshape outside its barrier by now, where no pattern reaches it; ireelab's
    barriers stay where InsertTensorBarriersPass put them, so the reshape is left alone here."""
    if isinstance(reshape, tensor.CollapseShapeOp):
        return isinstance(_owner(reshape.src), ComputeBarrierStartOp)
    users = [use.operation for use in reshape.result.uses]
    return bool(users) and all(isinstance(u, ComputeBarrierEndOp) for u in users)


def bubble_up_control(producer: Operation | None, consumer: Operation, aggressive: bool) -> bool:
    """IREE's `bubbleUpExpansionControlFn` for the edge producer -> consumer."""
    if producer is None or not is_outside_dispatch(producer) or not is_outside_dispatch(consumer):
        return False
    if isinstance(producer, tensor.CollapseShapeOp) and at_barrier(producer):
        return False
    if isinstance(consumer, tensor.ExpandShapeOp) and at_barrier(consumer):
        return False
    if isinstance(consumer, tensor.ExpandShapeOp):
        unit = is_expanding_unit_dims(groups_of(consumer), consumer.result.type.get_shape())
        if unit and st.op_use_count(producer) != 1:
            return False  # canCauseReshapingLoopByExpansion
        users = [use.operation for use in consumer.result.uses]
        if unit and not any(is_reshape_blocking_fusion(producer, u) for u in users):
            return False
    if isinstance(producer, tensor.CollapseShapeOp):
        unit = is_expanding_unit_dims(groups_of(producer), producer.src.type.get_shape())
        if unit and not is_reshape_blocking_fusion(_owner(producer.src), consumer):
            return False
    if st.is_generic(producer):
        return aggressive or st.is_all_parallel(producer)
    if st.is_structured(producer):
        return False
    if st.is_generic(consumer):
        return aggressive or st.is_all_parallel(consumer)
    return not st.is_structured(consumer)


@dataclass(frozen=True)
class BubbleUpExpandShapesPass(ModulePass):
    """Moves expand_shapes up and collapse_shapes down through elementwise generics."""

    name = "iree-dispatch-creation-bubble-up-expand-shapes"

    enable_reshape_movement_across_reductions: bool = False
    """Move reshapes across generics with reduction loops too (IREE's option of that name,
    set by `--iree-dispatch-creation-enable-aggressive-reshape-movement`)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        control = partial(
            bubble_up_control, aggressive=self.enable_reshape_movement_across_reductions
        )
        patterns = [
            FoldReshapeWithGenericOpByExpansion(control),
            FoldWithProducerReshapeOpByExpansion(control),
            *reshape_fold_patterns(),
        ]
        walker = PatternRewriteWalker(GreedyRewritePatternApplier(patterns), apply_recursively=True)
        walker.rewrite_module(op)
        erase_dead_ops(op)
