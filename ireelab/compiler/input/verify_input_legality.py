"""VerifyInputLegalityPass: refuse, at the user's line, what no later stage can compile.

IREE's `iree-verify-input-legality` rejects ops from input dialects that were not converted
(tosa, stablehlo, chlo) and `builtin.unrealized_conversion_cast`; ireelab's input is already
linalg, so its version also checks what ireelab's stages cannot hold yet, each refused here
with a located one-line error rather than failing later without one (or compiling wrongly):

- control flow between blocks: a region of several blocks (`cf.br`, `cf.cond_br`, ...);
- nested modules, and ops of dialects that are not input (memref, bufferization: ireelab's
  input is tensors; stream, vm: ireelab's own later stages make them);
- types outside tensors of static rank: memref, vector, unranked tensors;
- dynamic shapes, sizes and offsets (`dynamic_shapes.py`); not yet in the body of a private
  function the inliner will inline, whose `?` sizes may become constants in its callers: the
  pass runs again where IREE runs it, after inlining and canonicalization, and checks them there;
- element types with no numba / numpy equivalent (i3, f6E2M3FN, complex<f16>, ...), and packed
  sub-byte tensors in a public function's signature;
- `linalg.yield` values whose types differ from the op's outputs (xDSL's verifier lets
  those through);
- static slices that run past the tensor they slice (MLIR's verifier rejects them as
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
    MemRefType,
    ModuleOp,
    ShapedType,
    UnrankedTensorType,
    UnrealizedConversionCastOp,
    VectorType,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass

from ireelab.compiler.input.common import inlinable
from ireelab.compiler.input.dynamic_shapes import check_dynamic, value_types
from ireelab.diagnostics import CompileError
from ireelab.dialects import util
from ireelab.schemas import packed_storage, small_float_formats

SUPPORTED = (
    "f16, bf16, f8E5M2, f8E4M3FN, f8E5M2FNUZ, f8E4M3FNUZ, f8E8M0FNU, f4E2M1FN, f32, f64, i1, "
    "i2, i4, i8, i16, i32, i64, index, complex<f32>, complex<f64>"
)

NOT_INPUT_DIALECTS = {
    "memref": "ireelab's input is tensors; memrefs appear only inside its codegen",
    "bufferization": "ireelab's input is tensors; bufferization is its codegen's job",
    "stream": "stream ops are made by ireelab's Stream stage, not read from input",
    "vm": "vm ops are made by ireelab's VM stage, not read from input",
}
"""Dialects ireelab loads (its later stages print them) but does not take as input, and why."""


def _refuse(op: Operation, message: str) -> CompileError:
    return CompileError.at(op, message, stage="input")


def _element(t: Attribute) -> Attribute:
    return t.get_element_type() if isinstance(t, ShapedType) else t


def _supported(t: Attribute) -> bool:
    """Numeric types must be ones a buffer can hold; other types (!hal.buffer_view) pass."""
    if isinstance(t, Float16Type | Float32Type | Float64Type | IndexType):
        return True
    if isinstance(t, IntegerType):
        return t.width.data in (1, 2, 4, 8, 16, 32, 64)
    if isinstance(t, ComplexType):  # numpy's complex64 / complex128 (`complex_to_standard`)
        return isinstance(t.element_type, Float32Type | Float64Type)
    if not isinstance(t, AnyFloat):
        return True
    # printed last: no integer or complex type prints as one of these names
    return str(t) in small_float_formats.FORMATS  # computed in f32 (`small_float_formats`)


def _types_of(op: Operation):
    yield from value_types(op)
    function_type = op.properties.get("function_type")
    if function_type is not None:
        yield from function_type.inputs.data
        yield from function_type.outputs.data


def _check_public_signature(op: Operation) -> None:
    """Packed sub-byte tensors (i2, i4, f4E2M1FN) stay inside the program: the runtime's
    buffer views hold whole-byte elements only."""
    function_type = op.properties.get("function_type")
    visibility = op.properties.get("sym_visibility")
    if function_type is None or (visibility is not None and visibility.data != "public"):
        return
    for t in (*function_type.inputs.data, *function_type.outputs.data):
        if packed_storage.is_packed_tensor(t):
            raise _refuse(
                op,
                f"{t} in a public function's signature is not supported (packed sub-byte "
                "tensors are computed inside the program; pass i8 and convert)",
            )


def _check_types(op: Operation) -> None:
    for t in _types_of(op):
        if isinstance(t, MemRefType | VectorType | UnrankedTensorType):
            raise _refuse(
                op,
                f"type {t} is not supported (ireelab compiles ops on ranked tensors and scalars)",
            )
        element = _element(t)
        if not _supported(element):
            raise _refuse(
                op,
                f"element type {element} is not supported by the numba-cpu backend "
                f"(supported: {SUPPORTED})",
            )


def _check_blocks(op: Operation) -> None:
    """One block per region: ireelab's stages have no control flow between blocks."""
    for region in op.regions:
        if len(region.blocks) < 2:
            continue
        entry = region.blocks.first
        culprit = entry.last_op if entry.last_op is not None else op
        if not culprit.successors:
            culprit = next((o for o in region.walk() if o.successors), culprit)
        where = f"'@{op.sym_name.data}'" if isinstance(op, util.FuncOp) else f"'{op.name}'"
        raise _refuse(
            culprit,
            f"'{culprit.name}': control flow between blocks is not supported ({where} has "
            f"{len(region.blocks)} blocks; ireelab compiles single-block regions)",
        )


def _check_dialect(op: Operation) -> None:
    if isinstance(op, ModuleOp) and op.parent_op() is not None:
        name = f" @{op.sym_name.data}" if op.sym_name else ""
        raise _refuse(
            op,
            f"nested module{name} is not supported (ireelab compiles the top-level module's functions)",
        )
    if isinstance(op, UnrealizedConversionCastOp):
        raise _refuse(op, f"'{op.name}' is left over from a partial conversion")
    why = NOT_INPUT_DIALECTS.get(op.dialect_name())
    if why is not None:
        raise _refuse(op, f"'{op.name}': the {op.dialect_name()} dialect is not input ({why})")


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
            raise _refuse(
                op,
                f"linalg.yield type {value_type} does not match the output element type {output}",
            )


def _inlined_later(module: ModuleOp) -> set[Operation]:
    """Private functions InlinerPass will inline into their callers (or SymbolDCEPass drop):
    their dynamic shapes are checked in the callers, after inlining and canonicalization."""
    return {
        f
        for f in module.body.block.ops
        if isinstance(f, util.FuncOp)
        and f.sym_visibility is not None
        and f.sym_visibility.data == "private"
        and inlinable(f)
    }


def _function_of(op: Operation) -> Operation | None:
    while op is not None and not isinstance(op, util.FuncOp):
        op = op.parent_op()
    return op


@dataclass(frozen=True)
class VerifyInputLegalityPass(ModulePass):
    name = "iree-verify-input-legality"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        inlined_later = _inlined_later(op)
        for inner in op.walk():
            _check_blocks(inner)
            _check_dialect(inner)
            _check_types(inner)
            _check_public_signature(inner)
            if not inlined_later or _function_of(inner) not in inlined_later:
                check_dynamic(inner)
            if isinstance(inner, YieldOp):
                _check_yield(inner)
            if isinstance(inner, tensor.ExtractSliceOp | tensor.InsertSliceOp):
                _check_slice_bounds(inner)
