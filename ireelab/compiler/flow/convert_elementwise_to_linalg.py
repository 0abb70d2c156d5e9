"""ConvertElementwiseToLinalgPass (`convert-elementwise-to-linalg`).

Mirrors MLIR's pass that IREE runs in its global-optimisation preprocessing: an `arith` or
`math` op applied to whole tensors (`arith.addf %a, %b : tensor<4xf32>`) becomes a
`linalg.generic` with identity maps whose body is the same op on scalars, so fusion and
dispatch formation see one kind of elementwise op. A scalar operand beside the tensors (the
`i1` condition of `arith.select %c, %a, %b : tensor<5xf32>`, ONNX's If with static branches)
is an input read through a map with no results, `(d0) -> ()`, as MLIR's pass maps it. On
`?`-sized tensors the generic's `tensor.empty` takes the operands' dims.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    ModuleOp,
    ShapedType,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.flow import structured as st
from ireelab.compiler.input.dynamic_shapes import is_dynamic
from ireelab.compiler.input.tensor_canonicalization import fold_tensor_empties
from ireelab.compiler.input.tensor_cast_folding import fold_tensor_casts
from ireelab.compiler.util.dynamic_dims import dim_value
from ireelab.diagnostics import CompileError


def _is_elementwise_on_tensors(op: Operation) -> bool:
    if op.dialect_name() not in ("arith", "math") or op.regions or not op.results:
        return False
    if op.name == "arith.constant":
        return False
    if not all(isinstance(r.type, TensorType) for r in op.results):
        return False
    if any(
        isinstance(v.type, ShapedType) and not isinstance(v.type, TensorType) for v in op.operands
    ):
        return False
    tensors = [v.type for v in (*op.operands, *op.results) if isinstance(v.type, TensorType)]
    shapes = {tuple(t.get_shape()) for t in tensors}
    return len(tensors) > len(op.results) and len(shapes) == 1


def _dynamic_sizes(op: Operation) -> list[SSAValue]:
    """The `?` sizes of `op`'s tensors (all of one shape), from its first tensor operand."""
    operand = next(v for v in op.operands if isinstance(v.type, TensorType))
    sizes: list[SSAValue] = []
    for i, d in enumerate(operand.type.get_shape()):
        if d != DYNAMIC_INDEX:
            continue
        size = dim_value(operand, i)
        if size is None:
            raise CompileError.at(op, f"the sizes of '{op.name}' are not known here", "flow")
        if isinstance(size, int):
            constant = arith.ConstantOp(IntegerAttr(size, IndexType()), IndexType())
            Rewriter.insert_op(constant, InsertPoint.before(op))
            size = constant.result
        sizes.append(size)
    return sizes


def _element_type(t: Attribute) -> Attribute:
    return t.get_element_type() if isinstance(t, TensorType) else t


def _convert(op: Operation) -> None:
    result_types = [r.type for r in op.results]
    dims = _dynamic_sizes(op)
    empties = [tensor.EmptyOp(dims, t) for t in result_types]
    for empty in empties:
        empty.location = op.location
        Rewriter.insert_op(empty, InsertPoint.before(op))
    scalar_types = [_element_type(v.type) for v in (*op.operands, *op.results)]
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
    identity, scalar_map = AffineMap.identity(rank), AffineMap(rank, 0, ())
    operand_maps = [identity if isinstance(v.type, TensorType) else scalar_map for v in op.operands]
    maps = [*operand_maps, *[identity] * len(result_types)]
    generic = st.make_generic(
        list(op.operands), [e.results[0] for e in empties], Region(block), maps, ["parallel"] * rank
    )
    generic.location = op.location
    Rewriter.replace_op(op, generic)


@dataclass(frozen=True)
class ConvertElementwiseToLinalgPass(ModulePass):
    name = "convert-elementwise-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        candidates = [o for o in op.walk() if _is_elementwise_on_tensors(o)]
        for candidate in candidates:
            _convert(candidate)
        if any(is_dynamic(r.type) for c in candidates for r in c.results):
            # IREE canonicalizes next: sizes that are constants (a `?` cast of a static
            # tensor) make the generic static, and the casts around it fold.
            fold_tensor_empties(op)
            fold_tensor_casts(op)
