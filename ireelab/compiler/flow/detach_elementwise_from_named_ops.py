"""DetachElementwiseFromNamedOpsPass (`iree-global-opt-detach-elementwise-from-named-ops`).

Mirrors IREE's GlobalOptimization/DetachElementwiseFromNamedOps.cpp: a contraction or
convolution that accumulates into a real tensor (`C += A*B` with `C` an argument or computed
value) is split into the same op accumulating into a zero fill, followed by an elementwise add
of the old accumulator. Dispatch formation then sees the usual "fill + matmul" root with an
elementwise consumer it can fuse.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.flow import structured as st
from ireelab.compiler.util.dynamic_dims import find_dynamic_dims


def _needs_detach(op: Operation) -> bool:
    if not (st.is_contraction(op) or st.is_convolution(op)):
        return False
    (init,) = st.inits(op)
    owner = init.owner if isinstance(init.owner, Operation) else None
    if isinstance(owner, linalg.FillOp | tensor.EmptyOp):
        return False
    return isinstance(init.type, TensorType)


def _dims(init: SSAValue, before: Operation) -> list[SSAValue]:
    """The `?` sizes of the accumulator (a bias broadcast over a `?` batch: its
    `tensor.empty`'s), or `tensor.dim`s of it, inserted before `before`, where its producer
    does not say."""
    found = find_dynamic_dims(init)
    if found is not None:
        return list(found)
    sizes: list[SSAValue] = []
    for i, size in enumerate(init.type.get_shape()):
        if size == DYNAMIC_INDEX:
            index = arith.ConstantOp(IntegerAttr(i, IndexType()))
            dim = tensor.DimOp(init, index)
            Rewriter.insert_op([index, dim], InsertPoint.before(before))
            sizes.append(dim.result)
    return sizes


def detach(op: Operation) -> None:
    (init,) = st.inits(op)
    t = init.type
    elem = t.get_element_type()
    zero = arith.ConstantOp(
        FloatAttr(0.0, elem) if isinstance(elem, AnyFloat) else IntegerAttr(0, elem)
    )
    empty = tensor.EmptyOp(_dims(init, op), t)
    fill = linalg.FillOp([zero.result], [empty.tensor], [t])
    Rewriter.insert_op([zero, empty, fill], InsertPoint.before(op))
    op.operands[len(st.inputs(op))] = fill.results[0]
    rank = len(t.get_shape())
    block = Block(arg_types=[elem, elem, elem])
    add = (
        arith.AddfOp(block.args[0], block.args[1])
        if isinstance(elem, AnyFloat)
        else arith.AddiOp(block.args[0], block.args[1])
    )
    block.add_ops([add, linalg.YieldOp(add.result)])
    result = op.results[0]
    users = [u for u in result.uses]
    add_op = st.make_generic(
        [result, init],
        [empty.tensor],
        Region(block),
        [AffineMap.identity(rank)] * 3,
        ["parallel"] * rank,
    )
    Rewriter.insert_op(add_op, InsertPoint.after(op))
    for use in users:
        use.operation.operands[use.index] = add_op.results[0]


@dataclass(frozen=True)
class DetachElementwiseFromNamedOpsPass(ModulePass):
    name = "iree-global-opt-detach-elementwise-from-named-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for candidate in [o for o in op.walk() if _needs_detach(o)]:
            detach(candidate)
