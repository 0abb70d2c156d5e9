"""EncodeHostTensorsPass: tensor-typed stream ops become byte-level async ops.

Mirrors IREE's `iree-stream-encode-host-tensors` (Stream/Transforms/EncodeTensors.cpp). After
ConvertToStreamPass each resource still says which tensor it holds; here the sizes are
computed in bytes (`stream.tensor.sizeof tensor<512x512xf32>` becomes the constant 1048576,
row-major, no padding), `stream.tensor.dispatch` becomes `stream.async.dispatch` with an
explicit byte range per resource operand (`%r[%c0 to %n for %n]`), and `stream.tensor.clone`
becomes `stream.async.clone`, `stream.tensor.splat` becomes `stream.async.splat` of the
element's bit pattern (narrowed to its repeating unit: 0.0 fills with `0 : i8`), and
`stream.tensor.constant` becomes `stream.async.constant` sized in bytes; `stream.tensor.empty`
/ `.slice` / `.update` become `stream.async.alloca` / `.slice` / `.update` on the byte range of
their contiguous run (`host_slices`); `stream.tensor.load` / `.fill` become
`stream.async.load` / `.fill` at the element's byte offset (`host_elements`). The import/export ops keep their tensor encodings (the ABI needs them). Size
constants are hoisted to the top of the function, one per value, as IREE's canonicalizer
leaves them.

Two folds IREE's canonicalizer applies between ConvertToStreamPass and this pass are done here
too: `stream.resource.size` of a constant is its byte size, and a `stream.async.transfer`
between one device and itself is a `stream.async.clone`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
)
from xdsl.ir import Block
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.stream.element_storage import (
    fill_pattern,
    packed_fill_pattern,
    tensor_bytes,
)
from ireelab.compiler.stream.host_elements import encode_tensor_fill, encode_tensor_load
from ireelab.compiler.stream.host_slices import (
    encode_tensor_empty,
    encode_tensor_slice,
    encode_tensor_update,
)
from ireelab.compiler.stream.host_splat import encode_runtime_splat, is_runtime_value
from ireelab.compiler.stream.index_constants import IndexConstants
from ireelab.diagnostics import CompileError
from ireelab.dialects import stream

STAGE = "stream"
STAGING = stream.ResourceType("staging")


def _encode_sizeof(op: stream.TensorSizeOfOp, constants: IndexConstants) -> None:
    if op.encoding_dims:
        _encode_dynamic_sizeof(op)
        return
    size = constants.get(tensor_bytes(op, op.encoding))
    op.storage_size.replace_all_uses_with(size)
    Rewriter.erase_op(op)


def _encode_dynamic_sizeof(op: stream.TensorSizeOfOp) -> None:
    """`stream.tensor.sizeof tensor<?x4xf32>{%d}` is `%d * 16`, computed where it stands (IREE
    multiplies the static bytes by each `?` size, row-major and dense)."""
    static = tensor_bytes(op, op.encoding, dynamic_as_one=True)
    factor = arith.ConstantOp(IntegerAttr(static, IndexType()))
    factor.result.name_hint = f"c{static}"
    ops: list = [factor]
    size = factor.result
    for dim in op.encoding_dims:
        ops.append(arith.MuliOp(dim, size))
        size = ops[-1].result
    Rewriter.insert_op(ops, InsertPoint.before(op))
    op.storage_size.replace_all_uses_with(size)
    Rewriter.erase_op(op)


def _encode_dispatch(op: stream.TensorDispatchOp, constants: IndexConstants) -> None:
    zero = constants.get(0)
    sizes = iter(op.operand_sizes)
    ranges = []
    for value in op.mixed_operands:
        if isinstance(value.type, stream.ResourceType):
            size = next(sizes)
            ranges.append((zero, size, size))
    new = stream.AsyncDispatchOp(
        op.entry_point,
        list(op.mixed_operands),
        list(op.operand_sizes),
        ranges,
        [r.type for r in op.outputs],
        list(op.result_sizes),
        op.affinity,
        list(op.workload),
        op.tied(),
    )
    Rewriter.replace_op(op, new)


def _encode_splat(op: stream.TensorSplatOp, constants: IndexConstants) -> None:
    if is_runtime_value(op.value):
        encode_runtime_splat(op)
        return
    packed = packed_fill_pattern(op, op.value, op.result_encoding)
    pattern, width = (packed, 1) if packed is not None else fill_pattern(op, op.value)
    if width > 4:
        raise CompileError.at(op, "a splat of a 64-bit pattern is not supported", STAGE)
    value = arith.ConstantOp(IntegerAttr(pattern, IntegerType(8 * width)))
    value.result.name_hint = f"c{pattern}_i{8 * width}".replace("-", "n")
    Rewriter.insert_op(value, InsertPoint.before(op))
    new = stream.AsyncSplatOp(value.result, op.result.type, op.result_size, op.affinity)
    Rewriter.replace_op(op, new)


def _encode_clone(op: stream.TensorCloneOp) -> None:
    # Compare the encodings, not the size values: a constant's size comes from its global.
    # With `?` sizes the byte counts are known only at run time (a reshape keeps them equal).
    dynamic = op.source_encoding_dims or op.result_encoding_dims
    if not dynamic and tensor_bytes(op, op.source_encoding) != tensor_bytes(op, op.result_encoding):
        raise CompileError.at(op, "a clone that changes the byte size is not supported", STAGE)
    new = stream.AsyncCloneOp(
        op.source, op.source_size, op.result.type, op.result_size, op.affinity
    )
    Rewriter.replace_op(op, new)


def _encode_constant(op: stream.TensorConstantOp, constants: IndexConstants) -> None:
    size = constants.get(tensor_bytes(op, op.result_encoding))
    new = stream.AsyncConstantOp(op.value, op.result.type, size, op.affinity)
    for use in list(op.result.uses):
        if isinstance(use.operation, stream.ResourceSizeOp):
            use.operation.result.replace_all_uses_with(size)
            Rewriter.erase_op(use.operation)
    Rewriter.replace_op(op, new)


def _fold_local_transfer(op: stream.AsyncTransferOp) -> None:
    """A transfer that stays on one device only copies: a clone (IREE's canonicalizer). A
    transfer into a `staging` resource stays: it changes where the bytes live (host-visible
    memory the host reads after the await)."""
    if op.source_affinity != op.target_affinity or op.result.type == STAGING:
        return
    clone = stream.AsyncCloneOp(
        op.source, op.source_size, op.result.type, op.result_size, op.target_affinity
    )
    Rewriter.replace_op(op, clone)


def encode_block(block: Block) -> None:
    constants = IndexConstants(block)
    for op in list(block.walk()):
        if isinstance(op, stream.TensorSizeOfOp):
            _encode_sizeof(op, constants)
        elif isinstance(op, stream.TensorConstantOp):
            _encode_constant(op, constants)
    for op in list(block.walk()):
        if isinstance(op, stream.TensorDispatchOp):
            _encode_dispatch(op, constants)
        elif isinstance(op, stream.TensorCloneOp):
            _encode_clone(op)
        elif isinstance(op, stream.TensorSplatOp):
            _encode_splat(op, constants)
        elif isinstance(op, stream.AsyncTransferOp):
            _fold_local_transfer(op)
        elif isinstance(op, stream.TensorEmptyOp):
            encode_tensor_empty(op)
        elif isinstance(op, stream.TensorSliceOp):
            encode_tensor_slice(op, constants)
        elif isinstance(op, stream.TensorUpdateOp):
            encode_tensor_update(op, constants)
        elif isinstance(op, stream.TensorLoadOp):
            encode_tensor_load(op, constants)
        elif isinstance(op, stream.TensorFillOp):
            encode_tensor_fill(op, constants)


@dataclass(frozen=True)
class EncodeHostTensorsPass(ModulePass):
    """Sizes host tensors in bytes and lowers tensor dispatches/clones to async ops."""

    name = "iree-stream-encode-host-tensors"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for child in op.body.block.ops:
            if isinstance(child, stream.ExecutableOp):
                continue
            for region in child.regions:
                for block in region.blocks:
                    encode_block(block)
