"""HoistUniformScalarComputePass (`iree-dispatch-creation-hoist-uniform-scalar-compute`).

Mirrors IREE's DispatchCreation/HoistUniformScalarCompute.cpp: integer scalar work a dispatch
region does on values from outside it is the same for every workgroup, so it moves to the host
in front of the region. That is an `arith` op whose operands all come from outside and whose
operands and results are integers or indices, and a `tensor.extract` of the one element of a
one-element tensor from outside (an offset or a count read from an input), taken in body
order, so a chain of them (read, `index_cast`, `muli`) moves whole. The host value then
reaches the region as a captured index (its workload); the read becomes a `flow.tensor.load`.
Integer constants the region reads from outside move in (or, used elsewhere too, are cloned
in), as IREE does after hoisting.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import IndexType, IntegerType, ModuleOp, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.dialects import flow


def _int_or_index(t: Attribute) -> bool:
    return isinstance(t, IntegerType | IndexType)


def _loadable_on_host(t: Attribute) -> bool:
    """Stream loads elements of 8, 16, 32 or 64 bits on the host; an `i1` read (a select's
    condition) stays in the dispatch, where the kernel reads it as a byte."""
    return not isinstance(t, IntegerType) or t.width.data >= 8


def _outside(value: SSAValue, region_op: Operation) -> bool:
    return not region_op.is_ancestor(value.owner)


def _uniform(op: Operation, region_op: Operation) -> bool:
    if isinstance(op, tensor.ExtractOp):
        t = op.tensor.type
        return (
            isinstance(t, TensorType)
            and t.has_static_shape()
            and t.element_count() == 1
            and _int_or_index(op.result.type)
            and _loadable_on_host(op.result.type)
            and all(_outside(v, region_op) for v in op.operands)
        )
    if op.dialect_name() != "arith" or op.regions or not op.results:
        return False
    return (
        all(_outside(v, region_op) for v in op.operands)
        and all(_int_or_index(v.type) for v in op.operands)
        and all(_int_or_index(r.type) for r in op.results)
    )


def hoist(region_op: flow.DispatchRegionOp) -> None:
    for op in list(region_op.body.block.ops):
        if _uniform(op, region_op):
            op.detach()
            Rewriter.insert_op(op, InsertPoint.before(region_op))
    constants: list[arith.ConstantOp] = []
    for op in region_op.body.walk():
        for value in op.operands:
            owner = value.owner
            if (
                isinstance(owner, arith.ConstantOp)
                and _int_or_index(value.type)
                and _outside(value, region_op)
                and owner not in constants
            ):
                constants.append(owner)
    start = InsertPoint.at_start(region_op.body.block)
    for constant in constants:
        uses = list(constant.result.uses)
        if len(uses) == 1:
            constant.detach()
            Rewriter.insert_op(constant, start)
            continue
        clone = constant.clone()
        Rewriter.insert_op(clone, start)
        constant.result.replace_uses_with_if(
            clone.result,
            lambda use: region_op.is_ancestor(use.operation) and use.operation is not region_op,
        )


@dataclass(frozen=True)
class HoistUniformScalarComputePass(ModulePass):
    name = "iree-dispatch-creation-hoist-uniform-scalar-compute"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for region_op in [o for o in op.walk() if isinstance(o, flow.DispatchRegionOp)]:
            hoist(region_op)
