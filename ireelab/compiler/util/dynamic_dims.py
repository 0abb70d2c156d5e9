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
from math import prod

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.util.branch_dims import branch_dims
from ireelab.compiler.util.loop_carried_dims import loop_carried_dims
from ireelab.dialects import flow, hal, iree_linalg_ext, iree_tensor_ext, linalg_softmax, util
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
        return loop_carried_dims(value, find_dynamic_dims)  # an scf.for iter_arg
    op = value.op
    match op:
        case scf.ForOp():
            return loop_carried_dims(value, find_dynamic_dims)
        case scf.IfOp():
            return branch_dims(value, find_dynamic_dims)
        case hal.TensorImportOp():
            return list(op.target_dims)
        case tensor.EmptyOp():
            return list(op.dynamic_sizes)
        case tensor.ExtractSliceOp():
            return list(op.sizes)  # a rank-reducing slice drops only unit sizes
        case tensor.InsertSliceOp():
            return find_dynamic_dims(op.dest)
        case tensor.ConcatOp():
            return _concat_dims(op, build=False)
        case tensor.ReshapeOp():
            return _reshape_dims(op, build=False)
        case flow.TensorEmptyOp() | flow.TensorSliceOp():
            return list(op.result_dims)
        case flow.TensorUpdateOp():
            return list(op.target_dims)
        case LinalgStructuredOperation() | iree_linalg_ext.LinalgExtOp():
            return find_dynamic_dims(op.outputs[value.index])
        case linalg.BroadcastOp():  # destination-style, though not structured in xDSL
            return find_dynamic_dims(op.init)
        case linalg_softmax.SoftmaxOp():
            return find_dynamic_dims(op.output)
        case flow.DispatchRegionOp():
            return dims_slice(list(op.results), list(op.result_dims), value)
        case flow.DispatchWorkgroupsOp() | flow.DispatchOp():
            return dims_slice(list(op.results), list(op.result_dims), value)
        case flow.TensorReshapeOp() | flow.TensorSplatOp():
            return list(op.result_dims)
        case flow.TensorTieShapeOp():
            return list(op.dynamic_dims)
        case util.OptimizationBarrierOp() | hal.TensorBarrierOp():
            return find_dynamic_dims(op.operands[value.index])
        case tensor.CastOp():
            return _cast_dims(op)
        case tensor.ExpandShapeOp():
            return _expand_dims(op)
        case tensor.CollapseShapeOp():
            return _collapse_dims(op, build=False)
        case iree_tensor_ext.ComputeBarrierStartOp() | iree_tensor_ext.ComputeBarrierEndOp():
            return find_dynamic_dims(op.value)
        case PackOp() | UnPackOp():
            return find_dynamic_dims(op.dest)
        case iree_tensor_ext.DispatchTensorLoadOp() if len(op.static_sizes) == len(
            value.type.get_shape()
        ):
            return list(op.sizes)
    return None


def _cast_dims(op: tensor.CastOp, build: bool = False) -> list[SSAValue] | None:
    """A cast keeps every size: each `?` of the result is the source's size there, its dim
    value where that is a `?` too; where the source states it statically (`3x?x8 ->
    3x10x?`, as ONNX's CenterCropPad writes it) a constant, built right before the cast
    only when `build`."""
    source_dims = build_dynamic_dims(op.source) if build else find_dynamic_dims(op.source)
    if source_dims is None:
        return None
    dims, result = iter(source_dims), []
    for size, want in zip(op.source.type.get_shape(), op.dest.type.get_shape(), strict=True):
        value = next(dims) if size == DYNAMIC_INDEX else None
        if want != DYNAMIC_INDEX:
            continue
        if value is None and not build:
            return None
        if value is None:
            constant = arith.ConstantOp(IntegerAttr(size, IndexType()))
            Rewriter.insert_op(constant, InsertPoint.before(op))
            value = constant.result
        result.append(value)
    return result


def _expand_dims(op: tensor.ExpandShapeOp) -> list[SSAValue]:
    """The `output_shape` values at the result's `?` sizes (an entry may be an SSA value
    where the result type is static; that one is not a dim)."""
    values = iter(op.dynamic_output_shape)
    dims = []
    shape = op.result.type.get_shape()
    for given, size in zip(op.static_output_shape.get_values(), shape, strict=True):
        value = next(values) if given == DYNAMIC_INDEX else None
        if size == DYNAMIC_INDEX and value is not None:
            dims.append(value)
    return dims


