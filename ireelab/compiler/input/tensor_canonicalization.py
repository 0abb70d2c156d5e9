"""Folds of `tensor` dialect ops that MLIR's canonicalizer applies and xDSL's lacks.

Mirrors `SplatOp::fold` of MLIR's TensorOps.cpp: a `tensor.splat` of a constant scalar on a
statically shaped tensor is that constant as a dense splat attribute,

    %x = arith.constant 2.5 : f32
    %s = tensor.splat %x : tensor<4x6xf32>    ->    %s = arith.constant dense<2.5> : tensor<4x6xf32>

so IREE never sees a host splat there: the splat constant is cloned into the dispatches that
read it and folded into their bodies as a scalar (`fold_splat_constants`). And `DimOp::fold`:
a `tensor.dim` is the size its tensor's producer holds (`util/dynamic_dims.py`). And
`ReplaceEmptyTensorStaticShapeDims`: a `tensor.empty` size given by a constant becomes static,

    %e = tensor.empty(%c128, %n) : tensor<?x?xi32>
        ->  %s = tensor.empty(%n) : tensor<128x?xi32>
            %e = tensor.cast %s : tensor<128x?xi32> to tensor<?x?xi32>

which is how a private function's `?` sizes become static once it is inlined into a caller that
passes constants (the cast then folds into the ops that read it, `tensor_cast_folding.py`).
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    TensorType,
)
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from ireelab.compiler.util.dynamic_dims import build_dynamic_dims, dim_value
from ireelab.diagnostics import copy_location


def fold_splat(op: tensor.SplatOp) -> bool:
    """Replace `op` by a dense splat constant when its input is a constant scalar."""
    result_type = op.result.type
    if not isinstance(result_type, TensorType) or -1 in result_type.get_shape():
        return False
    source = op.input.owner
    if not isinstance(source, arith.ConstantOp):
        return False
    scalar = source.value
    if not isinstance(scalar, IntegerAttr | FloatAttr):
        return False
    # One value stands for all elements: xDSL stores (and prints) it as a splat.
    dense = DenseIntOrFPElementsAttr.from_list(result_type, [scalar.value.data])
    constant = arith.ConstantOp(dense, result_type)
    copy_location(op, constant)
    Rewriter.replace_op(op, constant)
    return True


def fold_tensor_splats(root: Operation, ops: Iterable[Operation] | None = None) -> bool:
    """Fold every foldable `tensor.splat` under `root` (or among `ops`, the ops under it in
    walk order when the caller has them); True if any was folded."""
    splats = [op for op in (root.walk() if ops is None else ops) if isinstance(op, tensor.SplatOp)]
    return any([fold_splat(op) for op in splats])


def _constant_index(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def fold_empty(op: tensor.EmptyOp) -> bool:
    """Make the constant sizes of `op` static, casting the new tensor back to `op`'s type."""
    result_type = op.tensor.type
    if not isinstance(result_type, TensorType) or not op.dynamic_sizes:
        return False
    sizes = iter(op.dynamic_sizes)
    shape, dynamic = [], []
    for d in result_type.get_shape():
        if d != DYNAMIC_INDEX:
            shape.append(d)
            continue
        size = next(sizes)
        constant = _constant_index(size)
        shape.append(DYNAMIC_INDEX if constant is None or constant < 0 else constant)
        if shape[-1] == DYNAMIC_INDEX:
            dynamic.append(size)
    if len(dynamic) == len(op.dynamic_sizes):
        return False
    static_type = TensorType(result_type.get_element_type(), shape, result_type.encoding)
    empty = tensor.EmptyOp(dynamic, static_type)
    cast = tensor.CastOp(empty.tensor, result_type)
    copy_location(op, empty)
    copy_location(op, cast)
    Rewriter.replace_op(op, [empty, cast])
    return True


def fold_tensor_empties(root: Operation, ops: Iterable[Operation] | None = None) -> bool:
    """Fold every `tensor.empty` under `root` (or among `ops`) with a constant size; True if
    any."""
    empties = [op for op in (root.walk() if ops is None else ops) if isinstance(op, tensor.EmptyOp)]
    return any([fold_empty(op) for op in empties])


def fold_dim(op: tensor.DimOp) -> bool:
    """`tensor.dim %t, %c1` is a constant when dimension 1 is static, and the producer's size
    operand when `%t`'s producer carries it (MLIR's `DimOp::fold` and its
    `ReifyRankedShapedTypeOpInterface` patterns)."""
    index = op.index.owner
    if not isinstance(index, arith.ConstantOp) or not isinstance(index.value, IntegerAttr):
        return False
    if not isinstance(op.source.type, TensorType):
        return False
    i = index.value.value.data
    if not 0 <= i < op.source.type.get_num_dims():
        return False
    source = op.source
    while isinstance(source.owner, tensor.CastOp):  # a cast keeps every size (FoldDimOfCastOp)
        source = source.owner.source
    size = dim_value(source, i)
    if size is None and isinstance(source.owner, tensor.CollapseShapeOp):
        size = _collapsed_size(source, i)
    if size is None:
        return False
    if isinstance(size, int):
        constant = arith.ConstantOp(IntegerAttr(size, IndexType()), IndexType())
        copy_location(op, constant)
        Rewriter.replace_op(op, constant)
        return True
    Rewriter.replace_op(op, [], [size])
    return True


def _collapsed_size(value: SSAValue, index: int) -> SSAValue | None:
    """MLIR's `FoldDimOfCollapseShape`: the product of the group's source sizes."""
    dims = build_dynamic_dims(value)
    if dims is None:
        return None
    return dims[sum(1 for d in value.type.get_shape()[:index] if d == DYNAMIC_INDEX)]


def fold_tensor_dims(root: Operation, ops: Iterable[Operation] | None = None) -> bool:
    """Fold every foldable `tensor.dim` under `root` (or among `ops`); True if any was folded."""
    dims = [op for op in (root.walk() if ops is None else ops) if isinstance(op, tensor.DimOp)]
    return any([fold_dim(op) for op in dims])
