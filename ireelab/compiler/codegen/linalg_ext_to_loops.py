"""`LinalgExtToLoopsPass` (`iree-linalg-ext-to-loops`): `iree_linalg_ext` ops on buffers -> loops.

IREE's CPU pipeline runs this pass after bufferization, right before `ConvertLinalgToLoopsPass`:
each op builds the loops of its iteration domain and fills them with its scalar implementation
(`generateScalarImplementation` in IREE's `LinalgExt/IR/TilingInterfaceImpl.cpp`). Written
here from those semantics, op by op:

- `arg_compare`: over the input's domain, the comparator `(candidate, best)` picks the value
  and its index (the position along `dimension`, plus `index_base`, or the explicit index);
- `sort`: a bubble sort along `dimension` for every other position, swapping a pair of
  every operand when the comparator says the later element goes first (stable);
- `topk` / `topk_v2`: every input element is carried through the K kept ones, swapped in
  where the comparator prefers it; an equal value keeps the earlier index; a sorted
  `topk_v2` then bubble-sorts the kept ones after each insertion, as IREE does;
- `scatter` / `gather`: the coordinates of each batch entry read from `indices` (index
  cast, `dimension_map` saying which dim each addresses) offset the slice's own loops; the
  scatter region combines `(update, original)`; a `mask` entry of false skips the entry;
- `scan`: prefix combination along `dimension`, inclusive or exclusive, the accumulator
  receiving each new value as IREE's does;
- `attention` / `online_attention`: an online softmax (`attention_to_loops.py`);
- `winograd.input_transform` / `output_transform`: F(6x6, 3x3) tile transforms
  (`winograd_to_loops.py`);
- `fft`: one radix-2 Cooley-Tukey stage along the innermost dim (`fft_to_loops.py`).

Swaps and selections are `arith.select` (branch-free, so the loops stay simple for LLVM); a
mask is an `scf.if`, because a masked-off entry's coordinates need not be in bounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerType, ModuleOp, ShapedType
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.codegen.attention_to_loops import lower_attention
from ireelab.compiler.codegen.executables import export_sites
from ireelab.compiler.codegen.fft_to_loops import lower_fft
from ireelab.compiler.codegen.loop_builder import Index, LoopBuilder, close, finish_nest
from ireelab.compiler.codegen.winograd_to_loops import (
    lower_input_transform,
    lower_output_transform,
)
from ireelab.diagnostics import CompileError
from ireelab.dialects import iree_linalg_ext as ext


def _shape(value: SSAValue) -> tuple[int, ...]:
    shaped = value.type
    assert isinstance(shaped, ShapedType)
    return tuple(shaped.get_shape())


def _element(value: SSAValue):
    shaped = value.type
    assert isinstance(shaped, ShapedType)
    return shaped.get_element_type()


def _cast_index(builder: LoopBuilder, value: SSAValue, to) -> SSAValue:
    """`arith.index_cast` between index and an integer type (none when equal)."""
    if value.type == to:
        return value
    return builder.insert(arith.IndexCastOp(value, to))


def _without(values: Sequence[Index], dimension: int) -> list[Index]:
    return [v for d, v in enumerate(values) if d != dimension]


# ---- the ops ---------------------------------------------------------------------------------


def _arg_compare(op: ext.ArgCompareOp, builder: LoopBuilder) -> None:
    dimension = op.dimension.value.data
    counters, inner = builder.nest(builder.sizes(op.input_value))
    kept = _without(counters, dimension)
    best = inner.load(op.output_value, kept)
    best_index = inner.load(op.output_index, kept)
    candidate = inner.load(op.input_value, counters)
    (wins,) = inner.inline(op.region, [candidate, best])
    if op.input_index is not None:
        index = inner.load(op.input_index, counters)
    else:
        position = inner.add(counters[dimension], op.index_base or 0)
        index = _cast_index(inner, inner.value(position), best_index.type)
    inner.store(inner.select(wins, candidate, best), op.output_value, kept)
    inner.store(inner.select(wins, index, best_index), op.output_index, kept)
    finish_nest(counters)


def _sort(op: ext.SortOp, builder: LoopBuilder) -> None:
    dimension = op.dimension.value.data
    shape = builder.sizes(op.outputs[0])
    counters, inner = builder.nest(_without(shape, dimension))
    size = shape[dimension]
    pairs_end = max(size - 1, 0) if isinstance(size, int) else inner.add(size, -1)
    _, _, sweep_body, _ = inner.loop(0, size)
    j, _, body, _ = sweep_body.loop(0, pairs_end)
    next_j = body.add(j, 1)

    def at(position: Index) -> list[Index]:
        indices: list[Index] = list(counters)
        indices.insert(dimension, position)
        return indices

    later = [body.load(v, at(next_j)) for v in op.outputs]
    earlier = [body.load(v, at(j)) for v in op.outputs]
    pairs = [x for pair in zip(later, earlier, strict=True) for x in pair]
    (swap,) = body.inline(op.region, pairs)
    for buffer, a, b in zip(op.outputs, later, earlier, strict=True):
        body.store(body.select(swap, a, b), buffer, at(j))
        body.store(body.select(swap, b, a), buffer, at(next_j))
    close(body)
    close(sweep_body)
    finish_nest(counters)


def _topk(op: ext.TopkOp | ext.TopkV2Op, builder: LoopBuilder) -> None:
    dimension = op.dimension.value.data
    values, outputs = op.inputs[0], op.outputs
    input_indices = op.inputs[1] if len(op.inputs) > 1 else None
    counters, inner = builder.nest(builder.sizes(values))
    value = inner.load(values, counters)
    out_values = outputs[0]
    out_indices = outputs[1] if len(outputs) > 1 else None
    index_type = _element(out_indices) if out_indices is not None else IntegerType(32)
    if input_indices is not None:
        index = _cast_integer(inner, inner.load(input_indices, counters), index_type)
    else:
        index = _cast_index(inner, counters[dimension], index_type)
    k = builder.sizes(out_values)[dimension]
    slot, (carry, carry_index), body, _ = inner.loop(0, k, [value, index])
    position = list(counters)
    position[dimension] = slot
    kept = body.load(out_values, position)
    kept_index = body.load(out_indices, position) if out_indices is not None else carry_index
    (forward,) = body.inline(op.region, [carry, kept])
    (reverse,) = body.inline(op.region, [kept, carry])
    equal = body.insert(arith.CmpiOp(forward, reverse, "eq"))
    earlier = body.insert(arith.CmpiOp(carry_index, kept_index, "slt"))
    take_index = body.insert(arith.OrIOp(forward, body.insert(arith.AndIOp(equal, earlier))))
    body.store(body.select(forward, carry, kept), out_values, position)
    if out_indices is not None:
        body.store(body.select(take_index, carry_index, kept_index), out_indices, position)
    close(
        body,
        body.select(forward, kept, carry),
        body.select(take_index, kept_index, carry_index),
    )
    if isinstance(op, ext.TopkV2Op) and op.is_sorted is not None:
        _bubble_kept(op, inner, counters, k)
    finish_nest(counters)


def _bubble_kept(op: ext.TopkV2Op, builder: LoopBuilder, counters, k: Index) -> None:
    """`is_sorted`: after each insertion, IREE bubble-sorts the K kept values (their indices
    carried along): K - 1 sweeps over the unsorted front, each pair swapped unless the
    comparator says `(earlier, later)` is in order, so equal values trade places (IREE's
    `emitBubbleSort`; this is why it ranks the indices of three equal maxima 3, 6, 4)."""
    dimension = op.dimension.value.data
    outputs = list(op.outputs)
    last = max(k - 1, 0) if isinstance(k, int) else builder.add(k, -1)
    sweep, _, sweeps, _ = builder.loop(0, last)
    end = sweeps.insert(arith.SubiOp(sweeps.value(last), sweep))
    j, _, body, _ = sweeps.loop(0, end)
    next_j = body.add(j, 1)

    def at(position: Index) -> list[Index]:
        indices: list[Index] = list(counters)
        indices[dimension] = position
        return indices

    earlier = [body.load(v, at(j)) for v in outputs]
    later = [body.load(v, at(next_j)) for v in outputs]
    (in_order,) = body.inline(op.region, [earlier[0], later[0]])
    for buffer, a, b in zip(outputs, earlier, later, strict=True):
        body.store(body.select(in_order, a, b), buffer, at(j))
        body.store(body.select(in_order, b, a), buffer, at(next_j))
    close(body)
    close(sweeps)


def _cast_integer(builder: LoopBuilder, value: SSAValue, to) -> SSAValue:
    """Input indices of another integer width, as the output's (sign-extended or truncated)."""
    if value.type == to:
        return value
    if to.width.data > value.type.width.data:
        return builder.insert(arith.ExtSIOp(value, to))
    return builder.insert(arith.TruncIOp(value, to))


