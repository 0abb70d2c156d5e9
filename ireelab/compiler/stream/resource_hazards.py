"""Does an async op have to wait for the op that produced one of its operands?

Mirrors IREE's ResourceHazardAnalysis (Stream/Analysis/ResourceHazards.cpp), which
ScheduleConcurrencyPass asks before putting a consumer in the same concurrent wave as its
producer. Each async op that implements IREE's `AsyncAccessOpInterface` lists the byte ranges
it reads and writes; a producer and a consumer conflict when they touch overlapping bytes of
the same resource and one of them writes. Ops without byte ranges (allocas, transfers) always
conflict with their users.

IREE compares ranges of the same SSA value; ireelab compares ranges of the same storage
(following in-place ties, `tied_storage`), which agrees with IREE on chains of updates into
disjoint ranges (a `tensor.concat` on the outer dimension: every copy in one wave) and is
never less strict. Bounds are integers where they are constants, else the SSA values
themselves: two ranges with a bound that is not constant are disjoint only when one ends
where the other starts (the same value), as IREE's `doesRangeOverlap` decides for all of
them (a concat of `?` inputs: the second copy starts at the first one's size).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation, SSAValue

from ireelab.compiler.stream.index_constants import constant_value
from ireelab.compiler.stream.tied_storage import tied_root
from ireelab.dialects import stream

Bound = int | SSAValue
"""A byte offset: its value when it is a constant, else the SSA value computing it."""


@dataclass(frozen=True)
class AccessRange:
    """Bytes [start, end) of a storage, read or written."""

    storage: SSAValue
    start: Bound
    end: Bound
    writes: bool


def _bound(value: SSAValue | int) -> Bound:
    if isinstance(value, int):
        return value
    constant = constant_value(value)
    return value if constant is None else constant


def _range(value: SSAValue, start: SSAValue | int, end: SSAValue, writes: bool) -> AccessRange:
    return AccessRange(tied_root(value), _bound(start), _bound(end), writes)


def _dispatch_ranges(op: stream.AsyncDispatchOp) -> list[AccessRange]:
    tied = {op.resource_operands[t] for t in op.tied() if t >= 0}
    ranges = [
        _range(value, offset, end, value in tied)
        for value, _size, offset, end, _length in op.resource_ranges()
    ]
    for result, size, t in zip(op.outputs, op.result_sizes, op.tied(), strict=True):
        if t < 0:
            ranges.append(_range(result, 0, size, True))
    return ranges


def access_ranges(op: Operation) -> list[AccessRange] | None:
    """What `op` reads and writes, or None when it does not say."""
    match op:
        case stream.AsyncUpdateOp():
            ranges = [
                _range(op.update, 0, op.update_size, False),
                _range(op.target, op.target_offset, op.target_end, True),
            ]
        case stream.AsyncCopyOp():
            ranges = [
                _range(op.source, op.source_offset, op.source_end, False),
                _range(op.target, op.target_offset, op.target_end, True),
            ]
        case stream.AsyncSliceOp():
            ranges = [
                _range(op.source, op.source_offset, op.source_end, False),
                _range(op.result, 0, op.result_size, True),
            ]
        case stream.AsyncCloneOp():
            ranges = [
                _range(op.source, 0, op.source_size, False),
                _range(op.result, 0, op.result_size, True),
            ]
        case stream.AsyncFillOp():
            ranges = [_range(op.target, op.target_offset, op.target_end, True)]
        case stream.AsyncSplatOp():
            ranges = [_range(op.result, 0, op.result_size, True)]
        case stream.AsyncDispatchOp():
            ranges = _dispatch_ranges(op)
        case _:
            return None
    return ranges


def _same(a: Bound, b: Bound) -> bool:
    return a is b if isinstance(a, SSAValue) or isinstance(b, SSAValue) else a == b


def _overlap(a: AccessRange, b: AccessRange) -> bool:
    if _same(a.end, b.start) or _same(b.end, a.start):
        return False  # adjacent
    bounds = (a.start, a.end, b.start, b.end)
    if all(isinstance(x, int) for x in bounds):
        return a.start < b.end and b.start < a.end
    return True  # not known apart


def _conflict(a: AccessRange, b: AccessRange) -> bool:
    if a.storage is not b.storage or not (a.writes or b.writes):
        return False
    return _overlap(a, b)


def has_hazard(producer: Operation, consumer: Operation) -> bool:
    """Must `consumer` (a user of `producer`'s results) run after `producer` finishes?"""
    produced = access_ranges(producer)
    consumed = access_ranges(consumer)
    if produced is None or consumed is None:
        return True
    return any(_conflict(p, c) for p in produced for c in consumed)
