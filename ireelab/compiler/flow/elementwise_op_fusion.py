"""ElementwiseOpFusionPass (`iree-dispatch-creation-elementwise-op-fusion`).

Mirrors IREE's DispatchCreation/ElementwiseOpFusion.cpp with FusionUtils.cpp's
`areFusableAsElementwiseOps` as the control function over MLIR's elementwise fusion: a chain of
generics becomes one generic (`add -> mul -> sub -> tanh` becomes one body), so a dispatch holds
one op per loop nest. IREE's rules, in order:

- a producer yielding only i1 values, or whose body only yields (a copy/transpose), always fuses;
- so does one whose body reads no operand (an index or constant generator) into a parallel consumer;
- otherwise the producer must have exactly one use;
- a broadcasting consumer is left alone (its producer would be recomputed per broadcast element);
- a bit-truncate producer only fuses into a unary elementwise or another truncate;
- into a reduction consumer only through a permutation map, never into a contraction/convolution.

Before fusing, splat constant inputs are folded into scalar constants in the body (MLIR's
`FoldScalarOrSplatConstant`, see `fold_splat_constants.py`). After the generic fusions, as IREE
applies LinalgExt's patterns, a transpose feeding an attention is read through the attention's
indexing map (`fuse_transpose_with_attention.py`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerType, ModuleOp, ShapedType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation, OpResult
from xdsl.passes import ModulePass

from ireelab.compiler.flow import generic_fusion
from ireelab.compiler.flow import structured as st
from ireelab.compiler.flow.dead_code import erase_dead_ops
from ireelab.compiler.flow.dispatch_utils import is_outside_dispatch
from ireelab.compiler.flow.fold_splat_constants import fold_splat_constants
from ireelab.compiler.flow.fuse_transpose_with_attention import fuse_transposes_into_attention

MAX_OPERANDS = 16
"""IREE's `kIreeMaxOperandCount`: bindings a dispatch may take."""

_EXTENDS = {"arith.extf", "arith.extsi", "arith.extui"}
_TRUNCATES = {"arith.truncf", "arith.trunci"}


def _single_cast(op: Operation, names: set[str]) -> bool:
    if not st.is_elementwise_generic(op) or len(st.inputs(op)) != 1:
        return False
    body = [o.name for o in op.body.block.ops]
    return len(body) == 2 and body[0] in names


def is_bit_extend(op: Operation) -> bool:
    return _single_cast(op, _EXTENDS)


def is_bit_truncate(op: Operation) -> bool:
    return _single_cast(op, _TRUNCATES)


def is_broadcasting(op: Operation) -> bool:
    """LinalgExt's `isBroadcastingOp`: a yield-only generic whose one input has fewer dims."""
    if (
        not st.is_elementwise_generic(op)
        or len(st.inputs(op)) != 1
        or not st.body_is_yield_only(op)
    ):
        return False
    in_map = st.indexing_maps(op)[0]
    return st.is_projected_permutation(in_map) and len(in_map.results) < in_map.num_dims


def _all_i1(op: Operation) -> bool:
    def is_i1(t) -> bool:
        t = t.get_element_type() if isinstance(t, ShapedType) else t
        return isinstance(t, IntegerType) and t.width.data == 1

    return all(is_i1(r.type) for r in op.results)


def is_fusable_as_elementwise(producer: Operation, consumer: Operation, operand_index: int) -> bool:
    if _all_i1(producer) or st.body_is_yield_only(producer):
        return True
    if st.is_all_parallel(consumer) and not any(a.uses for a in producer.body.block.args):
        return True
    if st.op_use_count(producer) != 1:
        return False
    if is_broadcasting(consumer):
        return False
    if is_bit_extend(consumer) and st.op_use_count(consumer) != 1:
        return False
    if is_bit_truncate(producer):
        if is_bit_extend(consumer):
            return False
        unary = st.is_all_parallel(consumer) and len(st.inputs(consumer)) == 1
        if not is_bit_truncate(consumer) and not unary:
            return False
    if not st.is_all_parallel(consumer):
        if not st.is_permutation(st.operand_map(consumer, operand_index)):
            return False
        if st.is_contraction(consumer) or st.is_convolution(consumer):
            return False
    return True


def _operand_count_ok(producer: Operation, consumer: Operation, operand_index: int) -> bool:
    values = set(producer.operands)
    values |= {v for i, v in enumerate(consumer.operands) if i != operand_index}
    return len(values) < MAX_OPERANDS


def fuse_once(module: ModuleOp, intra_dispatch: bool = False) -> bool:
    for consumer in list(module.walk()):
        if not st.is_generic(consumer) or consumer.parent is None:
            continue
        for index, value in enumerate(st.inputs(consumer)):
            producer = value.owner
            if not isinstance(value, OpResult) or not st.is_generic(producer):
                continue
            outside = is_outside_dispatch(producer) and is_outside_dispatch(consumer)
            if not intra_dispatch and not outside:
                continue
            if producer.parent is not consumer.parent:
                continue
            if not _operand_count_ok(producer, consumer, index):
                continue
            if not is_fusable_as_elementwise(producer, consumer, index):
                continue
            if not generic_fusion.can_fuse(producer, consumer, index):
                continue
            # A producer with other users stays for them (it is recomputed in the fused op).
            fused = generic_fusion.fuse(producer, consumer, index)
            generic_fusion.drop_redundant_inputs(fused)
            return True
    return False


@dataclass(frozen=True)
class ElementwiseOpFusionPass(ModulePass):
    name = "iree-dispatch-creation-elementwise-op-fusion"

    intra_dispatch: bool = False
    """Also fuse ops already inside dispatch regions (IREE's `intra-dispatch`)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fold_splat_constants([o for o in op.walk() if isinstance(o, linalg.GenericOp)])
        while fuse_once(op, self.intra_dispatch):
            pass
        for generic in [o for o in op.walk() if isinstance(o, linalg.GenericOp)]:
            generic_fusion.drop_redundant_inputs(generic)
        # IREE's second pattern set: LinalgExt's, transposes into attention's maps
        if fuse_transposes_into_attention(op):
            erase_dead_ops(op)