def _coordinates(
    builder: LoopBuilder,
    op: ext.IndexedSlicesOp,
    counters: list[SSAValue],
    rank: int,
) -> list[Index]:
    """Where the slice of batch entry `counters[:batch]` starts in the indexed tensor, plus
    the slice's own counters: IREE's `starts`."""
    batch = op.batch_rank()
    slice_counters = counters[batch:]
    starts: list[Index | None] = [None] * (rank - len(slice_counters)) + list(slice_counters)
    index_dim = len(_shape(op.indices)) > batch
    for i, dim in enumerate(op.dimension_map.get_values()):
        position: list[Index] = list(counters[:batch]) + ([i] if index_dim else [])
        loaded = builder.load(op.indices, position)
        coordinate: Index = _cast_index(builder, loaded, IndexType())
        if starts[dim] is not None:
            coordinate = builder.add(coordinate, starts[dim])
        starts[dim] = coordinate
    return [s if s is not None else 0 for s in starts]


def _masked(builder: LoopBuilder, op: ext.IndexedSlicesOp, counters) -> LoopBuilder:
    if op.mask is None:
        return builder
    flag = builder.load(op.mask, counters[: op.batch_rank()])
    if flag.type != IntegerType(1):
        zero = builder.insert(arith.ConstantOp.from_int_and_width(0, flag.type))
        flag = builder.insert(arith.CmpiOp(flag, zero, "ne"))
    return builder.guarded(flag)


