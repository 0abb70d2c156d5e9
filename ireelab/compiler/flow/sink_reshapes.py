"""SinkReshapesPass (`iree-dispatch-creation-sink-reshapes`).

Mirrors IREE's DispatchCreation/SinkReshapes.cpp, which runs after elementwise fusion, before
dispatch regions form. A `tensor.expand_shape` between a structured producer and its
elementwise consumer (typically a matmul whose `M x N` result is viewed as `M x A x B` by the
next op, as an imported attention or MLP block does) keeps the two apart: region formation
fuses a consumer with its producer only through a direct edge. The pass moves the reshape past
the consumer instead (MLIR's fold-reshape-by-collapsing): the consumer is rewritten over
collapsed loops so it reads the producer's result directly; its other operands get a
`tensor.collapse_shape` and its result a `tensor.expand_shape`, which end up on the host as
`flow.tensor.reshape`s, and matmul and consumer land in one dispatch.

IREE's control function (`shouldSinkExpandShapeOp`), as modelled:

- the consumer is a `linalg.generic` whose loops are all parallel, and not a bit-extend op;
  its maps are projected permutations (MLIR's collapsing needs them: a broadcast read such as
  `(d0, d1, d2) -> (d0, d1, 0)` keeps the reshape);
- the reshape's source is produced by a structured (linalg) op;
- no other operand already offers a better fusion: a single-use structured producer of another
  operand with as many parallel loops as the consumer keeps the reshape where it is (as does
  one with fewer than the reshape's producer, or a reduction when the reshape's producer is
  elementwise); one with fewer parallel loops than the consumer is ignored.

IREE's other half (bubbling `tensor.collapse_shape` up through cloneable producers) is not
modelled.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation, OpResult
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ireelab.compiler.flow import structured as st
from ireelab.compiler.flow.collapse_dimensions import Groups, collapse_op
from ireelab.compiler.flow.elementwise_op_fusion import is_bit_extend


def _parallel_loops(op: Operation) -> int:
    return st.iterator_types(op).count("parallel")


def _all_parallel(op: Operation) -> bool:
    return _parallel_loops(op) == len(st.iterator_types(op))


def _producer(value) -> Operation | None:
    return value.op if isinstance(value, OpResult) else None


def should_sink(expand: tensor.ExpandShapeOp, consumer: Operation) -> bool:
    """IREE's `shouldSinkExpandShapeOp` for the edge expand -> consumer."""
    if not st.is_generic(consumer) or not _all_parallel(consumer) or is_bit_extend(consumer):
        return False
    if not all(m.is_projected_permutation() for m in st.indexing_maps(consumer)):
        return False  # collapsing loops needs every operand read along plain loop dims
    reshape_producer = _producer(expand.src)
    if not st.is_structured(reshape_producer):
        return False
    for value in consumer.operands:
        current = _producer(value)
        if current is None or not st.is_structured(current) or st.op_use_count(current) != 1:
            continue
        if _all_parallel(reshape_producer) and not _all_parallel(current):
            return False
        if _parallel_loops(current) == _parallel_loops(consumer):
            return False
        if _parallel_loops(current) < _parallel_loops(consumer):
            continue
        if _parallel_loops(current) < _parallel_loops(reshape_producer):
            return False
    return True


def collapsible_groups(expand: tensor.ExpandShapeOp, consumer: Operation) -> Groups:
    """The consumer's loop groups that the reshape's groups of dims map to, where every map of
    the consumer reads each group's loops contiguously and in order, or not at all (MLIR's
    `getCollapsableIterationSpaceDims`)."""
    index = list(consumer.operands).index(expand.result)
    maps = st.indexing_maps(consumer)
    operand_map = maps[index]
    groups: Groups = []
    for dims in expand.reassociation.data:
        positions = [d.value.data for d in dims.data]
        if len(positions) < 2:
            continue
        exprs = [operand_map.results[p] for p in positions]
        if not all(isinstance(e, AffineDimExpr) for e in exprs):
            continue
        loops = [e.position for e in exprs]
        if loops != list(range(loops[0], loops[0] + len(loops))):
            continue
        if all(_reads_contiguously(m, loops) for m in maps):
            groups.append(loops)
    return groups


def _reads_contiguously(amap, loops: list[int]) -> bool:
    positions = [e.position if isinstance(e, AffineDimExpr) else None for e in amap.results]
    present = [loop in positions for loop in loops]
    if not any(present):
        return True
    if not all(present):
        return False
    start = positions.index(loops[0])
    return positions[start : start + len(loops)] == loops


def sink_reshapes(module: ModuleOp) -> None:
    changed = True
    while changed:
        changed = False
        for expand in [o for o in module.walk() if isinstance(o, tensor.ExpandShapeOp)]:
            if expand.parent is None or expand.parent_op() is None:
                continue
            if isinstance(expand.parent_op(), linalg.GenericOp):
                continue
            for use in list(expand.result.uses):
                consumer = use.operation
                if not should_sink(expand, consumer):
                    continue
                groups = collapsible_groups(expand, consumer)
                if groups:
                    collapse_op(consumer, groups)
                    if not expand.result.uses:
                        Rewriter.erase_op(expand)
                    changed = True
                    break
            if changed:
                break


@dataclass(frozen=True)
class SinkReshapesPass(ModulePass):
    """Moves `tensor.expand_shape` past elementwise consumers so they fuse with its producer."""

    name = "iree-dispatch-creation-sink-reshapes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        sink_reshapes(op)
