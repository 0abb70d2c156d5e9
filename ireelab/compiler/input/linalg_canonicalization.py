"""The `linalg.transpose` canonicalizations MLIR has and xDSL 0.75 lacks, for `canonicalize`.

Mirrors MLIR's `TransposeOp::fold` (an identity permutation on a tensor folds to its input) and
`FoldTransposeWithTranspose` (LinalgOps.cpp): `transpose(transpose(x, p), q)` becomes one
`transpose(x, r)` with `r[i] = p[q[i]]`, written into the outer transpose's init. The inner
transpose stays while something else reads it; otherwise it is dead and `canonicalize` erases
it. Not modelled: `SwapTransposeWithBroadcast`.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects.builtin import DenseArrayBase, TensorType, i64
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from ireelab.dialects.linalg_transpose import TransposeOp


def compose_permutations(inner: list[int], outer: list[int]) -> list[int]:
    """The permutation of `transpose(transpose(x, inner), outer)`: result dim i reads x's dim
    `inner[outer[i]]` (MLIR's `applyPermutation(inner, outer)`)."""
    return [inner[d] for d in outer]


def is_identity_permutation(perm: list[int]) -> bool:
    return perm == list(range(len(perm)))


def forward_operand(op: Operation, value: SSAValue) -> None:
    """Replace `op`'s one result by `value`, which keeps its own name (xDSL would otherwise
    rename it after the result it replaces, and the IR would call `x` by its transpose's name)."""
    hint = value.name_hint
    Rewriter.replace_op(op, [], [value])
    value.name_hint = hint


def _permutation(op: linalg.TransposeOp) -> list[int]:
    return list(op.permutation.get_values())


def fold_transpose(op: linalg.TransposeOp) -> bool:
    """Fold one tensor transpose: identity -> its input; of a transpose -> one transpose."""
    source = op.inputs[0]
    if not isinstance(source.type, TensorType) or not op.results:
        return False
    perm = _permutation(op)
    if is_identity_permutation(perm):
        forward_operand(op, source)
        return True
    producer = source.owner
    if not isinstance(producer, linalg.TransposeOp):
        return False
    composed = compose_permutations(_permutation(producer), perm)
    new = TransposeOp(producer.inputs[0], op.outputs[0], DenseArrayBase.from_list(i64, composed))
    Rewriter.replace_op(op, new)
    return True


def fold_linalg_transposes(root: Operation, ops: Iterable[Operation] | None = None) -> bool:
    """Apply `fold_transpose` to every transpose under `root` until none changes (the first
    sweep over `ops`, the ops under `root` in walk order, when given)."""
    changed = False
    progress = True
    while progress:
        progress = False
        for op in list(root.walk() if ops is None else ops):
            if isinstance(op, linalg.TransposeOp) and op.parent is not None and fold_transpose(op):
                progress = changed = True
        ops = None  # ops made by a fold are only found by walking again
    return changed
