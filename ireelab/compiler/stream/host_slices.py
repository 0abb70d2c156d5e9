"""Host-side contiguous slices, updates and empty tensors through the Stream stage.

Mirrors the Flow->Stream patterns of IREE's ConvertToStreamPass for `flow.tensor.empty`,
`flow.tensor.slice` and `flow.tensor.update` (Stream/Conversion/FlowToStream) and the
matching cases of its EncodeHostTensorsPass (Stream/Transforms/EncodeTensors.cpp):

    flow.tensor.empty  -> stream.tensor.empty  -> stream.async.alloca
    flow.tensor.slice  -> stream.tensor.slice  -> stream.async.slice  %src[%start to %end]
    flow.tensor.update -> stream.tensor.update -> stream.async.update %upd, %dst[%start to %end]

The Flow stage only leaves a slice or an update on the host when the elements form one
row-major run (otherwise they are `slow_memcpy` dispatches), so encoding is arithmetic on
byte offsets: the run starts at the linearised start index times the element size and is as
long as the slice (or the update). ScheduleAllocationPass makes both a `stream.cmd.copy`.

An update writes its target in place (its result is tied to the target). As IREE's
MaterializeCopyOnWritePass + ElideAsyncCopiesPass leave it, the target is cloned first
unless the update is its last user and it was made in this function (ConvertToStreamPass's
`_copy_on_write`). One difference from IREE 3.13: IREE also writes in place into an imported
argument that nothing else reads (the caller's buffer view changes); ireelab copies it, so a
call never changes its arguments.
"""

from __future__ import annotations

from typing import Protocol

from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.stream.element_storage import element_bytes
from ireelab.compiler.stream.host_byte_ranges import run_time_byte_range
from ireelab.compiler.stream.index_constants import IndexConstants, constant_value
from ireelab.diagnostics import CompileError
from ireelab.dialects import flow, stream

STAGE = "stream"


class HostConverter(Protocol):
    """What these conversions need from ConvertToStreamPass's host converter."""

    affinity: Attribute
    resources: dict
    pending_args: list

    def _lookup(self, op: Operation, value: SSAValue): ...

    def _sizeof(self, tensor_type: TensorType, before: Operation) -> SSAValue: ...

    def _copy_on_write(self, op: Operation, value: SSAValue) -> SSAValue: ...

    def _erase_when_unused(self, op: Operation) -> None: ...


# ---- ConvertToStreamPass -------------------------------------------------------------------


def convert_tensor_empty(converter: HostConverter, op: flow.TensorEmptyOp, resource_cls) -> None:
    """`flow.tensor.empty` -> `stream.tensor.empty` (contents undefined), sized by its dims."""
    tensor_type = op.result.type
    dims = tuple(op.result_dims)
    size = converter._sizeof(tensor_type, op, dims)
    empty = stream.TensorEmptyOp(tensor_type, stream.ResourceType(), size, converter.affinity, dims)
    empty.result.name_hint = "empty"
    Rewriter.insert_op(empty, InsertPoint.before(op))
    converter.resources[op.result] = resource_cls(empty.result, size, tensor_type, dims)
    converter._erase_when_unused(op)


def convert_tensor_slice(converter: HostConverter, op: flow.TensorSliceOp, resource_cls) -> None:
    """`flow.tensor.slice` -> `stream.tensor.slice` into a new resource."""
    result_type = op.result.type
    source = converter._lookup(op, op.source)
    dims = tuple(op.result_dims)
    size = converter._sizeof(result_type, op, dims)
    new = stream.TensorSliceOp(
        source.value,
        source.tensor_type,
        source.size,
        list(op.start_indices),
        list(op.lengths),
        result_type,
        stream.ResourceType(),
        size,
        converter.affinity,
        list(op.source_dims),
        list(dims),
    )
    Rewriter.insert_op(new, InsertPoint.before(op))
    converter.resources[op.result] = resource_cls(new.result, size, result_type, dims)
    converter._erase_when_unused(op)


