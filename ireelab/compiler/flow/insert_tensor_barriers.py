"""InsertTensorBarriersPass (`iree-dispatch-creation-insert-tensor-barriers`).

Mirrors IREE's DispatchCreation/InsertTensorBarriers.cpp, which GlobalOptimization runs right
after GeneralizeLinalgNamedOps. It fences the function's compute (ops of the linalg, tensor and
iree_tensor_ext dialects) with identity ops until RemoveTensorBarriersPass drops them after
dispatch formation:

- `iree_tensor_ext.compute_barrier.start` on every tensor that enters the compute from outside
  (a function argument, or a value reached from one through non-compute ops such as
  `hal.tensor.import`); compute users read the barrier, `tensor.dim` and non-compute users keep
  the original value.
- `iree_tensor_ext.compute_barrier.end` right after the op that defines a tensor result none of
  whose users computes (it is returned or exported, or unused); the non-compute users read the
  barrier.

A result with at least one compute user gets no end barrier, even if it is also returned. The
barriers change which fusions later passes see: an end barrier placed right after a
multi-result generic is a user of that generic standing before its consumers, so
FuseMultiUseElementwiseProducer no longer finds a consumer that comes before every other user.

IREE leaves end barriers of unused results for the next pattern-driven pass to erase; they are
erased here at once (nothing reads them).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.flow.dispatch_utils import functions
from ireelab.dialects.iree_tensor_ext import ComputeBarrierEndOp, ComputeBarrierStartOp

COMPUTE_DIALECTS = ("linalg", "iree_linalg_ext", "tensor", "iree_tensor_ext")
"""IREE's compute dialects: linalg, iree_linalg_ext, tensor and iree_tensor_ext (ireelab's extra
linalg named ops are in the linalg dialect)."""


def is_compute_op(op: Operation | None) -> bool:
    return op is not None and op.dialect_name() in COMPUTE_DIALECTS


def inputs_to_compute(arguments: list[BlockArgument]) -> list[SSAValue]:
    """Values that flow from the arguments into compute ops, following non-compute users
    forward (first found first)."""
    found: dict[SSAValue, None] = {}
    visited: set[SSAValue] = set()
    worklist: list[SSAValue] = list(reversed(arguments))
    while worklist:
        value = worklist.pop()
        if value in visited:
            continue
        visited.add(value)
        pending: list[SSAValue] = []
        for use in list(value.uses):
            if is_compute_op(use.operation):
                found.setdefault(value, None)
            else:
                pending.extend(use.operation.results)
        worklist.extend(reversed(pending))
    return list(found)


def outputs_of_compute(fn: Operation) -> list[OpResult]:
    """Tensor results of compute ops that no compute op uses."""
    return [
        result
        for op in fn.walk()
        if is_compute_op(op)
        for result in op.results
        if isinstance(result.type, TensorType)
        and not any(is_compute_op(use.operation) for use in result.uses)
    ]


def _insert_after_value(value: SSAValue, op: Operation) -> None:
    if isinstance(value, BlockArgument):
        block: Block = value.block
        Rewriter.insert_op(op, InsertPoint.at_start(block))
    else:
        Rewriter.insert_op(op, InsertPoint.after(value.owner))


def insert_barriers(fn: Operation) -> None:
    for value in inputs_to_compute(list(fn.body.block.args)):
        if not isinstance(value.type, TensorType):
            continue
        start = ComputeBarrierStartOp(value)
        _insert_after_value(value, start)
        for use in list(value.uses):
            user = use.operation
            if user is not start and is_compute_op(user) and not isinstance(user, tensor.DimOp):
                user.operands[use.index] = start.result
    for value in outputs_of_compute(fn):
        end = ComputeBarrierEndOp(value)
        Rewriter.insert_op(end, InsertPoint.after(value.owner))
        for use in list(value.uses):
            if use.operation is not end and not is_compute_op(use.operation):
                use.operation.operands[use.index] = end.result
        if not end.result.uses:
            Rewriter.erase_op(end)


@dataclass(frozen=True)
class InsertTensorBarriersPass(ModulePass):
    name = "iree-dispatch-creation-insert-tensor-barriers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in functions(op):
            insert_barriers(fn)
