"""Splat tensor constants read by a `linalg.generic` become scalar constants in its body.

Mirrors MLIR's `FoldScalarOrSplatConstant`, one of the elementwise-fusion patterns that IREE's
`ElementwiseOpFusionPass` applies: `arith.mulf %a, dense<2.0>` turned into a generic reads the
splat as a whole tensor input; after folding, the body multiplies by `arith.constant 2.0 : f32`
(created just before the generic) and the input is dropped, so no dispatch ever needs the splat
as a buffer. A scalar constant input (a quantized convolution's constant zero point) is folded
the same way, as MLIR's pattern folds any constant scalar operand.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.flow import generic_fusion
from ireelab.compiler.flow import structured as st


def splat_scalar(value: DenseIntOrFPElementsAttr) -> Attribute | None:
    """The one element of a splat as a scalar attribute, or None if it has no scalar form."""
    element = value.get_element_type()
    data = value.data.data
    width = len(data) // max(len(value), 1)
    if isinstance(element, AnyFloat):
        return FloatAttr.unpack(element, data[:width], 1)[0]
    if isinstance(element, IntegerType | IndexType):
        return IntegerAttr.unpack(element, data[:width], 1)[0]
    return None


def _constant_scalar(attr: Attribute) -> Attribute | None:
    """A scalar constant input as it is; a splat's one element; else None."""
    if isinstance(attr, IntegerAttr | FloatAttr):
        return attr
    if not isinstance(attr, DenseIntOrFPElementsAttr) or not st.is_splat(attr):
        return None
    return splat_scalar(attr)


def fold_splat_inputs(op: linalg.GenericOp) -> bool:
    """Replace the body's reads of splat-constant inputs by scalar constants; True if any."""
    block = op.body.block
    changed = False
    for index, value in enumerate(st.inputs(op)):
        producer = value.owner
        if not isinstance(producer, arith.ConstantOp):
            continue
        argument = block.args[index]
        scalar = _constant_scalar(producer.value)
        if scalar is None or not argument.uses or scalar.type != argument.type:
            continue
        constant = arith.ConstantOp(scalar, argument.type)
        Rewriter.insert_op(constant, InsertPoint.before(op))
        argument.replace_all_uses_with(constant.result)
        changed = True
    return changed


def fold_splat_constants(ops: list[linalg.GenericOp]) -> None:
    """Fold the splat inputs of every generic in `ops` and drop the inputs left unread."""
    for op in ops:
        splats = {v.owner for v in st.inputs(op) if isinstance(v.owner, arith.ConstantOp)}
        if not fold_splat_inputs(op):
            continue
        generic_fusion.drop_redundant_inputs(op)
        # The rewrite driver erases what became trivially dead: here, the splat itself.
        for splat in splats:
            if not splat.result.uses:
                Rewriter.erase_op(splat)