def _collapse_dims(op: tensor.CollapseShapeOp, build: bool) -> list[SSAValue] | None:
    """Each `?` of the result is the product of its group's source sizes (MLIR's
    `CollapseShapeOp::reifyResultShapes`). A group with one `?` and ones is that dim itself;
    any other product needs `arith.muli`s, built right before `op` only when `build`."""
    source = build_dynamic_dims(op.src) if build else find_dynamic_dims(op.src)
    if source is None:
        return None
    shape = op.src.type.get_shape()
    dynamic = [i for i, d in enumerate(shape) if d == DYNAMIC_INDEX]
    dims_of = dict(zip(dynamic, source, strict=True))
    dims: list[SSAValue] = []
    point = InsertPoint.before(op)
    for group in op.reassociation.data:
        members = [a.value.data for a in group.data]
        if all(shape[i] != DYNAMIC_INDEX for i in members):
            continue
        factors = [dims_of[i] for i in members if shape[i] == DYNAMIC_INDEX]
        static = prod(shape[i] for i in members if shape[i] != DYNAMIC_INDEX)
        if len(factors) == 1 and static == 1:
            dims.append(factors[0])
            continue
        existing = _existing_product(factors, static, op)
        if existing is None and not build:
            return None
        dims.append(existing or _multiply(factors, static, point))
    return dims


def _reshape_dims(op: tensor.ReshapeOp, build: bool) -> list[SSAValue] | None:
    """Each `?` of a `tensor.reshape` to a `tensor.from_elements` shape is that element as
    an `index` (MLIR's folds of `tensor.dim` of a reshape and of `tensor.extract` of
    `from_elements`): an `index_cast`'s source where the element is one, else an
    `arith.index_cast` built right before `op` only when `build`."""
    shape = op.shape
    if not isinstance(shape, OpResult) or not isinstance(shape.op, tensor.FromElementsOp):
        return None
    dims: list[SSAValue] = []
    for element, size in zip(shape.op.elements, op.result.type.get_shape(), strict=True):
        if size != DYNAMIC_INDEX:
            continue
        if isinstance(element.type, IndexType):
            dims.append(element)
        elif (
            isinstance(element, OpResult)
            and isinstance(element.op, arith.IndexCastOp)
            and isinstance(element.op.input.type, IndexType)
        ):
            dims.append(element.op.input)
        elif build:
            cast = arith.IndexCastOp(element, IndexType())
            Rewriter.insert_op(cast, InsertPoint.before(op))
            dims.append(cast.result)
        else:
            return None
    return dims


def _concat_dims(op: tensor.ConcatOp, build: bool) -> list[SSAValue] | None:
    """Each `?` of a concat is its first input's size there, but along the concat dimension,
    where it is the sum of the inputs' sizes (MLIR's `ConcatOp::reifyResultShapes`): an
    `arith.addi` chain found in the block, or built right before `op` only when `build`."""
    inputs = [build_dynamic_dims(v) if build else find_dynamic_dims(v) for v in op.inputs]
    if any(d is None for d in inputs):
        return None
    axis = op.dim.value.data
    dims: list[SSAValue] = []
    for i, size in enumerate(op.result.type.get_shape()):
        if size != DYNAMIC_INDEX:
            continue
        if i != axis:
            dims.append(_size_at(op.inputs[0], inputs[0], i))
            continue
        terms = [_size_at(v, d, i) for v, d in zip(op.inputs, inputs, strict=True)]
        total = _existing_sum(terms, op)
        if total is None and not build:
            return None
        dims.append(total or add_sizes(terms, op))
    return dims


def _size_at(value: SSAValue, dims: list[SSAValue], index: int) -> SSAValue | int:
    """Dimension `index` of `value`, given its `?` sizes in order."""
    shape = value.type.get_shape()
    if shape[index] != DYNAMIC_INDEX:
        return shape[index]
    return dims[sum(1 for d in shape[:index] if d == DYNAMIC_INDEX)]


def _existing_sum(terms: list[SSAValue | int], op: Operation) -> SSAValue | None:
    """An `arith.addi` before `op` in its block computing the sum of `terms`."""
    static = sum(t for t in terms if isinstance(t, int))
    values = [t for t in terms if not isinstance(t, int)]
    return _existing(arith.AddiOp, static, values, op)


