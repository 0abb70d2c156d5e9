"""Integer ranges of VM register values, for the translator (what LLVM's or the C compiler's
range analysis does for IREE's EmitC output; IREE's `util` dialect's IntegerRangeAnalysis does
the same on the host IR).

An `i32`/`i64` register always holds a value in its signed range (every op's result is
wrapped). An operation whose operands' ranges prove its exact result in range needs no wrap:
the translator then writes the plain Python operation, and knows the result's range in turn.
A `?` function's size arithmetic (`dim * 4`, the halves of an i64 push constant, a workgroup
count's `ceildiv`) is mostly such operations once the dims' range is known
(`hal.buffer_view.dim`: `buffer_view.DIM_LIMIT`).
"""

from __future__ import annotations

Range = tuple[int, int]


def full(width: int) -> Range:
    """Every value of a signed `width`-bit register."""
    half = 1 << (width - 1)
    return (-half, half - 1)


def within(value: Range, width: int) -> bool:
    low, high = full(width)
    return low <= value[0] and value[1] <= high


def exact(op: str, a: Range, b: Range) -> Range | None:
    """The range of the exact (unwrapped) result of `op` on operands in `a` and `b`, or None
    when this analysis does not bound it."""
    (al, ah), (bl, bh) = a, b
    if op == "add":
        return (al + bl, ah + bh)
    if op == "sub":
        return (al - bh, ah - bl)
    if op == "mul":
        products = (al * bl, al * bh, ah * bl, ah * bh)
        return (min(products), max(products))
    if op == "div.s" and bl == bh and bl > 0:  # by a positive constant: truncating, monotone
        return (_truncating_div(al, bl), _truncating_div(ah, bl))
    if op == "and" and bl == bh and bl >= 0:
        return (0, bl)
    if op == "and" and al == ah and al >= 0:
        return (0, al)
    return None


def unsigned_shift(a: Range, shift: int, width: int) -> Range:
    """The range of `shr.u` by the constant `shift` (0 < shift < width)."""
    if a[0] >= 0:
        return (a[0] >> shift, a[1] >> shift)
    return (0, ((1 << width) - 1) >> shift)


def union(a: Range, b: Range) -> Range:
    return (min(a[0], b[0]), max(a[1], b[1]))


def _truncating_div(a: int, b: int) -> int:
    quotient = abs(a) // b
    return quotient if a >= 0 else -quotient
