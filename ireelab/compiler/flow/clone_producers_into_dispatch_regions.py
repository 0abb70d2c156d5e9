"""CloneProducersIntoDispatchRegionsPass (`iree-dispatch-creation-clone-producers-into-dispatch-regions`).

Mirrors IREE's DispatchCreation/CloneProducersIntoDispatchRegions.cpp: producers that are
cheaper to recompute than to pass in - `tensor.empty`, `linalg.fill`, scalar and splat
constants, scalar arith, `tensor.extract(_slice)` (`isCloneableIntoDispatchOp`) - are copied
into every dispatch region that uses them, so a fill becomes part of the matmul kernel instead
of a tensor in memory. Originals left without users are erased.

A value the region writes into with `tensor.insert_slice` (its *dest*) is never cloned, as in
IREE (`hasUnfusableUseInDispatch`): the region's result is then tied to that value, so the
fill of a padded tensor stays on the host as a `flow.tensor.splat` and the kernel writes only
the interior. Nor is an index the region op takes as a result size: that is a shape the host
computes (a size read back with `flow.tensor.load` stays a host read, passed as workload).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.flow import structured as st
from ireelab.dialects import flow


def _captured(body_ops: list[Operation]) -> list[SSAValue]:
    """Values the ops of a region's body (`body_ops`) use and none of them defines, in order
    of first use."""
    inside = set(body_ops)
    seen: dict[SSAValue, None] = {}
    for op in body_ops:
        for value in op.operands:
            owner = value.op if isinstance(value, OpResult) else None
            if owner is not None and owner not in inside:
                seen.setdefault(value)
    return list(seen)


def clone_into(region_op: flow.DispatchRegionOp) -> bool:
    """Clone one cheap captured producer into the region; True if something changed. A region
    wrapped around one host slice (ConvertTensorToFlow's `wrapInWorkgroupsOp`) clones the same
    way: positions read from a tensor (`tensor.extract`, `arith.index_cast`) are recomputed in
    the kernel from the bound tensor, as IREE's `cloneProducersToRegion` does there."""
    # The ops nested in the region op, walked once per clone: a use is inside exactly when
    # its op is one of them (asking each use's parents instead made the shared constants of
    # an N-layer model, used in every region, cost N x N parent walks). The region op's own
    # operands (its `{%d}` result sizes, read outside it) keep the original.
    body_ops = list(region_op.body.walk())
    nested = {o for o in region_op.walk() if o is not region_op}
    for value in _captured(body_ops):
        producer = value.op
        if not st.is_cheap_producer(producer) or _is_insert_dest(value, nested):
            continue
        if _is_host_shape_value(value, region_op):
            continue
        clone = producer.clone()
        Rewriter.insert_op(clone, InsertPoint.at_start(region_op.body.block))
        for old, new in zip(producer.results, clone.results, strict=True):
            old.replace_uses_with_if(new, lambda use: use.operation in nested)
        _erase_if_dead(producer)
        return True
    return False


def _is_insert_dest(value: SSAValue, nested: set[Operation]) -> bool:
    """`value` is the dest of a `tensor.insert_slice` among the region op's nested ops."""
    return any(
        isinstance(use.operation, tensor.InsertSliceOp)
        and use.index == 1
        and use.operation in nested
        for use in value.uses
    )


def _is_host_shape_value(value: SSAValue, region_op: flow.DispatchRegionOp) -> bool:
    """An index the region op itself takes (a result's `?` size) is a shape computed on the
    host: IREE keeps its producers there and the body reads it as a captured operand (the
    workload), rather than recomputing it from a tensor it would have to bind."""
    return isinstance(value.type, IndexType) and value in region_op.operands


def _erase_if_dead(op: Operation) -> None:
    if all(st.use_count(r) == 0 for r in op.results):
        Rewriter.erase_op(op)


@dataclass(frozen=True)
class CloneProducersIntoDispatchRegionsPass(ModulePass):
    name = "iree-dispatch-creation-clone-producers-into-dispatch-regions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for region_op in [o for o in op.walk() if isinstance(o, flow.DispatchRegionOp)]:
            while clone_into(region_op):
                pass
