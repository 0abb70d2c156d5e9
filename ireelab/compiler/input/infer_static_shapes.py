"""Static sizes a `linalg.generic`'s loops give its `?`-sized operands (MLIR's canonicalizer).

Mirrors three patterns of MLIR's canonicalizer that IREE runs between its passes:

- `InferStaticShapeOfOperands` (LinalgOps.cpp): a loop whose extent one operand states
  statically (a dim of a static result, read through `d0`) has that extent in every operand
  read through `d0`, so a `?`-sized input read there is cast to the static size first;
- `TensorCastExtractSlice` (TensorOps.cpp): a cast of a slice to a more static type is the
  slice with those sizes written in;
- the same cast moved above a `tensor.expand_shape` whose groups it makes static (each
  group's source size the product of its static sizes), so it reaches the slice;
- `FoldTensorCastConsumerOp` and `FoldEmptyTensorWithCastOp`: a cast of a generic's result
  becomes a cast of what it writes into, and a cast of a `tensor.empty(%n)` a static empty
  (ONNX OneHot's `?`-long iota read into a static result is a static iota).

Together they take ONNX NonZero's shape (a `?x1` count of rows broadcast into a static `3x2`
result through `(d0, d1) -> (d0, 0)`) to a static slice, as iree-compile's canonicalizer does:

    %s = tensor.extract_slice %x[0] [%n] [1] : tensor<4xi64> to tensor<?xi64>
    %e = tensor.expand_shape %s [[0, 1]] output_shape [%n, 1] : ... into tensor<?x1xi64>
    %r = linalg.generic {(d0, d1) -> (d0, 0), ...} ins(%e ...) outs(... tensor<3x2xi64>)
        ->  %s = tensor.extract_slice %x[0] [3] [1] : tensor<4xi64> to tensor<3xi64>
            %e = tensor.expand_shape %s [[0, 1]] output_shape [3, 1] : ... into tensor<3x1xi64>

The `?` value is then the program's promise (linalg's shapes must agree): with a different
count the original program is as undefined as the static one.
"""

from __future__ import annotations

from collections.abc import Iterable
from math import prod

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.diagnostics import copy_location


def static_loop_sizes(op: linalg.GenericOp) -> dict[int, int]:
    """Loop -> extent, for each loop some operand reads through a plain `dN` at a static size."""
    sizes: dict[int, int] = {}
    for operand, m in zip(op.operands, op.indexing_maps, strict=True):
        if not isinstance(operand.type, TensorType):
            continue
        for expr, size in zip(m.data.results, operand.type.get_shape(), strict=True):
            if isinstance(expr, AffineDimExpr) and size != DYNAMIC_INDEX:
                sizes.setdefault(expr.position, size)
    return sizes


def inferred_type(operand: SSAValue, m, sizes: dict[int, int]) -> TensorType | None:
    """The operand's type with each `?` read through a loop of known extent made static, or
    None when that changes nothing."""
    t = operand.type
    if not isinstance(t, TensorType):
        return None
    shape = list(t.get_shape())
    for i, expr in enumerate(m.data.results):
        if shape[i] == DYNAMIC_INDEX and isinstance(expr, AffineDimExpr):
            shape[i] = sizes.get(expr.position, DYNAMIC_INDEX)
    if shape == list(t.get_shape()):
        return None
    return TensorType(t.element_type, shape)


def _infer_operands(op: linalg.GenericOp) -> bool:
    """Cast each `?`-sized input to the sizes its loops have (inputs only: an `outs` whose
    sizes change would change the result type, which no program here needs)."""
    sizes = static_loop_sizes(op)
    changed = False
    for i, (operand, m) in enumerate(zip(op.inputs, op.indexing_maps, strict=False)):
        refined = inferred_type(operand, m, sizes)
        if refined is None:
            continue
        cast = tensor.CastOp(operand, refined)
        copy_location(op, cast)
        Rewriter.insert_op(cast, InsertPoint.before(op))
        op.operands[i] = cast.dest
        changed = True
    return changed


def _fold_into_slice(cast: tensor.CastOp) -> bool:
    """TensorCastExtractSlice: the slice itself takes the sizes the cast states."""
    s = cast.source.owner
    if not isinstance(s, tensor.ExtractSliceOp) or len(s.result.type.get_shape()) != len(
        s.static_sizes.get_values()
    ):
        return False  # a rank-reducing slice: not folded here
    target = cast.dest.type.get_shape()
    sizes = _mixed(s.static_sizes.get_values(), s.sizes)
    sizes = [
        target[i] if isinstance(v, SSAValue) and target[i] != DYNAMIC_INDEX else v
        for i, v in enumerate(sizes)
    ]
    new = tensor.ExtractSliceOp(
        s.source,
        _mixed(s.static_offsets.get_values(), s.offsets),
        sizes,
        _mixed(s.static_strides.get_values(), s.strides),
        cast.dest.type,
    )
    copy_location(s, new)
    Rewriter.insert_op(new, InsertPoint.before(cast))
    cast.dest.replace_all_uses_with(new.result)
    Rewriter.erase_op(cast)
    return True


