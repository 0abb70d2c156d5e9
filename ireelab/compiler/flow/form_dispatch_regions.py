"""FormDispatchRegionsPass (`iree-dispatch-creation-form-dispatch-regions`).

Mirrors IREE's DispatchCreation/FormDispatchRegions.cpp: decide which ops run together in one
kernel, then wrap each group in a `flow.dispatch.region`. The heuristics, in IREE's order:

1. Walk each block backwards. Every *root-like* op - a named linalg op other than a fill
   (matmul, batch_matmul, conv, ...) or a generic with a reduction loop - starts a group and
   pulls in producers that feed it through its *init* operand.
2. Roots then absorb consumers, front to back, while a consumer is all-parallel, uses only this
   group (one consumer per producer), lines up with the root's outer parallel loops, is not
   larger than the root, and (after a convolution) can write in place. An attention root
   takes consumers too, through its output map (a LinalgFusionOpInterface op in IREE: the
   head-merging transpose after it joins its dispatch); it takes no producers.
3. Each root pulls producers again (now allowing truncations).
4. Every linalg op left over (elementwise generics, mostly) becomes a root of its own, with the
   same consumer/producer rules.

Fills, empties and scalar constants are never placed: CloneProducersIntoDispatchRegionsPass
copies them into each region that needs them.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.flow import structured as st
from ireelab.compiler.flow.dispatch_utils import function_blocks
from ireelab.compiler.flow.elementwise_op_fusion import is_bit_extend, is_bit_truncate
from ireelab.compiler.flow.fusion_group import FusionGroup, FusionTracker, block_order, has_loops
from ireelab.compiler.util.dynamic_dims import build_dynamic_dims
from ireelab.diagnostics import CompileError
from ireelab.dialects import flow
from ireelab.dialects.iree_linalg_ext import AttentionOp, is_linalg_ext
from ireelab.dialects.linalg_pack import PackOp, UnPackOp
from ireelab.dialects.linalg_softmax import SoftmaxOp

AGGREGATE_ROOTS = (PackOp, UnPackOp, SoftmaxOp)
"""Dispatchable ops without indexing maps. Unpack and softmax are roots; a pack is not (IREE:
it joins its producer's dispatch, or forms one with the producers it pulls in afterwards)."""


def is_root_like(op: Operation) -> bool:
    if is_linalg_ext(op):
        return True  # IREE: every LinalgExt op roots its own dispatch
    if isinstance(op, UnPackOp | SoftmaxOp):
        return True
    if is_bit_extend(op):
        return False
    if st.is_generic(op):
        return st.num_reduction_loops(op) > 0
    return st.is_structured(op) and not isinstance(op, linalg.FillOp)


def _fusable_uses(op: Operation, block: Block) -> list[tuple[Operation, list[int]]]:
    """Consumers of `op` with the operand indices reading it; empty unless exactly one."""
    users: dict[Operation, list[int]] = {}
    for r in op.results:
        for use in r.uses:
            if use.operation.parent is block:
                users.setdefault(use.operation, []).append(use.index)
    if len({u for r in op.results for u in (x.operation for x in r.uses)}) != 1:
        return []
    return list(users.items())


def _can_reuse_input_as_init(consumer: Operation, in_index: int, init_index: int) -> bool:
    if not st.is_generic(consumer) or not st.is_all_parallel(consumer):
        return False
    n_in = len(st.inputs(consumer))
    if in_index >= n_in or init_index < n_in:
        return False
    if consumer.body.block.args[init_index].uses:
        return False
    maps = st.indexing_maps(consumer)
    if maps[in_index] != maps[init_index]:
        return False
    return consumer.operands[in_index].type == consumer.operands[init_index].type


def _layout_fusion(producer: Operation, consumer: Operation, index: int) -> bool | None:
    """IREE's rules for data-layout ops (None if neither op is one): a pack takes a producer
    that writes its source through an identity map; an unpack feeds elementwise consumers of
    its rank."""
    if isinstance(consumer, PackOp):
        result = consumer.source
        if consumer.operands[index] is not result or not st.is_structured(producer):
            return False
        n_in = len(st.inputs(producer))
        return st.is_identity(st.indexing_maps(producer)[n_in + result.index])
    if isinstance(producer, UnPackOp):
        if not st.is_structured(consumer) or not st.is_all_parallel(consumer):
            return False
        return st.num_loops(consumer) == len(producer.dest.type.get_shape())
    return None


def is_fusable_with_consumer(
    producer: Operation, consumer: Operation, index: int, tracker: FusionTracker
) -> bool:
    if st.is_cheap_producer(consumer):
        return False
    layout = _layout_fusion(producer, consumer, index)
    if layout is not None:
        return layout and not tracker.group_of[producer].would_exceed_operand_limit(consumer)
    if isinstance(consumer, tensor.InsertSliceOp):
        return consumer.source.owner is producer and isinstance(consumer.dest.owner, linalg.FillOp)
    if not (has_loops(producer) and st.is_structured(consumer)):
        return False
    if not st.is_all_parallel(consumer):
        return False
    group = tracker.group_of[producer]
    if not group.is_fusable(consumer) or group.would_exceed_operand_limit(consumer):
        return False
    if len(_ranges(producer)) < st.num_loops(consumer):
        return False
    if _non_unit(st.loop_ranges(consumer)) > _non_unit(_ranges(group.root)):
        return False
    if st.is_convolution(producer):
        n_in = len(st.inputs(consumer))
        inits = range(n_in, n_in + len(st.inits(consumer)))
        if not any(_can_reuse_input_as_init(consumer, index, j) for j in inits):
            return False
    return True


def _ranges(op: Operation) -> list[int]:
    """Static loop ranges of a linalg op or an attention (a LinalgFusionOpInterface op)."""
    return op.loop_ranges() if isinstance(op, AttentionOp) else st.loop_ranges(op)


def _non_unit(ranges: list[int]) -> int:
    return sum(1 for r in ranges if r != 1)


def is_fusable_with_producer(
    producer: Operation,
    consumer: Operation,
    index: int,
    tracker: FusionTracker,
    allow_truncate: bool,
) -> bool:
    if not allow_truncate and is_bit_truncate(producer):
        return False
    layout = _layout_fusion(producer, consumer, index)
    if layout is not None:
        return layout and not tracker.group_of[consumer].would_exceed_operand_limit(producer)
    if not (st.is_structured(producer) and st.is_structured(consumer)):
        return False
    if index < len(st.inputs(consumer)):
        return False  # without aggressive fusion, producers join only through the init
    group = tracker.group_of[consumer]
    return group.is_fusable(producer) and not group.would_exceed_operand_limit(producer)


def _external_user_blocks(
    root: Operation, producer: Operation, group: FusionGroup, block: Block
) -> bool:
    """IREE's `hasExternalUserBlockingProducerFusion`: a user of the producer outside the group
    that sits before the root and that the group depends on would be cut off."""
    order = {op: i for i, op in enumerate(block.ops)}
    deps: set[Operation] = set()
    stack = list(group.ops)
    while stack:
        op = stack.pop()
        for v in op.operands:
            owner = v.op if isinstance(v, OpResult) else None
            if owner in order and order[owner] > order[producer] and owner not in deps:
                deps.add(owner)
                stack.append(owner)
    for r in producer.results:
        for use in r.uses:
            user = use.operation
            if user in group.loop_maps or user not in order or order[user] >= order[root]:
                continue
            if isinstance(user, flow.DispatchRegionOp) or user in deps:
                return True
    return False


def fuse_producers(
    root: Operation, group: FusionGroup, tracker: FusionTracker, block: Block, allow_truncate: bool
) -> None:
    worklist = [root]
    while worklist:
        candidate = worklist.pop()
        for value in candidate.operands:
            producer = value.op if isinstance(value, OpResult) else None
            if producer is None or producer.parent is not block:
                continue
            if st.is_cheap_producer(producer) or tracker.is_fused(producer):
                continue
            uses_ok = all(
                is_fusable_with_producer(
                    producer, use.operation, use.index, tracker, allow_truncate
                )
                for r in producer.results
                for use in r.uses
                if use.operation in group.loop_maps
            )
            if not uses_ok or _external_user_blocks(root, producer, group, block):
                continue
            tracker.append(producer, group)
            worklist.append(producer)


def fuse_consumers(roots: list[Operation], tracker: FusionTracker, block: Block) -> None:
    order = block_order(block)  # deciding the groups does not change the block
    for root in roots:
        group = tracker.group_of[root]
        worklist = [root]
        while worklist:
            current = worklist.pop()
            for consumer, indices in _fusable_uses(current, block):
                if tracker.is_fused(consumer) or group.has_transitive_dependency(consumer, order):
                    continue
                if not all(
                    is_fusable_with_consumer(current, consumer, i, tracker) for i in indices
                ):
                    continue
                tracker.append(consumer, group)
                worklist.append(consumer)


def _round(block: Block, tracker: FusionTracker, is_candidate) -> None:
    roots: list[Operation] = []
    for op in reversed(list(block.ops)):
        if tracker.is_fused(op) or not is_candidate(op):
            continue
        group = tracker.create(op)
        fuse_producers(op, group, tracker, block, allow_truncate=False)
        roots.append(op)
    roots.reverse()
    fuse_consumers(roots, tracker, block)
    for root in roots:
        fuse_producers(root, tracker.group_of[root], tracker, block, allow_truncate=True)


def _leftover(op: Operation) -> bool:
    # IREE also gives a leftover tensor.pad its own dispatch; ireelab's codegen has no pad, so
    # it stays on the host and ConvertTensorToFlowPass reports it.
    if isinstance(op, PackOp):
        return True
    return st.is_structured(op) and not st.is_cheap_producer(op)


def decide_groups(block: Block) -> list[FusionGroup]:
    tracker = FusionTracker()
    _round(block, tracker, is_root_like)
    _round(block, tracker, _leftover)
    return tracker.groups


def wrap_group(group: FusionGroup, order: dict[Operation, int]) -> flow.DispatchRegionOp:
    """Move the group's ops, in block order (`order`: the block's ops' positions before any
    group was wrapped), into a new `flow.dispatch.region` placed where its last op was;
    values used after the group become the region's results."""
    members = sorted(group.ops, key=order.__getitem__)
    escaping: list[SSAValue] = [
        r
        for op in members
        for r in op.results
        if any(u.operation not in group.loop_maps for u in r.uses)
    ]
    dims = _result_dims(escaping)
    body = Block()
    region = flow.DispatchRegionOp([v.type for v in escaping], Region(body), result_dims=dims)
    Rewriter.insert_op(region, InsertPoint.before(members[-1]))
    for op in members:
        op.detach()
        body.add_op(op)
    body.add_op(flow.ReturnOp(*escaping))
    for value, result in zip(escaping, region.results, strict=True):
        value.replace_uses_with_if(result, lambda use: not region.is_ancestor(use.operation))
    return region


def _result_dims(escaping: list[SSAValue]) -> list[SSAValue]:
    """The `?` sizes of the region's results, `{%d}` after each type, as IREE lists them."""
    dims: list[SSAValue] = []
    for value in escaping:
        found = build_dynamic_dims(value)
        if found is None:
            raise CompileError.at(
                value.owner, f"the sizes of {value.type} are not known here", stage="flow"
            )
        dims += found
    return dims


def form_dispatch_regions(block: Block) -> list[flow.DispatchRegionOp]:
    groups = decide_groups(block)
    order = block_order(block)  # wrapping a group leaves the others' ops in this order
    return [wrap_group(group, order) for group in groups]


@dataclass(frozen=True)
class FormDispatchRegionsPass(ModulePass):
    name = "iree-dispatch-creation-form-dispatch-regions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for block in list(function_blocks(op)):
            form_dispatch_regions(block)
