"""Host reads and writes of single tensor elements through the Stream stage.

Mirrors the Flow->Stream patterns of IREE's ConvertToStreamPass for `flow.tensor.load` and
`flow.tensor.store` (Stream/Conversion/FlowToStream) and the matching cases of its
EncodeHostTensorsPass (Stream/Transforms/EncodeTensors.cpp), IREE 3.13:

    %v = flow.tensor.load %t[%c1, %c1] : tensor<4x6xf32>
      -> %s = stream.tensor.slice %t[%c1, %c1 for %c1, %c1] : ... -> tensor<1x1xf32> in !stream.resource<*>{%n}
         %st = stream.async.transfer %s : !stream.resource<*>{%n} from(#aff) -> to(#aff) !stream.resource<staging>{%n}
         %v = stream.tensor.load %st[%c0, %c0] : tensor<1x1xf32> in !stream.resource<staging>{%n} -> f32
      -> %v = stream.async.load %st[%c0] : !stream.resource<staging>{%c4} -> f32

    %r = flow.tensor.store %x, %t[%c1, %c2] : tensor<4x6xf32>
      -> %r = stream.tensor.fill on(#aff) %x, %t[%c1, %c2 for %c1, %c1] : f32 -> tensor<4x6xf32> in %t as ...
      -> %b = arith.bitcast %x : f32 to i32
         %r = stream.async.fill on(#aff) %b, %t[%c32 to %c36 for %c4] : i32 -> %t as ...

A read of a 0-d tensor transfers the whole (one-element) resource without a slice. The
staging transfer is device work (ScheduleExecutionPass puts it in the execute region, and
ScheduleAllocationPass makes it a `stream.cmd.copy` plus a `stream.cmd.flush`); the load is
host work after the await, `stream.resource.load` once the staging resource is allocated.

Differences from IREE 3.13:
- IREE's EncodeHostTensors sizes the one-element fill from the linearised end index
  (start + length in every dimension), so `tensor.insert` into element [1, 2] of a 4x6
  tensor fills 28 bytes - seven elements - and the program returns a wrong tensor; ireelab
  fills exactly the element's bytes.
- IREE writes into an imported argument that nothing else reads (the caller's buffer view
  changes); ireelab copies the argument first, as for `flow.tensor.update` (`host_slices`).

Indices computed at run time make the host compute the byte offset (`host_byte_ranges`), as
IREE's EncodeHostTensors does: `stream.async.slice %t[%off to %end]` for a read, a fill of
the element's bytes at `%off` for a write (`tests/dynamic/test_host_element_run_time_index.py`).
"""

from __future__ import annotations

from typing import Protocol

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.stream.element_storage import element_bytes, fill_pattern
from ireelab.compiler.stream.host_byte_ranges import run_time_byte_range
from ireelab.compiler.stream.host_slices import contiguous_byte_range
from ireelab.compiler.stream.index_constants import IndexConstants, constant_value
from ireelab.diagnostics import CompileError
from ireelab.dialects import flow, stream

STAGE = "stream"
STAGING = stream.ResourceType("staging")


class HostConverter(Protocol):
    """What these conversions need from ConvertToStreamPass's host converter."""

    affinity: Attribute
    resources: dict

    def _lookup(self, op: Operation, value: SSAValue): ...

    def _sizeof(self, tensor_type: TensorType, before: Operation) -> SSAValue: ...

    def _copy_on_write(self, op: Operation, value: SSAValue) -> SSAValue: ...

    def _erase_when_unused(self, op: Operation) -> None: ...


# ---- ConvertToStreamPass -------------------------------------------------------------------


def _element_access_type(
    op: Operation, value: SSAValue, widest: int = 32, run_time_indices: bool = False
) -> TensorType:
    """The static tensor type `op` reads or writes one element of; located errors for what
    the later stages cannot hold (dynamic shapes or indices, elements wider than `widest`
    bits: the host reads an i64 as two 32-bit loads and writes one as two 32-bit fills)."""
    ty = value.type
    if not isinstance(ty, TensorType) or any(d < 0 for d in ty.get_shape()):
        raise CompileError.at(
            op, f"'{op.name}' of a dynamically shaped tensor is not supported", STAGE
        )
    if not run_time_indices and any(constant_value(i) is None for i in op.indices):
        raise CompileError.at(
            op, f"'{op.name}' with indices computed at run time is not supported", STAGE
        )
    element = ty.element_type
    width = element.bitwidth if isinstance(element, AnyFloat | IntegerType) else 0
    allowed = (8, 16, 32, 64) if widest == 64 and isinstance(element, IntegerType) else (8, 16, 32)
    if width not in allowed:
        raise CompileError.at(
            op, f"'{op.name}' of {element} elements is not supported (8, 16 or 32 bits)", STAGE
        )
    return ty


