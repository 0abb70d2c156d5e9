"""ConvertDispatchRegionsToWorkgroupsPass (`iree-dispatch-creation-convert-dispatch-regions-to-workgroups`).

Mirrors IREE's DispatchCreation/ConvertDispatchRegionsToWorkgroups.cpp and
Flow/Transforms/ConvertRegionToWorkgroups.cpp: a `flow.dispatch.region` (which reads values
from above) becomes a `flow.dispatch.workgroups` whose body is isolated from above. Each
captured tensor becomes an operand and a `readonly` `!iree_tensor_ext.dispatch.tensor`
argument read with `iree_tensor_ext.dispatch.tensor.load`; each result a `writeonly` argument
written with `iree_tensor_ext.dispatch.tensor.store`; captured scalars are passed as operands.
A dynamically shaped capture or result brings its `?` sizes along as index operands; in the
body a `flow.dispatch.tie_shape` names a binding's sizes, and loads and stores carry them.

A result that is a `tensor.insert_slice` into a value captured from above (following
insert_slice destinations back out of the region, as IREE's
`findFirstTiedValueOutsideOfRegionOp` follows tied operands) is *tied* to that operand: the
dispatch updates the operand's storage in place (`-> %1`), its argument is `readwrite`, and no
argument of its own is added. ConvertTensorToFlowPass later folds the insert_slice into the
store's offsets.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, ModuleOp, TensorType
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ireelab.compiler.flow.collapse_dimensions import COLLAPSED_DIMS
from ireelab.compiler.util.dynamic_dims import build_dynamic_dims, dynamic_count
from ireelab.diagnostics import CompileError
from ireelab.dialects import flow
from ireelab.dialects.iree_tensor_ext import (
    DispatchTensorLoadOp,
    DispatchTensorStoreOp,
    DispatchTensorType,
    TensorAccess,
)


def captured_values(region_op: Operation) -> list[SSAValue]:
    """Values the region reads from above, in the order MLIR's `getUsedValuesDefinedAbove`
    finds them: a post-order walk, so a scalar read inside a linalg body comes before the
    tensors the linalg op itself reads (IREE's dispatch takes `%s, %x` for `%x * %s`)."""
    captured: list[SSAValue] = []
    for op in region_op.regions[0].walk(region_first=True):
        for value in op.operands:
            if not _defined_inside(value, region_op) and value not in captured:
                captured.append(value)
    return captured


def _defined_inside(value: SSAValue, region_op: Operation) -> bool:
    return region_op.is_ancestor(value.owner)


def _dims_of(value: SSAValue, op: Operation) -> list[SSAValue]:
    dims = build_dynamic_dims(value)
    if dims is None:
        raise CompileError.at(
            op, f"the sizes of {value.type} are not known at this dispatch", stage="flow"
        )
    return dims


def capture_dims(
    captured: list[SSAValue], dims_of: dict[SSAValue, list[SSAValue]], region_op
) -> list[SSAValue]:
    """The captures with the `?` sizes of each captured tensor and of each result, each
    once: the body reads them as index arguments, in IREE's order.

    IREE's ConvertRegionToWorkgroups makes one operand per mention: the captures in order of
    use, then each captured tensor's dims, then the results' dims. Mentions of one SSA value
    are one body value, read through its last operand, so the earlier ones go unread and
    are dropped (`topk_v2_DxDxf32[%cols, %rows]`: the rows also size the results). Some
    mentions are values of their own there, equal only once the canonicalizer has folded
    them, which then merges equal operands keeping the first: the dims of a reshaped tensor
    (IREE reifies them as new `tensor.dim`s) and the computed result dims of a region
    CollapseDimensionsPass rewrote (their products are computed anew)."""
    collapsed = COLLAPSED_DIMS in region_op.attributes
    mentions: list[tuple[SSAValue, object]] = [(v, v) for v in captured]
    for v in captured:
        fresh = isinstance(v.owner, _RESHAPES)
        mentions += [(d, ("dim", v, i) if fresh else d) for i, d in enumerate(dims_of[v])]
    for i, d in enumerate(region_op.result_dims):
        fresh = collapsed and isinstance(d.owner, Operation) and d.owner.dialect_name() == "arith"
        mentions.append((d, ("result", i) if fresh else d))
    last = {mention: position for position, mention in enumerate(mentions)}
    place: dict[SSAValue, int] = {}
    for (value, _), position in last.items():
        place[value] = min(place.get(value, position), position)
    return sorted(place, key=place.__getitem__)


_RESHAPES = (tensor.CollapseShapeOp, tensor.ExpandShapeOp)


def _full_slice(t: TensorType, dims: list[SSAValue]) -> tuple[list, list, list[int]]:
    shape = list(t.get_shape())
    inner = iter(dims)
    sizes = [next(inner) if d == DYNAMIC_INDEX else d for d in shape]
    return [0] * len(shape), sizes, [1] * len(shape)


def _tied_binding(arg: SSAValue, dims: list[SSAValue], ops: list[Operation]) -> SSAValue:
    """`flow.dispatch.tie_shape` of a dynamically shaped binding with its sizes, as IREE
    names them at the top of the body; a static binding is used as it is."""
    if not dims:
        return arg
    tie = flow.DispatchTieShapeOp(arg, dims)
    ops.append(tie)
    return tie.result


def tied_captures(region_op: flow.DispatchRegionOp, captured: list[SSAValue]) -> list[int]:
    """For each result, the index in `captured` of the value it updates in place, or UNTIED."""
    terminator = region_op.body.block.last_op
    tied: list[int] = []
    for value in terminator.operands:
        while isinstance(value, OpResult) and isinstance(value.op, tensor.InsertSliceOp):
            if not region_op.is_ancestor(value.op):
                break
            value = value.op.dest
        taken = value not in captured or captured.index(value) in tied
        tied.append(flow.UNTIED if taken else captured.index(value))
    return tied


def fold_dims_of_captures(
    region_op: Operation, dims_of: dict[SSAValue, list[SSAValue]], captured: list[SSAValue]
) -> list[SSAValue]:
    """Fold each `tensor.dim` of a captured tensor in the body to that tensor's size, as
    IREE's canonicalizer folds the dim of the tensor's `dispatch.tensor.load` to the load's
    size argument, then drops the operands the body no longer reads (a tensor read only
    for its sizes, and sizes only it had): the sizes kept stay where the dims of captured
    tensors are (`capture_dims`)."""
    folded = False
    for op in list(region_op.walk()):
        if not (isinstance(op, tensor.DimOp) and op.source in dims_of):
            continue
        dim = _constant_index(op.index)
        shape = op.source.type.get_shape()
        if dim is None or not 0 <= dim < len(shape):
            continue
        if shape[dim] == DYNAMIC_INDEX:
            size = dims_of[op.source][list(shape[:dim]).count(DYNAMIC_INDEX)]
            Rewriter.replace_op(op, [], [size])
        else:
            size_op = arith.ConstantOp(IntegerAttr(shape[dim], IndexType()))
            Rewriter.replace_op(op, size_op)
        folded = True
    if not folded:
        return captured
    read = captured_values(region_op)
    needed = set(read) | set(region_op.result_dims)
    needed.update(d for v in read for d in dims_of.get(v, []))
    return [v for v in captured if v in needed]


def _constant_index(value: SSAValue) -> int | None:
    if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
        attr = value.op.value
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None


def convert(region_op: flow.DispatchRegionOp) -> flow.DispatchWorkgroupsOp:
    # a size built here (a collapsed `?x4`'s product) is built once, then looked up
    dims_of = {v: _dims_of(v, region_op) for v in captured_values(region_op)}
    captured = capture_dims(list(dims_of), dims_of, region_op)
    captured = fold_dims_of_captures(region_op, dims_of, captured)
    dims_of.update((v, []) for v in captured if v not in dims_of)
    body_block = region_op.body.block
    terminator = body_block.last_op
    assert isinstance(terminator, flow.ReturnOp)
    tied = tied_captures(region_op, captured)
    arg_types = []
    for i, value in enumerate(captured):
        if isinstance(value.type, TensorType):
            access = TensorAccess.readwrite if i in tied else TensorAccess.readonly
            arg_types.append(DispatchTensorType(access, value.type))
        else:
            arg_types.append(value.type)
    for r, index in zip(region_op.results, tied, strict=True):
        if index == flow.UNTIED:
            arg_types.append(DispatchTensorType(TensorAccess.writeonly, r.type))
    block = Block(arg_types=arg_types)
    inner = dict(zip(captured, block.args, strict=False))
    argument_dims = [d for v in captured for d in dims_of[v]]
    ties: list[Operation] = []
    loads: list[Operation] = []
    bindings: dict[SSAValue, SSAValue] = {}
    """each tensor argument's view with its sizes (its tie), where a tied result stores too"""
    for value, arg in zip(captured, block.args, strict=False):
        if not isinstance(value.type, TensorType):
            value.replace_uses_with_if(
                arg,
                lambda use: use.operation is not region_op and region_op.is_ancestor(use.operation),
            )
            continue
        dims = [inner[d] for d in dims_of[value]]
        binding = bindings[arg] = _tied_binding(arg, dims, ties)
        load = DispatchTensorLoadOp(
            binding, value.type, *_full_slice(value.type, dims), source_dims=dims
        )
        loads.append(load)
        value.replace_uses_with_if(
            load.results[0],
            lambda use: use.operation is not region_op and region_op.is_ancestor(use.operation),
        )
    out_args = iter(block.args[len(captured) :])
    result_dims = iter(region_op.result_dims)
    outputs: list[tuple[SSAValue, list[SSAValue]]] = []
    for value, index in zip(terminator.operands, tied, strict=True):
        dims = [inner[next(result_dims)] for _ in range(dynamic_count(value.type))]
        if index == flow.UNTIED:
            arg = _tied_binding(next(out_args), dims, ties)
        else:  # stored through the binding its load reads (one tie_shape, as IREE's)
            arg = bindings[block.args[index]]
        outputs.append((arg, dims))
    block.add_ops(ties + loads)
    for op in list(body_block.ops):
        if op is terminator:
            continue
        op.detach()
        block.add_op(op)
    stores = [
        DispatchTensorStoreOp(value, arg, *_full_slice(value.type, dims), target_dims=dims)
        for value, (arg, dims) in zip(terminator.operands, outputs, strict=True)
    ]
    block.add_ops(stores)
    block.add_op(flow.ReturnOp())
    workgroups = flow.DispatchWorkgroupsOp(
        captured,
        [r.type for r in region_op.results],
        Region(block),
        argument_dims=argument_dims,
        result_dims=list(region_op.result_dims),
        tied=tied,
    )
    Rewriter.replace_op(region_op, workgroups)
    return workgroups


@dataclass(frozen=True)
class ConvertDispatchRegionsToWorkgroupsPass(ModulePass):
    name = "iree-dispatch-creation-convert-dispatch-regions-to-workgroups"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for region_op in [o for o in op.walk() if isinstance(o, flow.DispatchRegionOp)]:
            convert(region_op)
