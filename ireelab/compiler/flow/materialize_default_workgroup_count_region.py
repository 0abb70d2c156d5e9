"""MaterializeDefaultWorkgroupCountRegionPass (`iree-dispatch-creation-materialize-default-workgroup-count-region`).

Mirrors IREE's DispatchCreation/MaterializeDefaultWorkgroupCountRegion.cpp: every
`flow.dispatch.workgroups` without a `count` region gets the default one, which defers the
choice to codegen: `iree_tensor_ext.dispatch.workgroup_count_from_slice` over the (here empty,
all shapes being static) workload.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Region
from xdsl.passes import ModulePass

from ireelab.dialects import flow
from ireelab.dialects.iree_tensor_ext import DispatchWorkgroupCountFromSliceOp


def default_count_region() -> Region:
    block = Block()
    count = DispatchWorkgroupCountFromSliceOp()
    block.add_ops([count, flow.ReturnOp(*count.results)])
    return Region(block)


@dataclass(frozen=True)
class MaterializeDefaultWorkgroupCountRegionPass(ModulePass):
    name = "iree-dispatch-creation-materialize-default-workgroup-count-region"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for workgroups in [o for o in op.walk() if isinstance(o, flow.DispatchWorkgroupsOp)]:
            if not workgroups.workgroup_count.blocks:
                workgroups.workgroup_count.add_block(default_count_region().detach_block(0))
