"""`iree_codegen.ukernel.generic`: a call of a micro-kernel on tensors or buffers.

Mirrors IREE's `UKernelGenericOp` (`Codegen/Dialect/Codegen/IR/UKernelOps.td`): a
destination-style op naming a micro-kernel by string, with tensor or memref `ins`, `outs` it
writes (and returns, on tensors), and scalar operands after them:

    %r = iree_codegen.ukernel.generic "ireelab_uk_matmul"
           ins(%lhs, %rhs : tensor<64x512xf32>, tensor<512x256xf32>)
           outs(%acc : tensor<64x256xf32>) (%flags : i32) -> tensor<64x256xf32>

IREE lowers it to a `func.call` of the ukernel's entry point (`LowerUKernelOpsToCallsPass`);
ireelab's numba emitter turns it into a call of the kernel module's helper of that name.
IREE's `fn_def_attrs` and `strided_outer_dims` are not modelled.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    prop_def,
    var_operand_def,
    var_result_def,
)


@irdl_op_definition
class UKernelGenericOp(IRDLOperation):
    name = "iree_codegen.ukernel.generic"

    u_kernel_fn_name = prop_def(StringAttr)
    """The micro-kernel's name, e.g. `ireelab_uk_matmul`."""
    inputs = var_operand_def()
    outputs = var_operand_def()
    """Destinations: written by the micro-kernel; their tensor forms are the results."""
    other_operands = var_operand_def()
    """Scalars after the destinations (flags, sizes)."""
    results_ = var_result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "$u_kernel_fn_name (`ins` `(` $inputs^ `:` type($inputs) `)`)? "
        "`outs` `(` $outputs `:` type($outputs) `)` "
        "(`(` $other_operands^ `:` type($other_operands) `)`)? "
        "attr-dict (`->` type($results_)^)?"
    )

    def __init__(
        self,
        kernel: str,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        other_operands: Sequence[SSAValue] = (),
        result_types: Sequence[Attribute] | None = None,
    ):
        if result_types is None:
            result_types = [o.type for o in outputs]
        super().__init__(
            operands=[inputs, outputs, other_operands],
            result_types=[result_types],
            properties={"u_kernel_fn_name": StringAttr(kernel)},
        )
