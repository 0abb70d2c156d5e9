"""VerifyInputLegalityPass: refuse, at the user's line, what no later stage can compile.

IREE's `iree-verify-input-legality` rejects ops from input dialects that were not converted;
ireelab's input is already linalg, so its version checks what ireelab's backend cannot hold:
element types with no numba / numpy equivalent (bf16, sub-byte integers, complex, ...), and
`linalg.yield` values whose types differ from the op's outputs (xDSL's verifier lets those
through, and they would otherwise fail deep in codegen without a location), and static
slices that run past the tensor they slice (MLIR's verifier rejects them as
"runs out-of-bounds"; xDSL's does not, and the copy kernel would read past the buffer).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    AnyFloat,
    ComplexType,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    ModuleOp,
    ShapedType,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass

from ireelab.diagnostics import CompileError

SUPPORTED = "f16, f32, f64, i1, i8, i16, i32, i64, index"


def _element(t: Attribute) -> Attribute:
    return t.get_element_type() if isinstance(t, ShapedType) else t


def _supported(t: Attribute) -> bool:
    """Numeric types must be ones a buffer can hold; other types (!hal.buffer_view) pass."""
    if isinstance(t, Float16Type | Float32Type | Float64Type | IndexType):
        return True
    if isinstance(t, IntegerType):
        return t.width.data in (1, 8, 16, 32, 64)
    return not isinstance(t, AnyFloat | ComplexType)


def _types_of(op: Operation):
    yield from (v.type for v in op.operands)
    yield from (v.type for v in op.results)
    for region in op.regions:
        for block in region.blocks:
            yield from (a.type for a in block.args)
    function_type = op.properties.get("function_type")
    if function_type is not None:
        yield from function_type.inputs.data
        yield from function_type.outputs.data


def _check_element_types(op: Operation) -> None:
    for t in _types_of(op):
        element = _element(t)
        if not _supported(element):
            raise CompileError.at(
                op,
                f"element type {element} is not supported by the numba-cpu backend "
                f"(supported: {SUPPORTED})",
                stage="input",
            )


def _check_slice_bounds(op: tensor.ExtractSliceOp | tensor.InsertSliceOp) -> None:
    """Every static slice stays inside its tensor: `offset + (size - 1) * stride < extent`."""
    whole = op.source.type if isinstance(op, tensor.ExtractSliceOp) else op.dest.type
    params = zip(
        op.static_offsets.get_values(),
        op.static_sizes.get_values(),
        op.static_strides.get_values(),
        whole.get_shape(),
        strict=False,
    )
    for dim, (offset, size, stride, extent) in enumerate(params):
        if min(offset, size, stride, extent) < 0 or size == 0:
            continue  # dynamic values are checked where they are supported
        end = offset + (size - 1) * stride + 1
        if end > extent:
            raise CompileError.at(
                op,
                f"'{op.name}' reaches index {end - 1}, out of bounds for dimension {dim} of "
                f"{whole} (size {extent})",
                stage="input",
            )


def _check_yield(op: YieldOp) -> None:
    parent = op.parent_op()
    if not isinstance(parent, LinalgStructuredOperation):
        return
    outputs = [_element(v.type) for v in parent.outputs]
    yielded = [v.type for v in op.operands]
    for value_type, output in zip(yielded, outputs, strict=False):
        if value_type != output:
            raise CompileError.at(
                op,
                f"linalg.yield type {value_type} does not match the output element type {output}",
                stage="input",
            )


@dataclass(frozen=True)
class VerifyInputLegalityPass(ModulePass):
    name = "iree-verify-input-legality"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in op.walk():
            _check_element_types(inner)
            if isinstance(inner, YieldOp):
                _check_yield(inner)
            if isinstance(inner, tensor.ExtractSliceOp | tensor.InsertSliceOp):
                _check_slice_bounds(inner)