def convert_tensor_update(converter: HostConverter, op: flow.TensorUpdateOp, resource_cls) -> None:
    """`flow.tensor.update` -> `stream.tensor.update` tied to its (copied-on-write) target."""
    target = converter._lookup(op, op.target)
    update = converter._lookup(op, op.update)
    target_value = converter._copy_on_write(op, op.target)
    new = stream.TensorUpdateOp(
        target_value,
        target.tensor_type,
        target.size,
        list(op.start_indices),
        update.value,
        update.tensor_type,
        update.size,
        converter.affinity,
        list(op.target_dims),
        list(op.update_dims),
    )
    Rewriter.insert_op(new, InsertPoint.before(op))
    dims = tuple(op.target_dims)
    converter.resources[op.result] = resource_cls(new.result, target.size, target.tensor_type, dims)
    converter._erase_when_unused(op)


# ---- EncodeHostTensorsPass -----------------------------------------------------------------


def _static_indices(values) -> list[int] | None:
    found = [constant_value(v) for v in values]
    return None if any(v is None for v in found) else [v for v in found if v is not None]


def contiguous_byte_range(
    op: Operation, tensor_type: TensorType, starts: list[int], lengths: list[int]
) -> tuple[int, int]:
    """(byte offset, byte length) of the row-major run that `starts`/`lengths` select in a
    `tensor_type`; a located error when the elements are not one run or out of bounds."""
    shape = tensor_type.get_shape()
    if len(starts) != len(shape) or len(lengths) != len(shape):
        raise CompileError.at(op, "slice indices do not match the tensor's rank", STAGE)
    for dim, start, length in zip(shape, starts, lengths, strict=True):
        if start < 0 or length < 0 or start + length > dim:
            raise CompileError.at(op, f"slice [{starts} for {lengths}] is out of bounds", STAGE)
    outer = next((i for i, n in enumerate(lengths) if n != 1), len(shape))
    for i in range(outer + 1, len(shape)):
        if starts[i] != 0 or lengths[i] != shape[i]:
            raise CompileError.at(
                op,
                f"slice [{starts} for {lengths}] of {tensor_type} is not one contiguous run",
                STAGE,
            )

    width = element_bytes(op, tensor_type.element_type)
    linear, count = 0, 1
    for dim, start, length in zip(shape, starts, lengths, strict=True):
        linear = linear * dim + start
        count *= length
    return linear * width, count * width


def _byte_range(
    op: Operation,
    tensor_type: TensorType,
    dims: list[SSAValue],
    starts: list[SSAValue],
    lengths: list[SSAValue],
    constants: IndexConstants,
) -> tuple[SSAValue, SSAValue]:
    """(start, end) byte offsets of the run: constants when every extent, start and length
    is one, else the host arithmetic computing them where the op stands."""
    static_starts, static_lengths = _static_indices(starts), _static_indices(lengths)
    if not dims and static_starts is not None and static_lengths is not None:
        offset, length = contiguous_byte_range(op, tensor_type, static_starts, static_lengths)
        return constants.get(offset), constants.get(offset + length)
    return run_time_byte_range(op, tensor_type, dims, starts, lengths, constants)


def encode_tensor_empty(op: stream.TensorEmptyOp) -> None:
    alloca = stream.AsyncAllocaOp(op.result.type, op.result_size, op.affinity)
    Rewriter.replace_op(op, alloca)
    alloca.result.name_hint = None


def encode_tensor_slice(op: stream.TensorSliceOp, constants: IndexConstants) -> None:
    source_type = op.source_encoding
    assert isinstance(source_type, TensorType)
    start, end = _byte_range(
        op,
        source_type,
        list(op.source_encoding_dims),
        list(op.start_indices),
        list(op.lengths),
        constants,
    )
    new = stream.AsyncSliceOp(
        op.source, op.source_size, start, end, op.result_size, op.affinity, op.result.type
    )
    Rewriter.replace_op(op, new)


def encode_tensor_update(op: stream.TensorUpdateOp, constants: IndexConstants) -> None:
    update_type = op.update_encoding
    target_type = op.target_encoding
    assert isinstance(update_type, TensorType) and isinstance(target_type, TensorType)
    update_dims = iter(op.update_encoding_dims)
    lengths = [
        next(update_dims) if d == DYNAMIC_INDEX else constants.get(d)
        for d in update_type.get_shape()
    ]
    start, end = _byte_range(
        op,
        target_type,
        list(op.target_encoding_dims),
        list(op.start_indices),
        lengths,
        constants,
    )
    new = stream.AsyncUpdateOp(
        op.target,
        op.target_size,
        start,
        end,
        op.update,
        op.update_size,
        op.affinity,
    )
    Rewriter.replace_op(op, new)
