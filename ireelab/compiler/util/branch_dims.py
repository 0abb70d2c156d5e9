"""The `?` sizes of a tensor a host `scf.if` yields, when both branches agree on them.

Mirrors what IREE's Flow relies on for `scf.if -> (tensor<?xf32>)` (MLIR's
`ReifyRankedShapedTypeOpInterface` through the branches, as `iree-compile` prints
`hal.tensor.export %r : tensor<?xf32>{%d}` after one): the result has the sizes both
branches' yielded values have, when those are the same values, defined before the `scf.if`.
Before the ABI gives a public function's arguments their dims, the check is structural:
both yields have the shape of one tensor defined before the `scf.if` (an elementwise op on
it, a destination write into it, or the tensor itself).
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.ir import Block, Operation, OpResult, SSAValue

from ireelab.compiler.util.loop_carried_dims import Finder, shape_source


def _yielded(op: scf.IfOp, index: int) -> list[SSAValue] | None:
    values = []
    for region in op.regions:
        if not region.blocks or not isinstance(region.block.last_op, scf.YieldOp):
            return None  # an scf.if without else yields nothing
        values.append(region.block.last_op.operands[index])
    return values


def _outside(value: SSAValue, op: Operation) -> bool:
    owner = value.owner
    inner = owner if isinstance(owner, Operation) else owner.parent_op()
    assert isinstance(owner, Operation | Block)
    return inner is None or not op.is_ancestor(inner)


def branch_dims(value: SSAValue, find: Finder) -> list[SSAValue] | None:
    """The `?` sizes of an `scf.if` result both branches yield alike; None otherwise."""
    if not isinstance(value, OpResult) or not isinstance(value.op, scf.IfOp):
        return None
    yielded = _yielded(value.op, value.index)
    if yielded is None:
        return None
    dims = [find(v) for v in yielded]
    first = dims[0]
    if first is None or any(d is None or len(d) != len(first) for d in dims):
        return None
    if any(a is not b for d in dims[1:] for a, b in zip(d, first, strict=True)):
        return None
    return first if all(_outside(d, value.op) for d in first) else None


def branches_keep_shape(op: scf.IfOp, index: int, find: Finder) -> bool:
    """Both branches yield, at `index`, the shape of one tensor defined before `op`, or
    sizes `branch_dims` finds."""
    yielded = _yielded(op, index)
    if yielded is None:
        return False
    roots = []
    for value in yielded:
        seen = set()
        while value not in seen:
            seen.add(value)
            source = shape_source(value, find)
            if source is None:
                break
            value = source
        roots.append(value)
    if all(r is roots[0] for r in roots) and _outside(roots[0], op):
        return True
    return branch_dims(op.results[index], find) is not None
