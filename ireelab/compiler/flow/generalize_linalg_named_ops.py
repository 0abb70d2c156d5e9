"""GeneralizeLinalgNamedOpsPass (`iree-global-opt-generalize-linalg-named-ops`).

Mirrors IREE's GlobalOptimization/GeneralizeLinalgNamedOps.cpp: named ops that IREE would
rather see as `linalg.generic` - the elementwise ones (add, sub, mul, div, exp, ...), copy,
broadcast, transpose, map, reduce, and every convolution or pooling - are rewritten as the
generic with the same maps and body, so elementwise fusion and dispatch formation reason about
one kind of op. Contractions (matmul, batch_matmul, matvec, ...) stay named, as in IREE with its
default `enable-generalize-matmul=false`; so do fills.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.abstract_ops import ElementwiseOperation
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from ireelab.compiler.flow import structured as st
from ireelab.compiler.flow.dispatch_utils import is_outside_dispatch
from ireelab.dialects.linalg_conv_q import Conv2DNchwFchwQOp
from ireelab.dialects.linalg_ext import MapOp

_ALWAYS = (
    ElementwiseOperation,
    linalg.TransposeOp,
    linalg.BroadcastOp,
    linalg.ReduceOp,
    MapOp,
    Conv2DNchwFchwQOp,  # a convolution with zero points: four inputs
)


def should_generalize(op: Operation, generalize_matmul: bool = False) -> bool:
    if not st.is_structured(op) or st.is_generic(op) or not is_outside_dispatch(op):
        return False
    if isinstance(op, linalg.FillOp):
        return False
    if generalize_matmul and st.is_contraction(op):
        return True
    return isinstance(op, _ALWAYS) or st.is_convolution(op)


@dataclass(frozen=True)
class GeneralizeLinalgNamedOpsPass(ModulePass):
    name = "iree-global-opt-generalize-linalg-named-ops"

    enable_generalize_matmul: bool = False
    """Also generalise contractions (IREE's `enable-generalize-matmul`)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for candidate in [
            o for o in op.walk() if should_generalize(o, self.enable_generalize_matmul)
        ]:
            st.generalize(candidate)
