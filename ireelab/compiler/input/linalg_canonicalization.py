"""The linalg canonicalizations MLIR has and xDSL 0.75 lacks, for `canonicalize`.

Mirrors MLIR's `TransposeOp::fold` (an identity permutation on a tensor folds to its input) and
`FoldTransposeWithTranspose` (LinalgOps.cpp): `transpose(transpose(x, p), q)` becomes one
`transpose(x, r)` with `r[i] = p[q[i]]`, written into the outer transpose's init. The inner
transpose stays while something else reads it; otherwise it is dead and `canonicalize` erases
it. Not modelled: `SwapTransposeWithBroadcast`.

Also MLIR's `EraseIdentityLinalgOp` for `linalg.generic` on tensors: a generic whose indexing
maps are all the same and whose body only yields its block arguments computes nothing; each
result is the operand it yields (through a `tensor.cast` where the types differ only in
which sizes are static). ONNX's Identity and the copies importers write (GroupNormalization's
reshaped input) go, so what reads them reads the tensor itself: two reductions of the same
values then deduplicate in CSE, as they do in IREE.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DenseArrayBase, TensorType, i64
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

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


def _cast_compatible(a: TensorType, b: TensorType) -> bool:
    """`tensor.cast`'s rule: same element type and rank, sizes equal where both are static."""
    if a.element_type != b.element_type or len(a.get_shape()) != len(b.get_shape()):
        return False
    return all(x == y or x < 0 or y < 0 for x, y in zip(a.get_shape(), b.get_shape(), strict=True))


def erase_identity_generic(op: linalg.GenericOp) -> bool:
    """MLIR's `EraseIdentityLinalgOp`: replace a generic that only forwards block arguments
    by the operands it forwards. False (nothing changed) for any other generic."""
    if not op.results or len(set(op.indexing_maps.data)) != 1:
        return False
    operands = [*op.inputs, *op.outputs]
    if not all(isinstance(v.type, TensorType) for v in operands):
        return False
    body = op.body.block
    yield_op = body.first_op
    if yield_op is None or yield_op is not body.last_op or not isinstance(yield_op, linalg.YieldOp):
        return False
    returned: list[SSAValue] = []
    casts: list[Operation] = []
    for value, result in zip(yield_op.operands, op.results, strict=True):
        if not isinstance(value, BlockArgument) or value.block is not body:
            return False
        source = operands[value.index]
        if source.type != result.type:
            if not _cast_compatible(source.type, result.type):
                return False
            cast = tensor.CastOp(source, result.type)
            casts.append(cast)
            source = cast.dest
        returned.append(source)
    if casts:
        Rewriter.insert_op(casts, InsertPoint.before(op))
    hints = [v.name_hint for v in returned]
    Rewriter.replace_op(op, [], returned)
    for v, hint in zip(returned, hints, strict=True):
        v.name_hint = hint
    return True


def erase_identity_generics(root: Operation, ops: Iterable[Operation] | None = None) -> bool:
    """Apply `erase_identity_generic` to every generic under `root` (`ops` when given)."""
    changed = False
    for op in list(root.walk() if ops is None else ops):
        if isinstance(op, linalg.GenericOp) and op.parent is not None:
            changed = erase_identity_generic(op) or changed
    return changed
