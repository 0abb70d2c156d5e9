"""`iree_linalg_ext.attention` / `online_attention` on buffers -> loops: IREE's online softmax.

Part of `LinalgExtToLoopsPass`. IREE decomposes attention (`AggregatedOpInterfaceImpl.cpp`,
after `ConvertAttentionToOnlineAttention`) into an online softmax over blocks of keys, in base
2; this lowering computes the same recurrence one key at a time, per row of the output:

    s    = sum_k1 (q * scale * log2(e)) * k       the query is scaled first, as IREE does
    s    = region(s); s += mask                   bool mask: 0 or -inf; float mask * log2(e)
    max' = max(max, s);  c = exp2(max - max');  p = exp2(s - max')
    sum' = sum * c + p;  acc = acc * c + p * v    for every column n of the row
    attention: output = acc / sum                 (acc starts at 0, max at the lowest finite f32)
    online_attention: acc, max and sum are the op's outs, read and written back

The iteration space's dims take their roles from the indexing maps as in IREE's
`AttentionOpDetail`: batch and m (query and output), k1 (query and key), k2 (key and value),
n (value and output). Arithmetic is in f32; f16 / bf16 inputs are rounded where IREE's
decomposition computes in their type (its CPU backend then widens each op to f32 and rounds
back, `ExpandF16OpToF32Pass`), all else is f32 as in IREE's f32 accumulators:

    scale * log2(e) in the scale's type; q * scale in the query's type
    the q.k products and their sum, the mask, max, exp2 and sum in f32 (the outs' type)
    p truncated to the value's type before acc += p * v (accumulated in f32)

The accumulators (attention's output, online_attention's three outs) must be f32: IREE's CPU
path turns an f16-output attention into an online_attention on f32 outs plus a final
truncation, which this lowering does not yet model.
"""

from __future__ import annotations

import math

from xdsl.dialects import arith
from xdsl.dialects import math as xmath
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    Float16Type,
    Float32Type,
    FloatAttr,
    IntegerType,
    f32,
)
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from ireelab.compiler.codegen.loop_builder import Index, LoopBuilder, finish_nest, reduce
from ireelab.diagnostics import CompileError
from ireelab.dialects import iree_linalg_ext as ext

_LOWEST_F32 = -3.4028234663852886e38
"""The max's start (IREE's identity for maximumf with only finite values): a row whose first
scores are masked to -inf still gets c = exp2(lowest - (-inf)) = 0 instead of NaN."""


_NARROW = (Float32Type, Float16Type, BFloat16Type)
"""The input element types: f32, and the 16-bit floats computed as IREE's CPU backend does."""


def _error(op: ext.AttentionLikeOp, message: str) -> CompileError:
    return CompileError.at(op, message, stage="codegen")


def _dims(amap: AffineMap) -> set[int]:
    return amap.used_dims()


def _roles(op: ext.AttentionLikeOp) -> tuple[list[int], list[int], list[int], list[int]]:
    """(rows: batch and m, k1, k2, n) dims of the iteration space, each in order."""
    maps = op.maps()
    q, k, v, o = (_dims(maps[r]) for r in ("query", "key", "value", "output"))
    every = range(maps["query"].num_dims)
    rows = [d for d in every if d in q and d in o]
    k1 = [d for d in every if d in q and d in k and d not in o]
    k2 = [d for d in every if d in k and d in v and d not in q]
    n = [d for d in every if d in v and d in o and d not in q]
    if sorted(rows + k1 + k2 + n) != list(every):
        raise _error(op, f"'{op.name}' indexing maps give a dim no attention role")
    return rows, k1, k2, n


def _constant(builder: LoopBuilder, value: float) -> SSAValue:
    return builder.insert(arith.ConstantOp(FloatAttr(value, f32)))


def _at(builder: LoopBuilder, amap: AffineMap, dims: list[Index | None]) -> list[Index]:
    return [builder.expr(e, dims) for e in amap.results]


def _mask_term(builder: LoopBuilder, mask: SSAValue) -> SSAValue:
    """What the mask adds to a score: 0 or -inf for a boolean, the value * log2(e)."""
    if isinstance(mask.type, IntegerType):
        if mask.type.width.data != 1:
            mask = builder.insert(arith.TruncIOp(mask, IntegerType(1)))
        zero, minus_inf = _constant(builder, 0.0), _constant(builder, -math.inf)
        return builder.select(mask, zero, minus_inf)
    mask = _widen(builder, mask)
    return builder.insert(arith.MulfOp(mask, _constant(builder, math.log2(math.e))))


def _element(value: SSAValue):
    return getattr(value.type, "element_type", value.type)


def _check_types(op: ext.AttentionLikeOp) -> None:
    for value in op.outputs:
        element = _element(value)
        if isinstance(element, AnyFloat) and not isinstance(element, Float32Type):
            raise _error(
                op,
                f"'{op.name}' with {element} accumulators is not supported by numba-cpu"
                " (f32 outs only)",
            )
    for value in op.inputs:
        element = _element(value)
        if isinstance(element, AnyFloat) and not isinstance(element, _NARROW):
            raise _error(
                op, f"'{op.name}' on {element} is not supported by numba-cpu (f32, f16, bf16)"
            )


