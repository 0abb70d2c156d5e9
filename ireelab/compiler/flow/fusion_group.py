"""Fusion groups: a root op and the ops fused with it, with each op's loops mapped to the root's.

Mirrors `FusionGroup` / `FusionTracker` of IREE's DispatchCreation/FormDispatchRegions.cpp and
`getOuterParallelLoops` / `getRootParallelLoopToOpMap` of LinalgExt/Transforms/
LoopMappingUtils.cpp. An op may join a group only if its iteration space lines up with the
root's outer parallel loops (every op of a dispatch is tiled by the same workgroup grid).
"""

from __future__ import annotations

from xdsl.ir import Block, Operation, OpResult
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

from ireelab.compiler.flow import structured as st
from ireelab.dialects.iree_linalg_ext import AttentionOp


def outer_parallel_loops(op: Operation) -> tuple[int, int]:
    """(number of loops, number of leading parallel loops)."""
    iters = st.iterator_types(op)
    count = 0
    for kind in iters:
        if kind != "parallel":
            break
        count += 1
    return len(iters), count


def attention_loops(op: AttentionOp) -> tuple[int, int]:
    """(loops, leading parallel loops) of an attention: its parallel loops are the dims its
    output map reads (batch, m, n; IREE's `AttentionOp::getLoopIteratorTypes`)."""
    maps = op.maps()
    parallel = {e.position for e in maps["output"].results if isinstance(e, AffineDimExpr)}
    n = maps["query"].num_dims
    k = next((i for i in range(n) if i not in parallel), n)
    return n, k


def has_loops(op: Operation | None) -> bool:
    """A linalg op, or an attention (IREE's LinalgFusionOpInterface): ops a group can map."""
    return st.is_structured(op) or isinstance(op, AttentionOp)


def result_map(value: OpResult) -> AffineMap:
    """The loops -> result map of the op making `value`."""
    if isinstance(value.op, AttentionOp):
        return value.op.maps()["output"]
    return st.result_map(value)


def root_loop_map(op: Operation) -> AffineMap:
    """Root's outer-parallel loops -> its own loops (0 where a loop is not outer parallel).
    A root that is not a linalg op (an `iree_linalg_ext` op other than attention) fuses
    nothing: no loops."""
    if not has_loops(op):
        return AffineMap(0, 0, ())
    n, k = attention_loops(op) if isinstance(op, AttentionOp) else outer_parallel_loops(op)
    results = tuple(AffineDimExpr(i) if i < k else AffineConstantExpr(0) for i in range(n))
    return AffineMap(k, 0, results)


def _is_zero(expr) -> bool:
    return isinstance(expr, AffineConstantExpr) and expr.value == 0


def _merge(acc: AffineMap | None, incoming: AffineMap) -> AffineMap | None:
    """Combine two maps result-wise; a 0 yields to a concrete expression; conflicts fail."""
    if acc is None or acc == incoming:
        return incoming
    merged = []
    for a, b in zip(acc.results, incoming.results, strict=True):
        if a == b or _is_zero(b):
            merged.append(a)
        elif _is_zero(a):
            merged.append(b)
        else:
            return None
    return AffineMap(acc.num_dims, 0, tuple(merged))


def _through(producer_result_map: AffineMap, consumer_operand_map: AffineMap, source: AffineMap):
    if not (
        producer_result_map.is_projected_permutation()
        and consumer_operand_map.is_projected_permutation()
    ):
        return None
    inverse = consumer_operand_map.inverse_and_broadcast_projected_permutation()
    return inverse.compose(producer_result_map).compose(source)


def map_to_group(op: Operation, loop_maps: dict[Operation, AffineMap]) -> AffineMap | None:
    """`getRootParallelLoopToOpMap`: root outer-parallel loops -> `op`'s loops, via whichever
    group members `op` consumes from (or produces for)."""
    if not st.is_structured(op):
        return None
    is_consumer = any(isinstance(v, OpResult) and v.op in loop_maps for v in op.operands)
    result: AffineMap | None = None
    if is_consumer:
        for index, value in enumerate(op.operands):
            producer = value.op if isinstance(value, OpResult) else None
            if producer not in loop_maps or not has_loops(producer):
                continue
            composed = _through(result_map(value), st.operand_map(op, index), loop_maps[producer])
            if composed is None:
                return None
            if composed.num_dims > 0 and all(_is_zero(e) for e in composed.results):
                return None
            result = _merge(result, composed)
            if result is None:
                return None
        return result
    for result_value in op.results:
        for use in result_value.uses:
            consumer = use.operation
            if consumer not in loop_maps or not st.is_structured(consumer):
                continue
            composed = _through(
                st.operand_map(consumer, use.index),
                st.result_map(result_value),
                loop_maps[consumer],
            )
            if composed is None:
                return None
            result = _merge(result, composed)
            if result is None:
                return None
            used = {e.position for e in result.results if isinstance(e, AffineDimExpr)}
            if len(used) != loop_maps[consumer].num_dims:
                return None  # a producer cannot be more parallel than its consumer
    return result


