"""ConvertElementwiseToLinalgPass (`convert-elementwise-to-linalg`).

Mirrors MLIR's pass that IREE runs in its global-optimisation preprocessing: an `arith` or
`math` op applied to whole tensors (`arith.addf %a, %b : tensor<4xf32>`) becomes a
`linalg.generic` with identity maps whose body is the same op on scalars, so fusion and
dispatch formation see one kind of elementwise op.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, Operation, Region
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.flow import structured as st


def _is_elementwise_on_tensors(op: Operation) -> bool:
    if op.dialect_name() not in ("arith", "math") or op.regions or not op.results:
        return False
    if op.name == "arith.constant":
        return False
    types = [v.type for v in (*op.operands, *op.results)]
    if not all(isinstance(t, TensorType) for t in types):
        return False
    shapes = {tuple(t.get_shape()) for t in types}
    return len(shapes) == 1 and all(d >= 0 for d in next(iter(shapes)))


def _convert(op: Operation) -> None:
    result_types = [r.type for r in op.results]
    empties = [tensor.EmptyOp([], t) for t in result_types]
    for empty in empties:
        empty.location = op.location
        Rewriter.insert_op(empty, InsertPoint.before(op))
    scalar_types = [v.type.get_element_type() for v in (*op.operands, *op.results)]
    block = Block(arg_types=scalar_types)
    n = len(op.operands)
    scalar = type(op).create(
        operands=block.args[:n],
        result_types=[t.get_element_type() for t in result_types],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    scalar.location = op.location  # codegen's errors about the scalar op point at the user's line
    block.add_op(scalar)
    block.add_op(linalg.YieldOp(*scalar.results))
    rank = result_types[0].get_num_dims()
    maps = [AffineMap.identity(rank)] * (n + len(result_types))
    generic = st.make_generic(
        list(op.operands), [e.results[0] for e in empties], Region(block), maps, ["parallel"] * rank
    )
    generic.location = op.location
    Rewriter.replace_op(op, generic)


@dataclass(frozen=True)
class ConvertElementwiseToLinalgPass(ModulePass):
    name = "convert-elementwise-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for candidate in [o for o in op.walk() if _is_elementwise_on_tensors(o)]:
            _convert(candidate)
