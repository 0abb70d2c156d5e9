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


def _captured(region_op: flow.DispatchRegionOp) -> list[SSAValue]:
    inside = set(region_op.body.walk())
    seen: list[SSAValue] = []
    for op in region_op.body.walk():
        for value in op.operands:
            owner = value.op if isinstance(value, OpResult) else None
            if owner is not None and owner not in inside and value not in seen:
                seen.append(value)
    return seen


def clone_into(region_op: flow.DispatchRegionOp) -> bool:
    """Clone one cheap captured producer into the region; True if something changed. A region
    wrapped around one host slice (ConvertTensorToFlow's `wrapInWorkgroupsOp`) clones the same
    way: positions read from a tensor (`tensor.extract`, `arith.index_cast`) are recomputed in
    the kernel from the bound tensor, as IREE's `cloneProducersToRegion` does there."""
    for value in _captured(region_op):
        producer = value.op
        if not st.is_cheap_producer(producer) or _is_insert_dest(value, region_op):
            continue
        if _is_host_shape_value(value, region_op):
            continue
        clone = producer.clone()
        Rewriter.insert_op(clone, InsertPoint.at_start(region_op.body.block))
        for old, new in zip(producer.results, clone.results, strict=True):
            # the region's own `{%d}` result sizes are read outside it: they keep the original
            old.replace_uses_with_if(new, lambda use: _in_body(use.operation, region_op))
        _erase_if_dead(producer)
        return True
    return False


def _is_insert_dest(value: SSAValue, region_op: flow.DispatchRegionOp) -> bool:
    return any(
        isinstance(use.operation, tensor.InsertSliceOp)
        and use.index == 1
        and _in_body(use.operation, region_op)
        for use in value.uses
    )


def _is_host_shape_value(value: SSAValue, region_op: flow.DispatchRegionOp) -> bool:
    """An index the region op itself takes (a result's `?` size) is a shape computed on the
    host: IREE keeps its producers there and the body reads it as a captured operand (the
    workload), rather than recomputing it from a tensor it would have to bind."""
    return isinstance(value.type, IndexType) and value in region_op.operands


def _in_body(op: Operation, region_op: Operation) -> bool:
    """Inside the region's body: the region op's own operands (its result dims) stay the
    host's values, which the body's clones do not dominate."""
    return region_op.is_ancestor(op) and op is not region_op


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