def _index_constant(value: int, before: Operation) -> SSAValue:
    const = arith.ConstantOp(IntegerAttr(value, IndexType()))
    const.result.name_hint = f"c{value}"
    Rewriter.insert_op(const, InsertPoint.before(before))
    return const.result


def convert_tensor_load(converter: HostConverter, op: flow.TensorLoadOp) -> None:
    """`flow.tensor.load` -> one-element slice, transfer to staging, `stream.tensor.load`."""
    tensor_type = _element_access_type(op, op.source, widest=64, run_time_indices=True)
    source = converter._lookup(op, op.source)
    value, size, encoding, indices = source.value, source.size, tensor_type, []
    rank = tensor_type.get_num_dims()
    if rank:
        one = _index_constant(1, op)
        zero = _index_constant(0, op)
        encoding = TensorType(tensor_type.element_type, [1] * rank)
        size = converter._sizeof(encoding, op)
        sliced = stream.TensorSliceOp(
            source.value,
            source.tensor_type,
            source.size,
            list(op.indices),
            [one] * rank,
            encoding,
            stream.ResourceType(),
            size,
            converter.affinity,
        )
        Rewriter.insert_op(sliced, InsertPoint.before(op))
        value, indices = sliced.result, [zero] * rank
    transfer = stream.AsyncTransferOp(
        value, size, STAGING, size, converter.affinity, converter.affinity
    )
    load = stream.TensorLoadOp(transfer.result, encoding, size, indices, op.result.type)
    Rewriter.insert_op([transfer, load], InsertPoint.before(op))
    op.result.replace_all_uses_with(load.result)
    converter._erase_when_unused(op)


def convert_tensor_store(converter: HostConverter, op: flow.TensorStoreOp, resource_cls) -> None:
    """`flow.tensor.store` -> `stream.tensor.fill` of one element, tied to its target."""
    tensor_type = _element_access_type(op, op.target, widest=64, run_time_indices=True)
    target = converter._lookup(op, op.target)
    target_value = converter._copy_on_write(op, op.target)
    rank = tensor_type.get_num_dims()
    lengths = [_index_constant(1, op)] * rank if rank else []
    fill = stream.TensorFillOp(
        op.value,
        target_value,
        target.tensor_type,
        target.size,
        list(op.indices),
        lengths,
        converter.affinity,
    )
    Rewriter.insert_op(fill, InsertPoint.before(op))
    converter.resources[op.result] = resource_cls(fill.result, target.size, target.tensor_type)
    converter._erase_when_unused(op)


# ---- EncodeHostTensorsPass -----------------------------------------------------------------


def _element_offset(op: Operation, tensor_type: Attribute, indices) -> int:
    """Byte offset of element `indices` in a dense row-major `tensor_type`."""
    assert isinstance(tensor_type, TensorType)
    starts = [constant_value(i) for i in indices]
    if any(s is None for s in starts):
        raise CompileError.at(op, f"'{op.name}' with dynamic indices is not supported", STAGE)
    ones = [1] * len(starts)
    offset, _ = contiguous_byte_range(op, tensor_type, [s for s in starts if s is not None], ones)
    return offset


def encode_tensor_load(op: stream.TensorLoadOp, constants: IndexConstants) -> None:
    """`stream.tensor.load` -> `stream.async.load` at the element's byte offset."""
    offset = _element_offset(op, op.source_encoding, op.indices)
    new = stream.AsyncLoadOp(op.source, op.source_size, constants.get(offset), op.result.type)
    Rewriter.replace_op(op, new)


def _fill_value(op: stream.TensorFillOp) -> SSAValue:
    """The bit pattern to fill with: a constant narrowed as a splat's, a runtime float
    bitcast to the integer of its width (as IREE encodes a fill)."""

    value = op.value
    if isinstance(value.owner, arith.ConstantOp):
        pattern, width = fill_pattern(op, value)
        const = arith.ConstantOp(IntegerAttr(pattern, IntegerType(8 * width)))
        const.result.name_hint = f"c{pattern}_i{8 * width}".replace("-", "n")
        Rewriter.insert_op(const, InsertPoint.before(op))
        return const.result
    ty = value.type
    if not isinstance(ty, AnyFloat):
        return value
    cast = arith.BitcastOp(value, IntegerType(ty.bitwidth))
    Rewriter.insert_op(cast, InsertPoint.before(op))
    return cast.result