def _scatter(op: ext.ScatterOp, builder: LoopBuilder) -> None:
    counters, inner = builder.nest(builder.sizes(op.updates))
    update = inner.load(op.updates, counters)
    starts = _coordinates(inner, op, counters, len(_shape(op.original)))
    guarded = _masked(inner, op, counters)
    original = guarded.load(op.original, starts)
    (combined,) = guarded.inline(op.region, [update, original])
    guarded.store(combined, op.original, starts)
    if guarded is not inner:
        close(guarded)
    finish_nest(counters)


def _gather(op: ext.GatherOp, builder: LoopBuilder) -> None:
    counters, inner = builder.nest(builder.sizes(op.output))
    starts = _coordinates(inner, op, counters, len(_shape(op.source)))
    guarded = _masked(inner, op, counters)
    guarded.store(guarded.load(op.source, starts), op.output, counters)
    if guarded is not inner:
        close(guarded)
    finish_nest(counters)


def _scan(op: ext.ScanOp, builder: LoopBuilder) -> None:
    dimension = op.dimension.value.data
    shape = builder.sizes(op.input)
    counters, inner = builder.nest(_without(shape, dimension))

    def at(position: Index) -> list[Index]:
        indices: list[Index] = list(counters)
        indices.insert(dimension, position)
        return indices

    inclusive = bool(op.inclusive.value.data)
    first = inner.load(op.input, at(0)) if inclusive else inner.load(op.accumulator, counters)
    inner.store(first, op.output, at(0))
    i, (previous,), body, _ = inner.loop(1, shape[dimension], [first])
    read = i if inclusive else body.insert(arith.SubiOp(i, body.value(1)))
    (value,) = body.inline(op.region, [previous, body.load(op.input, at(read))])
    body.store(value, op.output, at(i))
    body.store(value, op.accumulator, counters)
    close(body, value)
    finish_nest(counters)


