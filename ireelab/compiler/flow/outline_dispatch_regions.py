"""OutlineDispatchRegionsPass (`iree-flow-outline-dispatch-regions`).

Mirrors IREE's Flow/Transforms/OutlineDispatchRegions.cpp: each `flow.dispatch.workgroups` is
moved out of its host function into its own `flow.executable @<func>_dispatch_<n>` holding one
`flow.executable.export` (with the workgroup count region) and a `builtin.module` with the body
as a `func.func` over `!iree_tensor_ext.dispatch.tensor` arguments. The host keeps a
`flow.dispatch @exe::@export(...)`. Dispatches are numbered per function in program order.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp, SymbolRefAttr
from xdsl.ir import Block, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.flow.dispatch_utils import function_name, functions
from ireelab.dialects import flow


def outline(workgroups: flow.DispatchWorkgroupsOp, name: str) -> flow.ExecutableOp:
    block = workgroups.body.detach_block(0)
    body = Region(block)
    terminator = block.last_op
    Rewriter.replace_op(terminator, func.ReturnOp())
    fn = func.FuncOp(name, FunctionType.from_lists([a.type for a in block.args], []), body)
    count_region = workgroups.workgroup_count
    count = Region(count_region.detach_block(0)) if count_region.blocks else None
    export = flow.ExecutableExportOp(name, count)
    from xdsl.dialects.builtin import ModuleOp as InnerModule

    inner = InnerModule([fn])
    executable = flow.ExecutableOp(name, Region(Block([export, inner])))
    dispatch = flow.DispatchOp(
        SymbolRefAttr(name, [name]),
        list(workgroups.arguments),
        [r.type for r in workgroups.results],
        workload=list(workgroups.workload),
        argument_dims=list(workgroups.argument_dims),
        result_dims=list(workgroups.result_dims),
        tied=workgroups.tied(),
    )
    Rewriter.replace_op(workgroups, dispatch)
    return executable


@dataclass(frozen=True)
class OutlineDispatchRegionsPass(ModulePass):
    name = "iree-flow-outline-dispatch-regions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in list(functions(op)):
            sites = [o for o in fn.walk() if isinstance(o, flow.DispatchWorkgroupsOp)]
            for index, workgroups in enumerate(sites):
                executable = outline(workgroups, f"{function_name(fn)}_dispatch_{index}")
                Rewriter.insert_op(executable, InsertPoint.before(fn))
