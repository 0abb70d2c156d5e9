"""ConvertTensorToFlowPass (`iree-dispatch-creation-convert-tensor-to-flow`).

Mirrors IREE's DispatchCreation/ConvertTensorToFlow.cpp for the ops ireelab leaves between
dispatches: a `tensor.collapse_shape` or `tensor.expand_shape` of a row-major tensor outside
any dispatch only renames the shape of the same bytes, so it becomes `flow.tensor.reshape`.

Any other op still computing a tensor on the host at this point (a `tensor.pad`, `concat`,
`insert_slice`, an `arith` op on tensors...) has no place to run: IREE would have turned it
into a `flow.tensor.*` op or a dispatch; ireelab does not yet, so it is reported here, located
and naming the op, rather than failing later in codegen.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import ModuleOp, ShapedType
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ireelab.compiler.flow import structured as st
from ireelab.compiler.flow.dispatch_utils import is_outside_dispatch
from ireelab.diagnostics import CompileError
from ireelab.dialects import flow

_HOST_DIALECTS = ("flow", "hal", "util", "func")


def erase_dead_values(module: ModuleOp) -> None:
    """Drop side-effect-free host ops whose results nobody reads (left over by fusion)."""
    for op in reversed(list(module.walk())):
        if op.dialect_name() not in ("tensor", "arith", "linalg") or not is_outside_dispatch(op):
            continue
        if op.results and all(st.use_count(r) == 0 for r in op.results):
            Rewriter.erase_op(op)


def check_placed(op: Operation) -> None:
    """Raise a located error for a tensor computation left outside every dispatch."""
    if op.dialect_name() in _HOST_DIALECTS or op.name == "arith.constant":
        return
    if isinstance(op, tensor.EmptyOp) and all(st.use_count(r) == 0 for r in op.results):
        return
    if any(isinstance(r.type, ShapedType) for r in op.results):
        raise CompileError.at(
            op, f"'{op.name}' on tensors cannot be placed in a dispatch", stage="flow"
        )


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
        erase_dead_values(op)
        for host_op in [o for o in op.walk() if is_outside_dispatch(o)]:
            check_placed(host_op)
