"""Folds of `tensor` dialect ops that MLIR's canonicalizer applies and xDSL's lacks.

Mirrors `SplatOp::fold` of MLIR's TensorOps.cpp: a `tensor.splat` of a constant scalar on a
statically shaped tensor is that constant as a dense splat attribute,

    %x = arith.constant 2.5 : f32
    %s = tensor.splat %x : tensor<4x6xf32>    ->    %s = arith.constant dense<2.5> : tensor<4x6xf32>

so IREE never sees a host splat there: the splat constant is cloned into the dispatches that
read it and folded into their bodies as a scalar (`fold_splat_constants`). And `DimOp::fold`:
a `tensor.dim` is the size its tensor's producer holds (`util/dynamic_dims.py`).
"""

from __future__ import annotations

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


def fold_tensor_splats(root: Operation) -> bool:
    """Fold every foldable `tensor.splat` under `root`; True if any was folded."""
    splats = [op for op in root.walk() if isinstance(op, tensor.SplatOp)]
    return any([fold_splat(op) for op in splats])


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
    size = dim_value(op.source, i)
    if size is None and isinstance(op.source.owner, tensor.CollapseShapeOp):
        size = _collapsed_size(op.source, i)
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


def fold_tensor_dims(root: Operation) -> bool:
    """Fold every foldable `tensor.dim` under `root`; True if any was folded."""
    dims = [op for op in root.walk() if isinstance(op, tensor.DimOp)]
    return any([fold_dim(op) for op in dims])
