"""Fusing one `linalg.generic` into another, and tidying a generic's operand list.

Mirrors MLIR's `ElementwiseOpFusion.cpp` (`areElementwiseOpsFusable`, `fuseElementwiseOps`,
the indexing-map composition that re-expresses the producer's operands in the consumer's
loops, with the producer's `linalg.index` ops counted in the consumer's loops) and the
generic-op canonicalisation that drops duplicate and dead operands. IREE's
ElementwiseOpFusionPass and FuseMultiUseElementwiseProducerPass decide *when* to fuse; this
module does the fusing.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.rewriter import Rewriter

from ireelab.compiler.flow import structured as st


def producer_maps_in_consumer_loops(
    producer: linalg.GenericOp, result: OpResult, consumer_map: AffineMap
) -> list[AffineMap] | None:
    """Each producer operand's map rewritten over the consumer's loops, or None if the
    producer's result map is not invertible."""
    inverse = st.result_map(result).inverse_permutation()
    if inverse is None:
        return None
    to_producer_loops = inverse.compose(consumer_map)
    return [m.compose(to_producer_loops) for m in st.indexing_maps(producer)]


def can_fuse(producer: Operation, consumer: Operation, operand_index: int) -> bool:
    """MLIR's structural legality: an all-parallel generic producer, a generic consumer that
    reads it as an input through a map with one result per producer loop, a permutation result
    map, and every consumer loop still reached by some operand after fusion."""
    if not (st.is_generic(producer) and st.is_generic(consumer)):
        return False
    if not st.is_all_parallel(producer) or operand_index >= len(st.inputs(consumer)):
        return False
    value = consumer.operands[operand_index]
    if not isinstance(value, OpResult) or value.op is not producer:
        return False
    consumer_map = st.operand_map(consumer, operand_index)
    if len(consumer_map.results) != st.num_loops(producer):
        return False
    if not st.is_permutation(st.result_map(value)):
        return False
    n_in = len(st.inputs(producer))
    if any(arg.uses for arg in producer.body.block.args[n_in:]):
        return False  # the producer reads its init: not a pure elementwise op
    maps = producer_maps_in_consumer_loops(producer, value, consumer_map)
    if maps is None or not _indices_expressible(producer, _producer_loops(value, consumer_map)):
        return False
    if st.is_all_parallel(consumer):
        return True
    # A reduction consumer needs each of its loops still bound by some operand's shape.
    kept = [m for i, m in enumerate(st.indexing_maps(consumer)) if i != operand_index]
    n_prod_inputs = len(st.inputs(producer))
    return _plain_dims(kept + maps[:n_prod_inputs]) == set(range(st.num_loops(consumer)))


def _plain_dims(maps: list[AffineMap]) -> set[int]:
    """Loops that appear alone as some map result: their range is read off a shape."""
    return {e.position for m in maps for e in m.results if isinstance(e, AffineDimExpr)}


def same_point_reads(producer: Operation, consumer: Operation, operand_index: int) -> list[int]:
    """The consumer inputs that read one of `producer`'s results at the same producer point as
    input `operand_index` does (MLIR fuses every use of the producer in the consumer: reads
    at one point are all the producer's yields there)."""
    value = consumer.operands[operand_index]
    point = _producer_loops(value, st.operand_map(consumer, operand_index))
    found = []
    for i, other in enumerate(st.inputs(consumer)):
        if not isinstance(other, OpResult) or other.op is not producer:
            continue
        if not st.is_permutation(st.result_map(other)):
            continue
        if _producer_loops(other, st.operand_map(consumer, i)) == point:
            found.append(i)
    return found


def reads_elsewhere(producer: Operation, consumer: Operation, operand_index: int) -> bool:
    """The consumer reads some result of `producer` at another point than input
    `operand_index` does (fusing one of the reads would leave the other reading the fused
    op's own result)."""
    reads = [i for i, v in enumerate(consumer.operands) if isinstance(v, OpResult)]
    reads = [i for i in reads if consumer.operands[i].op is producer]
    return set(reads) != set(same_point_reads(producer, consumer, operand_index))


