"""MaterializeDefaultWorkgroupCountRegionPass (`iree-dispatch-creation-materialize-default-workgroup-count-region`).

Mirrors IREE's DispatchCreation/MaterializeDefaultWorkgroupCountRegion.cpp: every
`flow.dispatch.workgroups` without a `count` region gets the default one, which defers the
choice to codegen: `iree_tensor_ext.dispatch.workgroup_count_from_slice` over the workload.
The workload is every index operand of the dispatch (the `?` sizes it captured); the body
marks each with `iree_tensor_ext.dispatch.workload.ordinal`, so codegen knows which workload
entry a size is when it computes the workgroup count at run time.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import DenseArrayBase, IndexType, ModuleOp, i32
from xdsl.ir import Block, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.dialects import flow
from ireelab.dialects.iree_tensor_ext import (
    DispatchWorkgroupCountFromSliceOp,
    DispatchWorkloadOrdinalOp,
)


def default_count_region(workload_size: int = 0) -> Region:
    block = Block(arg_types=[IndexType()] * workload_size)
    count = DispatchWorkgroupCountFromSliceOp(block.args)
    block.add_ops([count, flow.ReturnOp(*count.results)])
    return Region(block)


def mark_workload(workgroups: flow.DispatchWorkgroupsOp) -> None:
    """Make the index operands the workload, and mark their body arguments with ordinals."""
    indices = [i for i, a in enumerate(workgroups.arguments) if isinstance(a.type, IndexType)]
    workgroups.operands = [
        *(workgroups.arguments[i] for i in indices),
        *workgroups.operands[len(workgroups.workload) :],
    ]
    sizes = workgroups.properties["operandSegmentSizes"].get_values()
    workgroups.properties["operandSegmentSizes"] = DenseArrayBase.from_list(
        i32, [len(indices), *sizes[1:]]
    )
    block = workgroups.body.block
    marks = []
    for ordinal, i in enumerate(indices):
        arg = block.args[i]
        mark = DispatchWorkloadOrdinalOp(arg, ordinal)
        for use in [u for u in arg.uses if u.operation is not mark]:
            use.operation.operands[use.index] = mark.result
        marks.append(mark)
    if marks:
        Rewriter.insert_op(marks, InsertPoint.at_start(block))


@dataclass(frozen=True)
class MaterializeDefaultWorkgroupCountRegionPass(ModulePass):
    name = "iree-dispatch-creation-materialize-default-workgroup-count-region"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for workgroups in [o for o in op.walk() if isinstance(o, flow.DispatchWorkgroupsOp)]:
            if not workgroups.workgroup_count.blocks:
                mark_workload(workgroups)
                region = default_count_region(len(workgroups.workload))
                workgroups.workgroup_count.add_block(region.detach_block(0))
