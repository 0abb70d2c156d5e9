"""The SSA values that hold a tensor's `?` sizes, found from the op that made it.

Mirrors IREE's `IREE::Util::findDynamicDims` / `buildDynamicDimsForValue` and the
`ShapeAwareOpInterface` its host ops implement (Dialect/Util/IR/UtilTypes.cpp): every op that
makes a dynamically shaped tensor either carries its dims as operands (`hal.tensor.import
{%d}`, `tensor.empty(%d)`, `flow.dispatch ... -> tensor<?xf32>{%d}`) or, as linalg's
destination-style ops do, has the shape of one of its operands. Passes ask here instead of
materialising `tensor.dim` ops, and the canonicalizer folds `tensor.dim` with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Attribute, OpResult, SSAValue

from ireelab.dialects import flow, hal, iree_tensor_ext, util
from ireelab.dialects.linalg_pack import PackOp, UnPackOp


def dynamic_count(t: Attribute) -> int:
    """How many `?` sizes a tensor type has (0 for anything else)."""
    if not isinstance(t, TensorType):
        return 0
    return sum(1 for d in t.get_shape() if d == DYNAMIC_INDEX)


def dims_slice(values: Sequence[SSAValue], dims: Sequence[SSAValue], value: SSAValue):
    """The dims of `value` among `values`, whose dims are listed one after another in `dims`
    (how IREE's shape-aware ops list their operands' or results' `{...}` sizes)."""
    start = 0
    for v in values:
        n = dynamic_count(v.type)
        if v is value:
            return list(dims[start : start + n])
        start += n
    return None


def find_dynamic_dims(value: SSAValue) -> list[SSAValue] | None:
    """The values of `value`'s `?` sizes in order, or None when its producer does not say."""
    if dynamic_count(value.type) == 0:
        return []
    if not isinstance(value, OpResult):
        return None
    op = value.op
    match op:
        case hal.TensorImportOp():
            return list(op.target_dims)
        case tensor.EmptyOp():
            return list(op.dynamic_sizes)
        case LinalgStructuredOperation():
            return find_dynamic_dims(op.outputs[value.index])
        case flow.DispatchRegionOp():
            return dims_slice(list(op.results), list(op.result_dims), value)
        case flow.DispatchWorkgroupsOp() | flow.DispatchOp():
            return dims_slice(list(op.results), list(op.result_dims), value)
        case flow.TensorReshapeOp() | flow.TensorSplatOp():
            return list(op.result_dims)
        case flow.TensorTieShapeOp():
            return list(op.dynamic_dims)
        case util.OptimizationBarrierOp():
            return find_dynamic_dims(op.operands[value.index])
        case tensor.CastOp():
            return _cast_dims(op)
        case iree_tensor_ext.ComputeBarrierStartOp() | iree_tensor_ext.ComputeBarrierEndOp():
            return find_dynamic_dims(op.value)
        case PackOp() | UnPackOp():
            return find_dynamic_dims(op.dest)
        case iree_tensor_ext.DispatchTensorLoadOp() if len(op.static_sizes) == len(
            value.type.get_shape()
        ):
            return list(op.sizes)
    return None


def _cast_dims(op: tensor.CastOp) -> list[SSAValue] | None:
    """A cast keeps every size: each `?` of the result is the source's size there, when
    that is a `?` too (a `?` the source states statically has no value to name)."""
    source_dims = find_dynamic_dims(op.source)
    if source_dims is None:
        return None
    dims, result = iter(source_dims), []
    for size, want in zip(op.source.type.get_shape(), op.dest.type.get_shape(), strict=True):
        value = next(dims) if size == DYNAMIC_INDEX else None
        if want != DYNAMIC_INDEX:
            continue
        if value is None:
            return None
        result.append(value)
    return result


def dim_value(value: SSAValue, index: int) -> SSAValue | int | None:
    """Dimension `index` of `value`: an int when static, the SSA value holding it when its
    producer says, else None."""
    assert isinstance(value.type, TensorType)
    shape = value.type.get_shape()
    if shape[index] != DYNAMIC_INDEX:
        return shape[index]
    if isinstance(value, OpResult) and isinstance(value.op, tensor.CastOp):
        return dim_value(value.op.source, index)  # a cast keeps every size (FoldDimOfCastOp)
    dims = find_dynamic_dims(value)
    if dims is None:
        return None
    return dims[sum(1 for d in shape[:index] if d == DYNAMIC_INDEX)]