def block_order(block: Block) -> dict[Operation, int]:
    """Each op of `block` -> its position: made once per block, not once per question (a
    model's block has thousands of ops and hundreds of candidate consumers)."""
    return {op: i for i, op in enumerate(block.ops)}


class FusionGroup:
    """A root and the ops fused with it, each with its map from the root's parallel loops."""

    def __init__(self, root: Operation):
        self.root = root
        # a root without loops (linalg.pack, linalg.softmax) fuses nothing: an empty map
        loops = root_loop_map(root)
        self.loop_maps: dict[Operation, AffineMap] = {root: loops}
        self.root_map = loops

    @property
    def ops(self) -> list[Operation]:
        return list(self.loop_maps)

    def contains(self, op: Operation) -> bool:
        return op in self.loop_maps

    def is_fusable(self, op: Operation) -> bool:
        amap = map_to_group(op, self.loop_maps)
        if amap is None:
            return False
        n, k = outer_parallel_loops(op)
        if n != k:
            return self.loop_maps[self.root] == amap
        return True

    def insert(self, op: Operation) -> None:
        if not has_loops(self.root):
            # a pack or unpack root: members keep their own loops (the dispatch is tiled as
            # its codegen decides, not by the root's parallel loops)
            self.loop_maps[op] = root_loop_map(op) if st.is_structured(op) else self.root_map
            return
        if not st.is_structured(op):
            # A tensor.insert_slice consumer (a padded result) has no loops to line up; it
            # rides on the root's tiling.
            self.loop_maps[op] = self.loop_maps[self.root]
            return
        amap = map_to_group(op, self.loop_maps)
        self.loop_maps[op] = amap if amap is not None else root_loop_map(op)

    def would_exceed_operand_limit(self, new_op: Operation, limit: int = 16) -> bool:
        members = {*self.loop_maps, new_op}
        operands: set[Operation] = set()
        results = 0
        for op in members:
            for value in op.operands:
                if not hasattr(value.type, "get_shape"):
                    continue
                owner = value.op if isinstance(value, OpResult) else None
                if (
                    owner is None
                    or owner in members
                    or owner.name in ("linalg.fill", "tensor.empty")
                ):
                    continue
                operands.add(owner)
            for r in op.results:
                if any(u.operation not in members for u in r.uses):
                    results += 1
        return len(operands) + results > limit

    def has_transitive_dependency(self, consumer: Operation, order: dict[Operation, int]) -> bool:
        """Does `consumer` reach a group member through an op outside the group? `order`:
        each op of the block -> its position (`block_order`)."""
        first = min(order[op] for op in self.loop_maps if op in order)
        seen: set[Operation] = set()
        stack = [
            v.op
            for v in consumer.operands
            if isinstance(v, OpResult) and v.op not in self.loop_maps and v.op in order
        ]
        while stack:
            op = stack.pop()
            if op in seen or order.get(op, -1) < first:
                continue
            seen.add(op)
            if op in self.loop_maps:
                return True
            stack.extend(v.op for v in op.operands if isinstance(v, OpResult) and v.op in order)
        return False


class FusionTracker:
    def __init__(self) -> None:
        self.groups: list[FusionGroup] = []
        self.group_of: dict[Operation, FusionGroup] = {}

    def create(self, root: Operation) -> FusionGroup:
        group = FusionGroup(root)
        self.groups.append(group)
        self.group_of[root] = group
        return group

    def append(self, op: Operation, group: FusionGroup) -> None:
        group.insert(op)
        self.group_of[op] = group

    def is_fused(self, op: Operation) -> bool:
        return op in self.group_of

    def is_root(self, op: Operation) -> bool:
        return op in self.group_of and self.group_of[op].root is op