def _widen(builder: LoopBuilder, value: SSAValue) -> SSAValue:
    """`value` as f32 (exact: an f16 / bf16 value extends without rounding)."""
    if isinstance(value.type, Float32Type) or not isinstance(value.type, AnyFloat):
        return value
    return builder.insert(arith.ExtFOp(value, f32))


def _round_to(builder: LoopBuilder, value: SSAValue, element) -> SSAValue:
    """An f32 `value` rounded to `element` (f16 / bf16) and widened back, as IREE's widened
    half arithmetic rounds each op's result once."""
    if isinstance(element, Float32Type):
        return value
    return _widen(builder, builder.insert(arith.TruncFOp(value, element)))


def _loop_ranges(op: ext.AttentionLikeOp, builder: LoopBuilder) -> list[Index]:
    """`loop_ranges`, a `?` extent read from the first operand that walks the loop along a
    static-or-run-time dim (`LoopBuilder.sizes`)."""
    ranges: list[Index] = list(op.loop_ranges())
    for role, amap in op.maps().items():
        if role == "scale" or all(isinstance(r, SSAValue) or r >= 0 for r in ranges):
            continue
        sizes = builder.sizes(getattr(op, role))
        for size, expr in zip(sizes, amap.results, strict=True):
            known = ranges[expr.position]
            if isinstance(expr, AffineDimExpr) and isinstance(known, int) and known < 0:
                ranges[expr.position] = size
    return ranges


def lower_attention(op: ext.AttentionLikeOp, builder: LoopBuilder) -> None:
    _check_types(op)
    maps, ranges = op.maps(), _loop_ranges(op, builder)
    rows, k1, k2, n = _roles(op)
    online = isinstance(op, ext.OnlineAttentionOp)
    scale_type, query_type = op.scale.type, _element(op.query)
    log2e = _round_to(builder, _constant(builder, math.log2(math.e)), scale_type)
    scale = builder.insert(arith.MulfOp(_widen(builder, op.scale), log2e))
    scale = _round_to(builder, _round_to(builder, scale, scale_type), query_type)
    value_type = _element(op.value)
    dims: list[Index | None] = [None] * len(ranges)
    row_counters, row = builder.nest([ranges[d] for d in rows])
    for d, counter in zip(rows, row_counters, strict=True):
        dims[d] = counter
    acc_map = maps["output"]

    def each_column(at: LoopBuilder, update) -> None:
        counters, inner = at.nest([ranges[d] for d in n])
        column = list(dims)
        for d, counter in zip(n, counters, strict=True):
            column[d] = counter
        update(inner, column)
        finish_nest(counters)

    if online:
        start = [row.load(op.max, _at(row, maps["max"], dims))]
        start.append(row.load(op.sum, _at(row, maps["sum"], dims)))
    else:
        zero = _constant(row, 0.0)
        each_column(row, lambda b, col: b.store(zero, op.output, _at(b, acc_map, col)))
        start = [_constant(row, _LOWEST_F32), zero]

    def key_step(counters, b: LoopBuilder, carried):
        point = list(dims)
        for d, counter in zip(k2, counters, strict=True):
            point[d] = counter
        row_max, row_sum = carried

        def dot_step(inner_counters, c: LoopBuilder, partial):
            at = list(point)
            for d, counter in zip(k1, inner_counters, strict=True):
                at[d] = counter
            q = _widen(c, c.load(op.query, _at(c, maps["query"], at)))
            k = _widen(c, c.load(op.key, _at(c, maps["key"], at)))
            scaled = _round_to(c, c.insert(arith.MulfOp(q, scale)), query_type)
            return [c.insert(arith.AddfOp(partial[0], c.insert(arith.MulfOp(scaled, k))))]

        (score,) = reduce(b, [ranges[d] for d in k1], [_constant(b, 0.0)], dot_step)
        (score,) = b.inline(op.region, [score])
        if op.mask is not None:
            mask = b.load(op.mask, _at(b, maps["mask"], point))
            score = b.insert(arith.AddfOp(score, _mask_term(b, mask)))
        new_max = b.insert(arith.MaximumfOp(row_max, score))
        correction = b.insert(xmath.Exp2Op(b.insert(arith.SubfOp(row_max, new_max))))
        p = b.insert(xmath.Exp2Op(b.insert(arith.SubfOp(score, new_max))))
        new_sum = b.insert(arith.AddfOp(b.insert(arith.MulfOp(row_sum, correction)), p))
        p_v = _round_to(b, p, value_type)

        def update(c: LoopBuilder, column) -> None:
            at = _at(c, acc_map, column)
            for d, counter in zip(k2, counters, strict=True):
                column[d] = counter
            value = _widen(c, c.load(op.value, _at(c, maps["value"], column)))
            old = c.insert(arith.MulfOp(c.load(op.output, at), correction))
            c.store(c.insert(arith.AddfOp(old, c.insert(arith.MulfOp(p_v, value)))), op.output, at)

        each_column(b, update)
        return [new_max, new_sum]

    final_max, final_sum = reduce(row, [ranges[d] for d in k2], start, key_step)
    if online:
        row.store(final_max, op.max, _at(row, maps["max"], dims))
        row.store(final_sum, op.sum, _at(row, maps["sum"], dims))
    else:

        def normalise(b: LoopBuilder, column) -> None:
            at = _at(b, acc_map, column)
            b.store(b.insert(arith.DivfOp(b.load(op.output, at), final_sum)), op.output, at)

        each_column(row, normalise)
    finish_nest(row_counters)
