"""RemoveTensorBarriersPass (`iree-dispatch-creation-remove-tensor-barriers`).

Mirrors IREE's DispatchCreation/RemoveTensorBarriers.cpp, the last step of dispatch region
creation (after CollapseDimensions, before the regions become `flow.dispatch.workgroups`): the
`iree_tensor_ext.compute_barrier.start` / `.end` ops InsertTensorBarriersPass placed are
identities, so each is replaced by its operand.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ireelab.compiler.flow.dispatch_utils import functions
from ireelab.dialects.iree_tensor_ext import ComputeBarrierEndOp, ComputeBarrierStartOp


@dataclass(frozen=True)
class RemoveTensorBarriersPass(ModulePass):
    name = "iree-dispatch-creation-remove-tensor-barriers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in functions(op):
            for barrier in list(fn.walk()):
                if isinstance(barrier, ComputeBarrierStartOp | ComputeBarrierEndOp):
                    Rewriter.replace_op(barrier, [], [barrier.value])