def _in_bounds(builder: LoopBuilder, indices: list[SSAValue], shape: Sequence[Index]):
    """`0 <= i < size` for every index (signed compares: a mapping may go negative)."""
    condition = builder.insert(arith.ConstantOp.from_int_and_width(1, 1))
    for index, size in zip(indices, shape, strict=True):
        low = builder.insert(arith.CmpiOp(index, builder.value(0), "sge"))
        high = builder.insert(arith.CmpiOp(index, builder.value(size), "slt"))
        inside = builder.insert(arith.AndIOp(low, high))
        condition = builder.insert(arith.AndIOp(condition, inside))
    return condition


def _map_load(op: ext.MapLoadOp, builder: LoopBuilder) -> None:
    counters, inner = builder.nest(builder.sizes(op.output))
    *indices, padding = inner.inline(op.transformation_region, counters)
    inner.store(padding, op.output, counters)
    guarded = inner.guarded(_in_bounds(inner, indices, builder.sizes(op.source)))
    guarded.store(guarded.load(op.source, indices), op.output, counters)
    close(guarded)
    finish_nest(counters)


def _map_store(op: ext.MapStoreOp, builder: LoopBuilder) -> None:
    counters, inner = builder.nest(builder.sizes(op.input))
    *indices, mask = inner.inline(op.transformation_region, counters)
    guarded = inner.guarded(mask)
    guarded.store(guarded.load(op.input, counters), op.output, indices)
    close(guarded)
    finish_nest(counters)


_LOWERINGS = {
    ext.FftOp: lower_fft,
    ext.WinogradInputTransformOp: lower_input_transform,
    ext.WinogradOutputTransformOp: lower_output_transform,
    ext.MapLoadOp: _map_load,
    ext.MapStoreOp: _map_store,
    ext.AttentionOp: lower_attention,
    ext.OnlineAttentionOp: lower_attention,
    ext.ArgCompareOp: _arg_compare,
    ext.SortOp: _sort,
    ext.TopkOp: _topk,
    ext.TopkV2Op: _topk,
    ext.ScatterOp: _scatter,
    ext.GatherOp: _gather,
    ext.ScanOp: _scan,
}


_STATIC_ONLY = (
    ext.WinogradInputTransformOp,
    ext.WinogradOutputTransformOp,
)
"""Lowerings that size their loops from the types alone; the others read `?` extents from
the buffers (`LoopBuilder.sizes`)."""


def lower_to_loops(op: ext.LinalgExtOp) -> None:
    if op.results:
        raise CompileError.at(
            op, f"'{op.name}' must be bufferized before loop lowering", stage="codegen"
        )
    shaped = [v for v in (*op.inputs, *op.outputs) if isinstance(v.type, ShapedType)]
    if isinstance(op, _STATIC_ONLY) and any(size < 0 for v in shaped for size in _shape(v)):
        raise CompileError.at(
            op, f"'{op.name}' with dynamic shapes is not supported yet", stage="codegen"
        )
    builder = LoopBuilder(InsertPoint.before(op))
    # Constants go first, before every loop this op becomes, so they dominate all uses.
    builder.constants_point = InsertPoint.before(builder.constant(0).owner)
    _LOWERINGS[type(op)](op, builder)
    Rewriter.erase_op(op)


@dataclass(frozen=True)
class LinalgExtToLoopsPass(ModulePass):
    """Lower every `iree_linalg_ext` op of every export to `scf.for` loops on its buffers."""

    name = "iree-linalg-ext-to-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for site in export_sites(op):
            for inner in list(site.function.walk()):
                if isinstance(inner, ext.LinalgExtOp):
                    lower_to_loops(inner)
