"""The integer ops the translator writes as inline expressions compute what their helper
functions compute (`semantics.binary`, `semantics.compare`, `semantics.CASTS`), at the edges of
the i32 and i64 ranges and on random values."""

from __future__ import annotations

import random

import pytest

from ireelab.runtime.vm import semantics

BINARY = ["add", "sub", "mul", "shl", "and", "or", "xor", "shr.s", "shr.u"]
COMPARE = ["eq", "ne", "lt.s", "lte.s", "gt.s", "gte.s"]


def _values(width: int) -> list[int]:
    low, high = -(1 << (width - 1)), (1 << (width - 1)) - 1
    rng = random.Random(width)
    edges = [low, low + 1, high, high - 1, 0, 1, -1, 2, width - 1, width, width + 1]
    return edges + [rng.randint(low, high) for _ in range(30)]


def _evaluate(expression: str, **registers: int) -> int:
    return eval(expression, {"__builtins__": {}}, registers)  # noqa: S307 - our own templates


@pytest.mark.parametrize("width", [32, 64])
@pytest.mark.parametrize("op", BINARY + COMPARE)
def test_inline_expression_matches_the_helper(op, width):
    helper = semantics.binary(op, width) if op in BINARY else semantics.compare(op, width)
    expression = semantics.expression(op, width, "a", "b")
    assert expression is not None
    values = _values(width)
    for a in values:
        for b in values:
            assert _evaluate(expression, a=a, b=b) == helper(a, b), (op, width, a, b)


@pytest.mark.parametrize("name", sorted(semantics.CAST_EXPRESSIONS))
def test_inline_cast_matches_the_helper(name):
    width = 32 if name.startswith("ext.i32") else 64
    expression = semantics.CAST_EXPRESSIONS[name].format(a="a")
    for a in _values(width):
        assert _evaluate(expression, a=a) == semantics.CASTS[name](a), (name, a)


def test_division_keeps_its_helper():
    """Division raises on zero as IREE's VM does, so it stays a call."""
    assert semantics.expression("div.s", 64, "a", "b") is None
    assert semantics.expression("rem.u", 32, "a", "b") is None
