"""Resources carried through host `scf.for` / `scf.if` / `scf.while`: which values are one.

A structural op that carries resources (ConvertToStreamPass's structural patterns, see
`host_loops`) links values that must agree: an `iter_args` operand, the body's block
argument, the value the body yields and the op's result are one loop-carried resource. Each
resource travels with its byte size right after it (`resource, size` pairs), so the size of a
carried resource is the value next to it. IREE's passes learn the same from the
`RegionBranchOpInterface` of the scf ops; RefineUsagePass, the size queries and
PropagateTimepointsPass use this.
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

STRUCTURAL = (scf.ForOp, scf.IfOp, scf.WhileOp)


def _first_carried(op: Operation) -> int:
    """Index of the first carried block argument of the op's entry blocks (a for's first
    argument is its induction variable)."""
    return 1 if isinstance(op, scf.ForOp) else 0


def _yield_of(block: Block) -> Operation | None:
    last = block.last_op
    return last if isinstance(last, scf.YieldOp | scf.ConditionOp) else None


def _terminator_values(op: Operation, block: Block) -> list[SSAValue]:
    term = _yield_of(block)
    if term is None:
        return []
    return list(term.args if isinstance(term, scf.ConditionOp) else term.arguments)


def _slot_values(op: Operation, slot: int) -> list[SSAValue]:
    """Every value of carried slot `slot` of structural `op`."""
    values: list[SSAValue] = []
    if isinstance(op, scf.ForOp):
        values += [op.iter_args[slot], op.body.block.args[slot + 1], op.results[slot]]
        values += _terminator_values(op, op.body.block)[slot : slot + 1]
    elif isinstance(op, scf.IfOp):
        values.append(op.results[slot])
        for region in op.regions:
            if region.blocks:
                values += _terminator_values(op, region.block)[slot : slot + 1]
    elif isinstance(op, scf.WhileOp):
        values += [op.arguments[slot], op.before_region.block.args[slot]]
        values += [op.after_region.block.args[slot], op.results[slot]]
        for region in op.regions:
            values += _terminator_values(op, region.block)[slot : slot + 1]
    return values


def _slots(value: SSAValue) -> list[tuple[Operation, int]]:
    """The (structural op, slot) pairs `value` takes part in."""
    found: list[tuple[Operation, int]] = []
    if isinstance(value, OpResult) and isinstance(value.op, STRUCTURAL):
        found.append((value.op, value.index))
    if isinstance(value, BlockArgument):
        owner = value.block.parent_op()
        if isinstance(owner, STRUCTURAL):
            slot = value.index - _first_carried(owner)
            if slot >= 0:
                found.append((owner, slot))
    for use in value.uses:
        user = use.operation
        if isinstance(user, scf.ForOp) and use.index >= 3:
            found.append((user, use.index - 3))
        elif isinstance(user, scf.WhileOp):
            found.append((user, use.index))
        elif isinstance(user, scf.YieldOp) and isinstance(user.parent_op(), STRUCTURAL):
            found.append((user.parent_op(), use.index))
        elif isinstance(user, scf.ConditionOp) and use.index >= 1:
            found.append((user.parent_op(), use.index - 1))
    return found


def linked_values(value: SSAValue) -> list[SSAValue]:
    """`value` and the values one structural op carries in the same slot."""
    linked = [value]
    for op, slot in _slots(value):
        linked += [v for v in _slot_values(op, slot) if v not in linked]
    return linked


def carried_size(value: SSAValue) -> SSAValue | None:
    """The size travelling beside a carried resource (the next result or block argument)."""
    if isinstance(value, OpResult) and isinstance(value.op, STRUCTURAL):
        return value.op.results[value.index + 1]
    if isinstance(value, BlockArgument) and isinstance(value.block.parent_op(), STRUCTURAL):
        return value.block.args[value.index + 1]
    return None
