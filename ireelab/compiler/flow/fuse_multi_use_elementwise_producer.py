"""FuseMultiUseElementwiseProducerPass (`iree-dispatch-creation-fuse-multi-use-elementwise-producer`).

Mirrors IREE's DispatchCreation/FuseMultiUseElementwiseProducer.cpp: ElementwiseOpFusionPass
only fuses single-use producers. Here an elementwise producer with several users is fused into
an all-parallel consumer when every other user comes after that consumer: the fused op returns
the producer's value as an extra result for them, so nothing is computed twice and one loop
nest replaces two. Like IREE's default, it runs two rounds.

"Every other user" counts the users of all the producer's results (IREE's `getFusableUse`: the
consumer must properly dominate each other use). So the `compute_barrier.end` that
InsertTensorBarriersPass places right after a multi-result generic, for a result only the
function returns, refuses the fusion of its other result's consumer: IREE forms two dispatches
there. A single result that is both returned and read by the consumer gets no barrier (it has
a compute user) and still fuses.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, OpResult
from xdsl.passes import ModulePass

from ireelab.compiler.flow import generic_fusion
from ireelab.compiler.flow import structured as st
from ireelab.compiler.flow.dispatch_utils import is_outside_dispatch
from ireelab.compiler.flow.elementwise_op_fusion import MAX_OPERANDS


def _other_users_after(producer: Operation, consumer: Operation) -> bool:
    """`consumer` properly dominates every other use of any of `producer`'s results: each
    other user is (nested in) an op after the consumer in its block."""
    block = consumer.parent
    for r in producer.results:
        for use in r.uses:
            user = use.operation
            if user is consumer:
                continue
            ancestor = block.find_ancestor_op_in_block(user) if block else None
            if ancestor is None or ancestor is consumer or ancestor.is_before_in_block(consumer):
                return False
    return True


def fuse_once(module: ModuleOp) -> bool:
    for consumer in list(module.walk()):
        if not st.is_elementwise_generic(consumer) or not is_outside_dispatch(consumer):
            continue
        for index, value in enumerate(st.inputs(consumer)):
            producer = value.op if isinstance(value, OpResult) else None
            if not st.is_elementwise_generic(producer) or producer.parent is not consumer.parent:
                continue
            if st.num_loops(producer) != st.num_loops(consumer):
                continue  # IREE fuses producers of the consumer's iteration space only
            if st.op_use_count(producer) < 2 or not _other_users_after(producer, consumer):
                continue
            if generic_fusion.reads_elsewhere(producer, consumer, index):
                continue  # every read of the producer in the consumer fuses, or none
            if len(set(producer.operands) | set(consumer.operands)) >= MAX_OPERANDS:
                continue
            if not generic_fusion.can_fuse(producer, consumer, index):
                continue
            generic_fusion.fuse(producer, consumer, index, keep_producer_results=True)
            return True
    return False


@dataclass(frozen=True)
class FuseMultiUseElementwiseProducerPass(ModulePass):
    name = "iree-dispatch-creation-fuse-multi-use-elementwise-producer"

    num_iterations: int = 2
    """Rounds of fusion (IREE's `num-iterations`)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for _ in range(self.num_iterations):
            if not fuse_once(op):
                break