def fuse(
    producer: linalg.GenericOp,
    consumer: linalg.GenericOp,
    operand_index: int,
    keep_producer_results: bool = False,
) -> linalg.GenericOp:
    """Build the fused generic and replace `consumer` (and `producer`'s results) with it.

    Every input of the consumer that reads a producer result at the same point as input
    `operand_index` takes the producer's yield there (callers refuse reads at other points,
    `reads_elsewhere`). With `keep_producer_results`, the producer's results stay results of
    the fused op (for their other users); otherwise the producer must have no other users.
    """
    value = consumer.operands[operand_index]
    assert isinstance(value, OpResult)
    consumer_map = st.operand_map(consumer, operand_index)
    prod_maps = producer_maps_in_consumer_loops(producer, value, consumer_map)
    assert prod_maps is not None
    fused_reads = same_point_reads(producer, consumer, operand_index)
    n_pin = len(st.inputs(producer))
    n_cin = len(st.inputs(consumer))
    c_maps = st.indexing_maps(consumer)
    c_ins, c_outs = st.inputs(consumer), st.inits(consumer)
    p_ins, p_outs = st.inputs(producer), st.inits(producer)

    # inputs in order: the consumer's, the producer's in place of the fused read
    new_ins: list[SSAValue] = []
    new_in_maps: list[AffineMap] = []
    sources: list[tuple[Block, int]] = []  # (block, argument index) each new input stands for
    p_block, c_block = producer.body.block, consumer.body.block
    for i in range(n_cin):
        if i == operand_index:
            new_ins += p_ins
            new_in_maps += prod_maps[:n_pin]
            sources += [(p_block, j) for j in range(n_pin)]
        elif i not in fused_reads:
            new_ins.append(c_ins[i])
            new_in_maps.append(c_maps[i])
            sources.append((c_block, i))
    new_outs = [*(p_outs if keep_producer_results else []), *c_outs]
    new_out_maps = [*(prod_maps[n_pin:] if keep_producer_results else []), *c_maps[n_cin:]]
    if keep_producer_results:
        sources += [(p_block, n_pin + j) for j in range(len(p_outs))]
    sources += [(c_block, n_cin + j) for j in range(len(c_outs))]

    arg_types = [v.type.get_element_type() for v in [*new_ins, *new_outs]]
    block = Block(arg_types=arg_types)
    p_arg_map: dict[SSAValue, SSAValue] = {}
    c_arg_map: dict[SSAValue, SSAValue] = {}
    for i, (arg, (owner, index)) in enumerate(zip(block.args, sources, strict=True)):
        arg.name_hint = "in" if i < len(new_ins) else "out"
        (p_arg_map if owner is p_block else c_arg_map)[owner.args[index]] = arg
    if not keep_producer_results:
        # The producer's init is only read if its body reads `out`; an all-parallel
        # elementwise producer's out is its own empty, so map it to the consumer's out.
        first_out = block.args[len(new_ins)]
        for i in range(len(p_outs)):
            p_arg_map[p_block.args[n_pin + i]] = first_out

    producer_yield = _clone_body(p_block, block, p_arg_map)
    _remap_producer_indices(producer, p_arg_map, _producer_loops(value, consumer_map))
    for i in fused_reads:
        c_arg_map[c_block.args[i]] = producer_yield[c_ins[i].index]
    consumer_yield = _clone_body(c_block, block, c_arg_map)
    yielded = [*(producer_yield if keep_producer_results else []), *consumer_yield]
    block.add_op(linalg.YieldOp(*yielded))

    fused = st.make_generic(
        new_ins, new_outs, Region(block), [*new_in_maps, *new_out_maps], st.iterator_types(consumer)
    )
    Rewriter.insert_op(fused, _before(consumer))
    n_keep = len(p_outs) if keep_producer_results else 0
    for i, r in enumerate(consumer.results):
        r.replace_all_uses_with(fused.results[n_keep + i])
    Rewriter.erase_op(consumer)
    if keep_producer_results:
        for i, r in enumerate(producer.results):
            r.replace_all_uses_with(fused.results[i])
    if all(not r.uses for r in producer.results):
        Rewriter.erase_op(producer)
    return fused


def _producer_loops(result: OpResult, consumer_map: AffineMap) -> AffineMap:
    """Consumer loops -> producer loops (one result per producer loop)."""
    inverse = st.result_map(result).inverse_permutation()
    assert inverse is not None
    return inverse.compose(consumer_map)


