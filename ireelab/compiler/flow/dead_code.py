"""Trivially dead ops, and erasing them: what MLIR's greedy pattern driver does to every op it
visits, so `canonicalize` and every pattern-driven IREE pass (EraseUnusedLinalgOperands,
PropagateLinalgTranspose, ...) drop an op whose results nobody uses when it has no side effect.

Mirrors MLIR's `isOpTriviallyDead` / `wouldOpBeTriviallyDead` with the memory effects the ops
declare. xDSL knows the effects of the ops it marks `Pure` (arith, math, tensor); it declares
none for linalg, so linalg ops would count as having unknown effects. MLIR's linalg ops report
effects only for their memref operands (`getGenericEffectsImpl`): on tensors a `linalg.generic`,
`linalg.matmul` or `linalg.fill` is as pure as an `arith.addf`. That rule is added here.
"""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation
from xdsl.rewriter import Rewriter
from xdsl.traits import IsTerminator, SymbolOpInterface
from xdsl.transforms.dead_code_elimination import would_be_trivially_dead


def is_tensor_linalg_op(op: Operation) -> bool:
    """A linalg op that reads and writes no memref: it has no memory effect in MLIR."""
    if op.dialect_name() != "linalg" or op.has_trait(IsTerminator):
        return False
    values = [*op.operands, *op.results]
    return not any(isinstance(v.type, MemRefType) for v in values)


def is_trivially_dead(op: Operation) -> bool:
    """No result is used and the op has no side effect (MLIR's `isOpTriviallyDead`)."""
    if op.parent is None or any(r.uses for r in op.results):
        return False
    if op.has_trait(SymbolOpInterface) or op.has_trait(IsTerminator):
        return False
    return is_tensor_linalg_op(op) or would_be_trivially_dead(op)


def erase_dead_ops(root: Operation) -> int:
    """Erase every trivially dead op nested in `root`, including ops that only become dead
    when their users go (a chain of unused generics, the fills and empties feeding them).
    Returns how many ops were erased."""
    erased = 0
    changed = True
    while changed:
        changed = False
        # Users come after their operands' producers in a block, so a reverse walk erases a
        # dead consumer before it looks at the producer it kept alive; nested ops are visited
        # before the op holding them.
        for op in list(root.walk(reverse=True, region_first=True)):
            if op is root or not is_trivially_dead(op):
                continue
            Rewriter.erase_op(op)
            erased += 1
            changed = True
    return erased