def _mixed(static, dynamic) -> list[SSAValue | int]:
    """MLIR's mixed list: each `kDynamic` entry of `static` is the next SSA value."""
    values = iter(dynamic)
    return [next(values) if v == DYNAMIC_INDEX else v for v in static]


def _move_above_expand(cast: tensor.CastOp) -> bool:
    """A cast of an expand_shape to static sizes: the expand of a cast source, each group the
    cast makes wholly static giving its source dim the group's product."""
    e = cast.source.owner
    if not isinstance(e, tensor.ExpandShapeOp) or not isinstance(e.src.type, TensorType):
        return False
    target = list(cast.dest.type.get_shape())
    src_shape = list(e.src.type.get_shape())
    for j, group in enumerate(e.reassociation.data):
        members = [a.value.data for a in group.data]
        if src_shape[j] == DYNAMIC_INDEX and all(target[i] != DYNAMIC_INDEX for i in members):
            src_shape[j] = prod(target[i] for i in members)
    source = e.src
    if src_shape != list(e.src.type.get_shape()):
        src_cast = tensor.CastOp(e.src, TensorType(e.src.type.element_type, src_shape))
        copy_location(cast, src_cast)
        Rewriter.insert_op(src_cast, InsertPoint.before(cast))
        source = src_cast.dest
    given = iter(e.dynamic_output_shape)
    kept: list[SSAValue] = []
    for size, want in zip(e.static_output_shape.get_values(), target, strict=True):
        value = next(given) if size == DYNAMIC_INDEX else None
        if value is not None and want == DYNAMIC_INDEX:
            kept.append(value)
    new = tensor.ExpandShapeOp(source, kept, e.reassociation, target, cast.dest.type)
    copy_location(e, new)
    Rewriter.insert_op(new, InsertPoint.before(cast))
    cast.dest.replace_all_uses_with(new.result)
    Rewriter.erase_op(cast)
    return True


def _fold_into_linalg(cast: tensor.CastOp) -> bool:
    """FoldTensorCastConsumerOp: a generic's only use a cast to static sizes, the generic
    writes into its `outs` cast to them instead (and so yields the static type)."""
    op = cast.source.owner
    if not isinstance(op, linalg.GenericOp) or sum(1 for _ in cast.source.uses) != 1:
        return False
    index = cast.source.index
    init = tensor.CastOp(op.outputs[index], cast.dest.type)
    copy_location(cast, init)
    Rewriter.insert_op(init, InsertPoint.before(op))
    op.operands[len(op.inputs) + index] = init.dest
    result = Rewriter.replace_value_with_new_type(op.results[index], cast.dest.type)
    cast.dest.replace_all_uses_with(result)
    Rewriter.erase_op(cast)
    return True


def _fold_into_empty(cast: tensor.CastOp) -> bool:
    """FoldEmptyTensorWithCastOp: an empty cast to static sizes is an empty of them."""
    empty = cast.source.owner
    if not isinstance(empty, tensor.EmptyOp):
        return False
    shape = cast.dest.type.get_shape()
    sizes = iter(empty.dynamic_sizes)
    kept = []
    for old, new in zip(empty.tensor.type.get_shape(), shape, strict=True):
        value = next(sizes) if old == DYNAMIC_INDEX else None
        if value is not None and new == DYNAMIC_INDEX:
            kept.append(value)
    new_empty = tensor.EmptyOp(kept, cast.dest.type)
    copy_location(empty, new_empty)
    Rewriter.insert_op(new_empty, InsertPoint.before(cast))
    cast.dest.replace_all_uses_with(new_empty.tensor)
    Rewriter.erase_op(cast)
    return True


_FOLDS = (_fold_into_slice, _move_above_expand, _fold_into_linalg, _fold_into_empty)


def _refines(cast: tensor.CastOp) -> bool:
    """The cast states sizes its source leaves `?` (and contradicts none)."""
    source, dest = cast.source.type, cast.dest.type
    if not isinstance(source, TensorType) or not isinstance(dest, TensorType):
        return False
    pairs = list(zip(source.get_shape(), dest.get_shape(), strict=True))
    return all(s in (d, DYNAMIC_INDEX) for s, d in pairs) and any(s != d for s, d in pairs)


def infer_static_shapes(
    root: Operation,
    generics: Iterable[Operation] | None = None,
    casts: Iterable[Operation] | None = None,
) -> bool:
    """Apply the patterns under `root`; True if anything changed. `generics` and `casts`:
    the `linalg.generic`s and `tensor.cast`s under `root` in walk order, when the caller has
    walked it since it last changed (the casts are walked again if a generic changed)."""
    changed = False
    for op in list(root.walk()) if generics is None else generics:
        if isinstance(op, linalg.GenericOp):
            changed = _infer_operands(op) or changed
    for op in list(root.walk()) if casts is None or changed else casts:
        if isinstance(op, tensor.CastOp) and _refines(op) and isinstance(op.source, OpResult):
            changed = any(fold(op) for fold in _FOLDS) or changed
    return changed