def _i64_words(op: stream.TensorFillOp, length: int) -> list[SSAValue] | None:
    """The low and high 32-bit words of the i64 one element is set to, when the fill writes
    one i64 element whose bits do not repeat in 32 (the VM's fills are at most 32 bits, as
    its host reads are; IREE fills with a builtin 64-bit fill kernel instead)."""
    value = op.value
    if value.type != IntegerType(64) or length != 8:
        return None
    if isinstance(value.owner, arith.ConstantOp):
        if fill_pattern(op, value)[1] <= 4:
            return None
        bits = value.owner.value.value.data % (1 << 64)
        words = [arith.ConstantOp(IntegerAttr(w, IntegerType(32))) for w in _split(bits)]
        Rewriter.insert_op(words, InsertPoint.before(op))
        return [w.result for w in words]
    shift = arith.ConstantOp(IntegerAttr(32, IntegerType(64)))
    high = arith.ShRUIOp(value, shift.result)
    words = [arith.TruncIOp(value, IntegerType(32)), arith.TruncIOp(high.result, IntegerType(32))]
    Rewriter.insert_op([shift, high, *words], InsertPoint.before(op))
    return [w.result for w in words]


def _split(bits: int) -> list[int]:
    """Little-endian 32-bit words of a 64-bit pattern, as signed i32 values."""
    words = [bits & 0xFFFFFFFF, bits >> 32]
    return [w - (1 << 32) if w >= 1 << 31 else w for w in words]


Bound = int | SSAValue
"""A byte offset: a constant, or a value the host computes from run-time indices."""


def _bound(bound: Bound, constants: IndexConstants) -> SSAValue:
    return constants.get(bound) if isinstance(bound, int) else bound


def _word_fills(
    op: stream.TensorFillOp, words: list[SSAValue], bounds: list[Bound], constants: IndexConstants
) -> list[Operation]:
    """One 4-byte `stream.async.fill` per word between consecutive byte `bounds`, each
    writing into the previous one's result."""
    fills: list[Operation] = []
    target = op.target
    for i, word in enumerate(words):
        start, end = _bound(bounds[i], constants), _bound(bounds[i + 1], constants)
        fill = stream.AsyncFillOp(
            word, target, op.target_size, start, end, constants.get(4), op.affinity
        )
        fills.append(fill)
        target = fill.result
    return fills


def _fill_range(
    op: stream.TensorFillOp, target_type: TensorType, constants: IndexConstants
) -> tuple[list[Bound], int]:
    """The byte offsets of each 4-byte word boundary of the filled run (start and end when
    it is not one i64 element) and its length: constants for constant indices, else the
    host arithmetic on the run-time indices (one element: a `flow.tensor.store` at an index
    computed at run time, as IREE computes the offset on the host)."""
    starts = [constant_value(v) for v in op.start_indices]
    lengths = [constant_value(v) for v in op.lengths]
    if any(v is None for v in lengths):
        raise CompileError.at(op, f"'{op.name}' with dynamic lengths is not supported", STAGE)
    static_lengths = [n for n in lengths if n is not None]
    if all(v is not None for v in starts):
        static_starts = [v for v in starts if v is not None]
        offset, length = contiguous_byte_range(op, target_type, static_starts, static_lengths)
        words = range(offset, offset + length + 1, 4) if length == 8 else (offset, offset + length)
        return list(words), length
    if any(n != 1 for n in static_lengths):
        raise CompileError.at(
            op, f"'{op.name}' of a run at dynamic indices is not supported", STAGE
        )
    start, end = run_time_byte_range(
        op, target_type, [], list(op.start_indices), list(op.lengths), constants
    )
    length = element_bytes(op, target_type.element_type)
    if length != 8:
        return [start, end], length
    middle = arith.AddiOp(start, constants.get(4))
    Rewriter.insert_op(middle, InsertPoint.before(op))
    return [start, middle.result, end], length


def encode_tensor_fill(op: stream.TensorFillOp, constants: IndexConstants) -> None:
    """`stream.tensor.fill` -> `stream.async.fill` over exactly the filled elements' bytes."""
    target_type = op.target_encoding
    assert isinstance(target_type, TensorType)
    bounds, length = _fill_range(op, target_type, constants)
    words = _i64_words(op, length)
    if words is not None:
        Rewriter.replace_op(op, _word_fills(op, words, bounds, constants))
        return
    new = stream.AsyncFillOp(
        _fill_value(op),
        op.target,
        op.target_size,
        _bound(bounds[0], constants),
        _bound(bounds[-1], constants),
        constants.get(length),
        op.affinity,
    )
    Rewriter.replace_op(op, new)


# ---- ScheduleAllocationPass ----------------------------------------------------------------


def lower_host_loads(ops: list[Operation]) -> None:
    """`stream.async.load` of an awaited staging resource -> `stream.resource.load`."""
    for op in ops:
        if isinstance(op, stream.AsyncLoadOp):
            new = stream.ResourceLoadOp(op.source, op.source_size, op.source_offset, op.result.type)
            Rewriter.replace_op(op, new)