def add_sizes(terms: list[SSAValue | int], before: Operation) -> SSAValue:
    """The index sum of `terms` (values and ints), built as `arith.addi`s right before
    `before` (the constants first, one `arith.constant` for their sum)."""
    values = [t for t in terms if not isinstance(t, int)]
    static = sum(t for t in terms if isinstance(t, int))
    return _build(arith.AddiOp, values, static, InsertPoint.before(before))


def multiply_sizes(factors: list[SSAValue], static: int, before: Operation) -> SSAValue:
    """`factors * static` as one index value: an `arith.muli` already computing it in
    `before`'s block, else new ones right before `before`."""
    if len(factors) == 1 and static == 1:
        return factors[0]
    existing = _existing_product(factors, static, before)
    return existing or _multiply(factors, static, InsertPoint.before(before))


_KINDS = {arith.AddiOp: (0, int.__add__), arith.MuliOp: (1, int.__mul__)}
"""The index arithmetic sizes are built with: its identity and how constants combine."""


def _key(value: SSAValue, kind: type) -> tuple[int, tuple[int, ...]]:
    """(constant part, ids of the other terms) of a sum (`kind` `arith.addi`) or a product
    (`arith.muli`) of constants and values."""
    identity, combine = _KINDS[kind]
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data, ()
    if isinstance(op, kind):
        (a, xs), (b, ys) = _key(op.lhs, kind), _key(op.rhs, kind)
        return combine(a, b), tuple(sorted(xs + ys))
    return identity, (id(value),)


def _existing(kind: type, static: int, values: list[SSAValue], op: Operation) -> SSAValue | None:
    """A `kind` op before `op` in its block computing `static` combined with `values` (one
    the canonicalizer built for a `tensor.dim` of the reshape or concat), so each size is
    one value."""
    want = (static, tuple(sorted(id(v) for v in values)))
    for candidate in op.parent.ops if op.parent else ():
        if candidate is op:
            return None
        if isinstance(candidate, kind) and _key(candidate.results[0], kind) == want:
            return candidate.results[0]
    return None


def _existing_product(factors: list[SSAValue], static: int, op: Operation) -> SSAValue | None:
    return _existing(arith.MuliOp, static, factors, op)


def _multiply(factors: list[SSAValue], static: int, point: InsertPoint) -> SSAValue:
    return _build(arith.MuliOp, factors, static, point)


def _build(kind: type, values: list[SSAValue], static: int, point: InsertPoint) -> SSAValue:
    """`values` and `static` combined by `kind` ops inserted at `point` (the constant last,
    left out when it is the identity)."""
    ops: list[Operation] = []
    if static != _KINDS[kind][0] or not values:
        constant = arith.ConstantOp(IntegerAttr(static, IndexType()))
        constant.result.name_hint = f"c{static}"
        ops.append(constant)
        values = [*values, constant.result]
    value = values[0]
    for other in values[1:]:
        ops.append(kind(value, other))
        value = ops[-1].results[0]
    Rewriter.insert_op(ops, point)
    return value


def build_dynamic_dims(value: SSAValue) -> list[SSAValue] | None:
    """`find_dynamic_dims`, and where the size is a product the IR does not hold yet (a
    collapsed `?x4`), the `arith.muli`s computing it, built right before the reshape (IREE's
    `IREE::Util::buildDynamicDimsForValue`, which reifies what it cannot find)."""
    found = find_dynamic_dims(value)
    if found is not None or not isinstance(value, OpResult):
        return found
    op = value.op
    match op:
        case tensor.CollapseShapeOp():
            return _collapse_dims(op, build=True)
        case tensor.ConcatOp():
            return _concat_dims(op, build=True)
        case tensor.ReshapeOp():
            return _reshape_dims(op, build=True)
        case LinalgStructuredOperation() | iree_linalg_ext.LinalgExtOp():
            return build_dynamic_dims(op.outputs[value.index])
        case util.OptimizationBarrierOp() | hal.TensorBarrierOp():
            return build_dynamic_dims(op.operands[value.index])
        case tensor.CastOp() if value.type == op.source.type:
            return build_dynamic_dims(op.source)
        case tensor.CastOp():
            return _cast_dims(op, build=True)
    return None


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
