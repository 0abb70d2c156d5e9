"""`get_trait` / `has_trait` from a table (`ireelab.dialects.trait_lookup`): installed, the
same answer as xDSL's scan for every registered op class and the traits passes ask about,
again after `add_trait` changes a class's traits, and for a trait that cannot be hashed."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.ir import Operation
from xdsl.irdl import IRDLOperation, irdl_op_definition, traits_def
from xdsl.traits import (
    ConstantLike,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    OpTrait,
    Pure,
    SymbolOpInterface,
)

from ireelab.compiler.context import _IREELAB, _UPSTREAM, make_context
from ireelab.dialects import trait_lookup

ASKED = [IsTerminator, Pure, ConstantLike, IsolatedFromAbove, NoTerminator, SymbolOpInterface]


def test_installed():
    assert Operation.get_trait.__func__ is trait_lookup.get_trait


def test_same_answers_as_xdsls_scan():
    ctx = make_context()
    ops = [op for name, _m, _a in _UPSTREAM + _IREELAB for op in ctx.get_dialect(name).operations]
    assert len(ops) > 300
    asked = [*ASKED, IsTerminator(), Pure(), HasParent(func.FuncOp)]
    for op in ops:
        for trait in asked:
            for _ in range(2):  # computed, then from the table
                assert op.get_trait(trait) is trait_lookup.XDSL_GET_TRAIT(op, trait), (op, trait)
                assert op.has_trait(trait) == (trait_lookup.XDSL_GET_TRAIT(op, trait) is not None)


@dataclass(frozen=True)
class _Marked(OpTrait):
    pass


@dataclass(frozen=True, eq=False, unsafe_hash=False)
class _Unhashable(OpTrait):
    things: list = field(default_factory=list)
    __hash__ = None  # like a trait with a list field


def test_add_trait_changes_the_answer():
    @irdl_op_definition
    class MarkedLaterOp(IRDLOperation):
        name = "test.marked_later"
        traits = traits_def(Pure())

    assert not MarkedLaterOp.has_trait(_Marked)
    MarkedLaterOp.traits.add_trait(_Marked())
    assert MarkedLaterOp.has_trait(_Marked) and MarkedLaterOp.has_trait(Pure)


def test_an_unhashable_trait_is_scanned():
    """A class's traits are a frozenset, so an unhashable trait can only be asked about."""
    unhashable = _Unhashable()
    assert func.FuncOp.get_trait(unhashable) is None
    assert trait_lookup.XDSL_GET_TRAIT(func.FuncOp, unhashable) is None