def _indices_expressible(producer: linalg.GenericOp, to_producer: AffineMap) -> bool:
    """Each producer loop the body reads with `linalg.index` is a consumer loop or a
    constant in the consumer (what `_remap_producer_indices` can write without affine.apply)."""
    used = {o.dim.value.data for o in producer.body.walk() if isinstance(o, linalg.IndexOp)}
    return all(isinstance(to_producer.results[d], AffineDimExpr | AffineConstantExpr) for d in used)


def _remap_producer_indices(
    producer: linalg.GenericOp, cloned: dict[SSAValue, SSAValue], to_producer: AffineMap
) -> None:
    """The producer's `linalg.index d`, cloned into the fused body, counted in the consumer's
    loops: `linalg.index j` where producer loop d is consumer loop j, the constant where the
    consumer reads it at a fixed position (MLIR's fused region applies the same map)."""
    for old in [o for o in producer.body.walk() if isinstance(o, linalg.IndexOp)]:
        index_op = cloned[old.result].owner
        expr = to_producer.results[old.dim.value.data]
        if isinstance(expr, AffineDimExpr):
            new = linalg.IndexOp(expr.position)
        else:
            new = arith.ConstantOp(IntegerAttr(expr.value, IndexType()))
        new.location = index_op.location
        Rewriter.replace_op(index_op, new)


def _before(op: Operation):
    from xdsl.rewriter import InsertPoint

    return InsertPoint.before(op)


def _clone_body(src: Block, dst: Block, value_map: dict[SSAValue, SSAValue]) -> list[SSAValue]:
    """Clone `src`'s ops (but its yield) into `dst`; return the values it yields."""
    yielded: list[SSAValue] = []
    for op in src.ops:
        if isinstance(op, linalg.YieldOp):
            yielded = [value_map.get(v, v) for v in op.operands]
            continue
        clone = op.clone(value_mapper=value_map)
        dst.add_op(clone)
        for old, new in zip(op.results, clone.results, strict=True):
            value_map[old] = new
    return yielded


# ---- canonicalisation: duplicate and dead inputs ----------------------------------------


def drop_redundant_inputs(op: linalg.GenericOp) -> linalg.GenericOp:
    """Merge inputs that repeat (same value, same map) and drop inputs the body never reads,
    as MLIR's generic canonicalisation does; returns the (possibly new) op."""
    ins, outs = st.inputs(op), st.inits(op)
    maps = st.indexing_maps(op)
    block = op.body.block
    keep: list[int] = []
    replace_arg: dict[int, int] = {}
    seen: dict[tuple[SSAValue, str], int] = {}
    for i, value in enumerate(ins):
        key = (value, str(maps[i]))
        if key in seen:
            replace_arg[i] = seen[key]
            continue
        if not block.args[i].uses and _loops_still_covered(op, excluding=i, kept=keep):
            continue
        seen[key] = i
        keep.append(i)
    if len(keep) == len(ins):
        return op
    for i, j in replace_arg.items():
        block.args[i].replace_all_uses_with(block.args[j])
    new_block = Block(
        arg_types=[a.type for k, a in enumerate(block.args) if k in keep or k >= len(ins)]
    )
    mapping: dict[SSAValue, SSAValue] = {}
    new_args = iter(new_block.args)
    for k, arg in enumerate(block.args):
        if k in keep or k >= len(ins):
            mapping[arg] = next(new_args)
    for inner in list(block.ops):
        inner.detach()
        new_block.add_op(inner)
    for old, new in mapping.items():
        old.replace_all_uses_with(new)
    generic = st.make_generic(
        [ins[i] for i in keep],
        outs,
        Region(new_block),
        [maps[i] for i in keep] + maps[len(ins) :],
        st.iterator_types(op),
    )
    Rewriter.replace_op(op, generic)
    return generic


def _loops_still_covered(op: linalg.GenericOp, excluding: int, kept: list[int]) -> bool:
    maps = st.indexing_maps(op)
    n_in = len(st.inputs(op))
    others = [
        m
        for i, m in enumerate(maps)
        if i != excluding and (i >= n_in or i > excluding or i in kept)
    ]
    return _plain_dims(others) == set(range(st.num_loops(op)))
