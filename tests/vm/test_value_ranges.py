"""`vm.value_ranges` is sound: for operands drawn from two ranges, the exact result of each op
lies in the range it computes (the translator leaves a wrap out only on that proof)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ireelab.runtime.vm import semantics, value_ranges

I64 = st.integers(-(1 << 63), (1 << 63) - 1)


@st.composite
def range_and_point(draw, values=I64):
    low, high = sorted((draw(values), draw(values)))
    return (low, high), draw(st.integers(low, high))


@given(range_and_point(), range_and_point(), st.sampled_from(["add", "sub", "mul"]))
def test_add_sub_mul_results_lie_in_the_range(a, b, op):
    (ra, x), (rb, y) = a, b
    low, high = value_ranges.exact(op, ra, rb)
    exact = {"add": x + y, "sub": x - y, "mul": x * y}[op]
    assert low <= exact <= high
    if value_ranges.within((low, high), 64):  # then the wrapped op is the plain one
        assert semantics.binary(op, 64)(x, y) == exact


@given(range_and_point(), st.integers(1, 1 << 20))
def test_division_by_a_positive_constant(a, k):
    ra, x = a
    low, high = value_ranges.exact("div.s", ra, (k, k))
    quotient = semantics.binary("div.s", 64)(x, k)
    assert low <= quotient <= high


@given(range_and_point(), st.integers(1, 63))
def test_unsigned_shift(a, shift):
    ra, x = a
    low, high = value_ranges.unsigned_shift(ra, shift, 64)
    assert low <= semantics.binary("shr.u", 64)(x, shift) <= high
    assert value_ranges.within((low, high), 64)


@given(range_and_point(), st.integers(0, (1 << 63) - 1))
def test_and_with_a_non_negative_constant(a, mask):
    ra, x = a
    low, high = value_ranges.exact("and", ra, (mask, mask))
    assert low <= (x & mask) <= high
