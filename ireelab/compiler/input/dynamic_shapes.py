"""Refusing dynamic constructs at input, until the stages after it carry `?` dims.

IREE compiles dynamic shapes: `tensor<?x4xf32>` values, `tensor.empty(%n)`, slices at offsets
computed at run time, each carried through Flow (workloads), Stream (sizes computed on the
host) and codegen (dims as push constants). ireelab's later stages assume every shape and
offset is known at compile time, so a dynamic construct that reached them could be compiled
as if it had some fixed size, and give wrong numbers. Every one is refused here, at its line:
a dynamically shaped value anywhere (signature, op result, region argument) and an op whose
offsets, sizes, strides, padding or output shape are SSA values rather than constants in the
op (`tensor.extract_slice %a[%i] [4] [1]`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, ShapedType
from xdsl.ir import Attribute, Operation

from ireelab.diagnostics import CompileError
from ireelab.dialects import util

_POSITIONS = {
    "static_offsets": "offsets",
    "static_sizes": "sizes",
    "static_strides": "strides",
    "static_low": "low padding",
    "static_high": "high padding",
    "static_output_shape": "output shape",
}
"""Properties where MLIR marks an SSA-valued entry with `kDynamic`, and what each holds."""


def is_dynamic(t: Attribute) -> bool:
    return isinstance(t, ShapedType) and any(d == DYNAMIC_INDEX for d in t.get_shape())


def signature_error(func: util.FuncOp, t: Attribute) -> CompileError:
    name = func.sym_name.data
    return CompileError.at(
        func, f"dynamic shape {t} in the signature of '@{name}' is not supported yet", "input"
    )


def check_dynamic(op: Operation) -> None:
    """Raise a located error if `op` makes, takes or positions anything at run-time size."""
    if isinstance(op, util.FuncOp):
        signature = (*op.function_type.inputs.data, *op.function_type.outputs.data)
        for t in signature:
            if is_dynamic(t):
                raise signature_error(op, t)
        return
    for t in value_types(op):
        if is_dynamic(t):
            raise CompileError.at(
                op, f"dynamic shape {t} of '{op.name}' is not supported yet", stage="input"
            )
    for prop, what in _POSITIONS.items():
        values = op.properties.get(prop)
        if isinstance(values, DenseArrayBase) and DYNAMIC_INDEX in values.get_values():
            raise CompileError.at(op, _position_message(op, what), stage="input")


def value_types(op: Operation):
    """The types of `op`'s results, operands and region arguments."""
    yield from (v.type for v in op.results)
    yield from (v.type for v in op.operands)
    for region in op.regions:
        for block in region.blocks:
            yield from (a.type for a in block.args)


def _position_message(op: Operation, what: str) -> str:
    return (
        f"{what} of '{op.name}' given as SSA values are not supported yet "
        f"(only constants written in the op, as in [0, 2])"
    )
