"""`Operation.get_trait` / `has_trait` answered from a table per op class and trait.

Not an IREE concept: MLIR answers `op->hasTrait<T>()` from the op's C++ type at compile
time. xDSL's `get_trait` scans the op class's traits with `isinstance` (or `==` for a trait
instance) on every call; a warm 64-layer `ireelab-compile` asks about 30,000 times, about
2 us each. The answer depends only on the class's trait set, which changes only through
`OpTraits.add_trait` (a new frozenset each time), so `install()` keeps each answer with the
frozenset it was computed from and computes it again, with xDSL's own scan, when the set
is another one. A trait that cannot be hashed is always scanned.
"""

from __future__ import annotations

from xdsl.ir import Operation

XDSL_GET_TRAIT = Operation.__dict__["get_trait"].__func__
"""xDSL's scan (the tests compare the two)."""

_answers: dict[tuple, tuple] = {}
"""(op class, trait) -> (the class's trait frozenset, xDSL's answer for it)."""


def get_trait(cls, trait):
    traits = cls.traits._traits  # what `OpTraits.traits` returns once made
    if traits is None:
        traits = cls.traits.traits
    key = (cls, trait)
    try:
        known = _answers.get(key)
    except TypeError:  # an unhashable trait instance
        return XDSL_GET_TRAIT(cls, trait)
    if known is not None and known[0] is traits:
        return known[1]
    found = XDSL_GET_TRAIT(cls, trait)
    _answers[key] = (traits, found)
    return found


get_trait.__doc__ = XDSL_GET_TRAIT.__doc__


def install() -> None:
    Operation.get_trait = classmethod(get_trait)
