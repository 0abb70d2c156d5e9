"""CSE with each op's key hashed once per look-up: xDSL's driver, same answers, fewer hashes.

Mirrors MLIR's `Transforms/CSE.cpp` through xDSL's `CSEDriver`, which this subclasses without
changing what it decides. xDSL's `OperationInfo` hashes an op's name, attributes, properties,
result types and operands anew on every `hash()`, and its `__eq__` hashes both sides again,
so one op looked up and then recorded was hashed four times or more, and each use checked by
`_replace_and_delete` twice more. Here a key computes the same hash once when it is made and
keeps it; an op's key is made once per visit, for its look-up and its record. A recorded
key keeps the hash it was recorded with, as the dictionary does in xDSL too (a recorded op's
operands change when a later duplicate's uses are replaced), and equality compares the ops
as they are now, so every look-up finds what xDSL's finds.
"""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType, UnregisteredOp
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.ops import FillOp, YieldOp
from xdsl.ir import Block, Operation, Region
from xdsl.traits import (
    IsolatedFromAbove,
    IsTerminator,
    MemoryEffectKind,
    is_side_effect_free,
    only_has_effect,
)
from xdsl.transforms.common_subexpression_elimination import (
    CSEDriver,
    KnownOps,
    has_other_side_effecting_op_in_between,
)
from xdsl.transforms.dead_code_elimination import is_trivially_dead


def on_tensors_only(op: Operation) -> bool:
    """A linalg op whose operands are all tensors or scalars: MLIR's linalg ops report memory
    effects only for their memref operands (`getGenericEffectsImpl`), so on tensors they are
    free of effects and CSE merges two that are the same, as it does in IREE (two `linalg.fill`
    of one empty, two reductions of one input); xDSL's linalg ops declare no effects at all."""
    if not isinstance(op, LinalgStructuredOperation | FillOp):
        return False
    if any(isinstance(v.type, MemRefType) for v in op.operands):
        return False
    return all(
        is_side_effect_free(inner) or isinstance(inner, YieldOp)
        for region in op.regions
        for inner in region.walk()
    )


class OpKey:
    """xDSL's `OperationInfo` with its hash computed once (the same formula and equality)."""

    __slots__ = ("op", "name", "_hash")

    def __init__(self, op: Operation):
        self.op = op
        self.name = op.op_name.data if isinstance(op, UnregisteredOp) else op.name
        self._hash = hash(
            (
                self.name,
                sum(hash(i) for i in op.attributes.items()),
                sum(hash(i) for i in op.properties.items()),
                hash(op.result_types),
                hash(op.operands),
            )
        )

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        """xDSL's equality without its hash comparison, which the fields' equality implies
        (the hash is made of them; a dictionary compares the hashes before calling this)."""
        if not isinstance(other, OpKey):
            return False
        mine, theirs = self.op, other.op
        return (
            self.name == other.name
            and mine.attributes == theirs.attributes
            and mine.properties == theirs.properties
            and mine.operands == theirs.operands
            and mine.result_types == theirs.result_types
            and all(
                s.is_structurally_equivalent(o)
                for s, o in zip(mine.regions, theirs.regions, strict=True)
            )
        )


class KeyedOps(KnownOps):
    """xDSL's `KnownOps` keyed by `OpKey`s: a scope copied from its parent, as there."""

    def __init__(self, known_ops: KnownOps | None = None):
        self._known_ops = {} if known_ops is None else dict(known_ops._known_ops)

    def __getitem__(self, k: Operation):
        return self._known_ops[OpKey(k)]

    def __setitem__(self, k: Operation, v: Operation):
        self._known_ops[OpKey(k)] = v

    def __contains__(self, k: Operation) -> bool:
        return OpKey(k) in self._known_ops

    def get(self, k: Operation, default=None):
        return self._known_ops.get(OpKey(k), default)

    def pop(self, k: Operation):
        return self._known_ops.pop(OpKey(k))


class FewerHashesCSEDriver(CSEDriver):
    """`CSEDriver` whose `_simplify_operation` makes the op's key once for its look-up and
    its record, with xDSL's scopes (a copy per single-block region, a fresh one inside an op
    that may be isolated from above) made as `KeyedOps`; replacement and erasure are xDSL's."""

    def __post_init__(self):
        self._known_ops = KeyedOps()

    def _simplify_block(self, block: Block):
        for op in block.ops:
            if op.regions:
                if op.has_trait(IsolatedFromAbove, value_if_unregistered=True):
                    old_scope, self._known_ops = self._known_ops, KeyedOps()
                    for region in op.regions:
                        self._simplify_region(region)
                    self._known_ops = old_scope
                else:
                    for region in op.regions:
                        self._simplify_region(region)
            self._simplify_operation(op)

    def _simplify_region(self, region: Region):
        if len(region.blocks) == 1:
            old_scope, self._known_ops = self._known_ops, KeyedOps(self._known_ops)
            self._simplify_block(region.block)
            self._known_ops = old_scope

    def _simplify_operation(self, op: Operation):
        if op.has_trait(IsTerminator):
            return
        if is_trivially_dead(op):
            self._mark_erasure(op)
            return
        if any(len(region.blocks) > 1 for region in op.regions):
            return
        known = self._known_ops._known_ops
        key = OpKey(op)
        if not is_side_effect_free(op) and not on_tensors_only(op):
            if not only_has_effect(op, MemoryEffectKind.READ):
                return
            if existing := known.get(key):
                if (
                    op.parent_block() is existing.parent_block()
                    and not has_other_side_effecting_op_in_between(existing, op)
                ):
                    self._replace_and_delete(op, existing)
                    return
            known[key] = op
            return
        if existing := known.get(key):
            self._replace_and_delete(op, existing)
            return
        known[key] = op
