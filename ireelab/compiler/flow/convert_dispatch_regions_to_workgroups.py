"""ConvertDispatchRegionsToWorkgroupsPass (`iree-dispatch-creation-convert-dispatch-regions-to-workgroups`).

Mirrors IREE's DispatchCreation/ConvertDispatchRegionsToWorkgroups.cpp and
Flow/Transforms/ConvertRegionToWorkgroups.cpp: a `flow.dispatch.region` (which reads values
from above) becomes a `flow.dispatch.workgroups` whose body is isolated from above. Each
captured tensor becomes an operand and a `readonly` `!iree_tensor_ext.dispatch.tensor`
argument read with `iree_tensor_ext.dispatch.tensor.load`; each result a `writeonly` argument
written with `iree_tensor_ext.dispatch.tensor.store`; captured scalars are passed as operands.
Shapes must be static here; a dynamic one is a located error.

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
from xdsl.dialects import tensor
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

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
    if isinstance(value, OpResult):
        return _inside(value.op, region_op)
    return _inside(value.owner.parent_op(), region_op)


def _static(t: TensorType, op: Operation) -> None:
    if any(d < 0 for d in t.get_shape()):
        raise CompileError.at(
            op, f"dynamic shape {t} is not supported by the flow stage yet", stage="flow"
        )


def _full_slice(t: TensorType) -> tuple[list[int], list[int], list[int]]:
    shape = list(t.get_shape())
    return [0] * len(shape), shape, [1] * len(shape)


def tied_captures(region_op: flow.DispatchRegionOp, captured: list[SSAValue]) -> list[int]:
    """For each result, the index in `captured` of the value it updates in place, or UNTIED."""
    terminator = region_op.body.block.last_op
    tied: list[int] = []
    for value in terminator.operands:
        while isinstance(value, OpResult) and isinstance(value.op, tensor.InsertSliceOp):
            if not _inside(value.op, region_op):
                break
            value = value.op.dest
        taken = value not in captured or captured.index(value) in tied
        tied.append(flow.UNTIED if taken else captured.index(value))
    return tied


def convert(region_op: flow.DispatchRegionOp) -> flow.DispatchWorkgroupsOp:
    captured = captured_values(region_op)
    body_block = region_op.body.block
    terminator = body_block.last_op
    assert isinstance(terminator, flow.ReturnOp)
    tied = tied_captures(region_op, captured)
    arg_types = []
    for i, value in enumerate(captured):
        if isinstance(value.type, TensorType):
            _static(value.type, region_op)
            access = TensorAccess.readwrite if i in tied else TensorAccess.readonly
            arg_types.append(DispatchTensorType(access, value.type))
        else:
            arg_types.append(value.type)
    for r, index in zip(region_op.results, tied, strict=True):
        _static(r.type, region_op)
        if index == flow.UNTIED:
            arg_types.append(DispatchTensorType(TensorAccess.writeonly, r.type))
    block = Block(arg_types=arg_types)
    loads: list[Operation] = []
    for value, arg in zip(captured, block.args, strict=False):
        if not isinstance(value.type, TensorType):
            value.replace_uses_with_if(arg, lambda use: _inside(use.operation, region_op))
            continue
        load = DispatchTensorLoadOp(arg, value.type, *_full_slice(value.type))
        loads.append(load)
        value.replace_uses_with_if(load.results[0], lambda use: _inside(use.operation, region_op))
    block.add_ops(loads)
    for op in list(body_block.ops):
        if op is terminator:
            continue
        op.detach()
        block.add_op(op)
    out_args = iter(block.args[len(captured) :])
    for value, index in zip(terminator.operands, tied, strict=True):
        arg = next(out_args) if index == flow.UNTIED else block.args[index]
        block.add_op(DispatchTensorStoreOp(value, arg, *_full_slice(value.type)))
    block.add_op(flow.ReturnOp())
    workgroups = flow.DispatchWorkgroupsOp(
        captured, [r.type for r in region_op.results], Region(block), tied=tied
    )
    Rewriter.replace_op(region_op, workgroups)
    return workgroups


def _inside(op: Operation, region_op: Operation) -> bool:
    while op is not None:
        if op is region_op:
            return True
        op = op.parent_op()
    return False


@dataclass(frozen=True)
class ConvertDispatchRegionsToWorkgroupsPass(ModulePass):
    name = "iree-dispatch-creation-convert-dispatch-regions-to-workgroups"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for region_op in [o for o in op.walk() if isinstance(o, flow.DispatchRegionOp)]:
            convert(region_op)
