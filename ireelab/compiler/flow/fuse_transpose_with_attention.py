"""Transposes read through by attention (IREE's `FuseTransposeWithAttentionLikeOp`).

Mirrors IREE's LinalgExt/Transforms/TransposeFusion.cpp, which DispatchCreation's
ElementwiseOpFusionPass applies after the elementwise fusions
(`populateFuseLinalgExtOpsWithTransposes`): an `attention` / `online_attention` input made by a
copy generic (one input, the body only yields it, a permutation writing the result) reads the
copy's source instead, its indexing map composed with the copy's, `inputMap o
inverse(resultMap) o attentionMap`. A head split `[S, H, D] -> [H, S, D]` in front of the
attention so costs no dispatch of its own, as in `iree-compile`'s `attention_2xDx8x8xD`.

The copy stays while others read it. As IREE's control function: both ops outside dispatch
regions. IREE also takes a broadcasting copy when it does not broadcast away a whole group of
attention dims (`wouldBroadcastAwayAttentionDimGroup`); ireelab takes permutations only, so a
broadcast into attention stays a generic of its own.
"""

from __future__ import annotations

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ModuleOp
from xdsl.ir import OpResult, SSAValue

from ireelab.compiler.flow import structured as st
from ireelab.compiler.flow.dispatch_utils import is_outside_dispatch
from ireelab.dialects.iree_linalg_ext import AttentionLikeOp


def _copied_source(value: SSAValue):
    """The source and the (input, result) maps of the permuting copy generic making `value`."""
    producer = value.owner if isinstance(value, OpResult) else None
    if not st.is_generic(producer) or len(st.inputs(producer)) != 1:
        return None
    if len(st.inits(producer)) != 1 or not st.body_is_yield_only(producer):
        return None
    block = producer.regions[0].block
    if block.last_op.operands[0] is not block.args[0]:
        return None  # yields its init, not a copy of the input
    in_map, out_map = st.indexing_maps(producer)
    if not st.is_permutation(in_map) or not st.is_permutation(out_map):
        return None
    return producer, st.inputs(producer)[0], in_map.compose(out_map.inverse_permutation())


def fuse_transposes_into_attention(module: ModuleOp) -> bool:
    """Fold every permuting copy that feeds an attention's input into its map; True if any."""
    changed = False
    for op in [o for o in module.walk() if isinstance(o, AttentionLikeOp)]:
        if not is_outside_dispatch(op):
            continue
        roles = ["query", "key", "value", "scale"] + (["mask"] if op.mask else [])
        while True:
            maps = [m.data for m in op.indexing_maps.data]
            for index, role in enumerate(roles):
                found = _copied_source(getattr(op, role))
                if found is None or not is_outside_dispatch(found[0]):
                    continue
                _, source, permutation = found
                maps[index] = permutation.compose(maps[index])
                op.operands[index] = source
                op.indexing_maps = ArrayAttr(AffineMapAttr(m) for m in maps)
                changed = True
                break
            else:
                break
    return changed
