"""Constant SSA offsets, sizes and strides written into the slice op, as MLIR's canonicalizer
does.

Mirrors `OpWithOffsetSizesAndStridesConstantArgumentFolder` of MLIR's TensorOps.cpp on
`tensor.extract_slice` / `tensor.insert_slice` (xDSL's canonicalizer lacks it): an offset,
size or stride given as an `arith.constant` operand becomes a constant in the op
(`%a[%c2] [4] [1]` -> `%a[2] [4] [1]`); an extract_slice whose result gets static sizes that
way gets the sharper type and a `tensor.cast` back to the old one for its users (MLIR's
`SliceReturnTypeCanonicalizer` + `SliceCanonicalizer`). The later stages then see a static
slice. (`ReplaceEmptyTensorStaticShapeDims`, the same for `tensor.empty`, is not modelled: its
cast back would sit in a linalg op's `outs`, which ireelab's cast folds do not handle.)
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IntegerAttr, TensorType, i64
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.diagnostics import copy_location

_KEYS = ("offsets", "sizes", "strides")


def _constant(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _folded(op: Operation, key: str) -> tuple[list[int], list[SSAValue]] | None:
    """The op's `key` list with constant operands written in, or None if none is."""
    static = list(op.properties[f"static_{key}"].get_values())
    dynamic = iter(getattr(op, key))
    new_static: list[int] = []
    new_dynamic: list[SSAValue] = []
    changed = False
    for entry in static:
        if entry != DYNAMIC_INDEX:
            new_static.append(entry)
            continue
        value = next(dynamic)
        constant = _constant(value)
        if constant is None or constant < 0:
            new_static.append(DYNAMIC_INDEX)
            new_dynamic.append(value)
            continue
        new_static.append(constant)
        changed = True
    return (new_static, new_dynamic) if changed else None


def _slice_type(op: tensor.ExtractSliceOp, sizes: list[int]) -> TensorType:
    """The result type the folded sizes give (the old one for a rank-reducing slice)."""
    old = op.result.type
    assert isinstance(old, TensorType)
    if len(old.get_shape()) != len(sizes):
        return old
    return TensorType(old.element_type, sizes)


def fold_slice_arguments(op: tensor.ExtractSliceOp | tensor.InsertSliceOp) -> bool:
    folded = {key: _folded(op, key) for key in _KEYS}
    if all(v is None for v in folded.values()):
        return False
    static, dynamic = {}, {}
    for key in _KEYS:
        unchanged = (list(op.properties[f"static_{key}"].get_values()), list(getattr(op, key)))
        static[key], dynamic[key] = folded[key] or unchanged
    if isinstance(op, tensor.ExtractSliceOp):
        result_type = _slice_type(op, static["sizes"])
        head = [op.source]
    else:
        result_type = op.result.type
        head = [op.source, op.dest]
    new = type(op).build(
        operands=[*head, *(dynamic[key] for key in _KEYS)],
        properties={f"static_{k}": DenseArrayBase.from_list(i64, static[k]) for k in _KEYS},
        result_types=[result_type],
    )
    copy_location(op, new)
    _replace_with_cast(op, new)
    return True


def _replace_with_cast(op: Operation, new: Operation) -> None:
    old_type, new_type = op.results[0].type, new.results[0].type
    if old_type == new_type:
        Rewriter.replace_op(op, new)
        return
    cast = tensor.CastOp(new.results[0], old_type)
    copy_location(op, cast)
    Rewriter.insert_op(new, InsertPoint.before(op))
    Rewriter.replace_op(op, cast)


def fold_constant_arguments(root: Operation, ops: Iterable[Operation] | None = None) -> bool:
    """Fold the constant arguments of every slice under `root` (or among `ops`, the ops under
    it in walk order); True if any op changed."""
    slices = [
        op
        for op in (root.walk() if ops is None else ops)
        if isinstance(op, tensor.ExtractSliceOp | tensor.InsertSliceOp)
    ]
    return any([fold_slice_arguments(op) for op in slices])
