"""ConvertTensorToFlowPass (`iree-dispatch-creation-convert-tensor-to-flow`).

Mirrors IREE's DispatchCreation/ConvertTensorToFlow.cpp for the ops ireelab leaves between
dispatches: a `tensor.collapse_shape` or `tensor.expand_shape` of a row-major tensor outside
any dispatch only renames the shape of the same bytes, so it becomes `flow.tensor.reshape`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ireelab.compiler.flow.dispatch_utils import is_outside_dispatch
from ireelab.dialects import flow


@dataclass(frozen=True)
class ConvertTensorToFlowPass(ModulePass):
    name = "iree-dispatch-creation-convert-tensor-to-flow"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        reshapes = [
            o
            for o in op.walk()
            if isinstance(o, tensor.CollapseShapeOp | tensor.ExpandShapeOp)
            and is_outside_dispatch(o)
        ]
        for reshape in reshapes:
            Rewriter.replace_op(reshape, flow.TensorReshapeOp(reshape.src, reshape.result.type))
