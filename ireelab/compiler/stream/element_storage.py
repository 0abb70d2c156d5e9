"""Element storage as the stream stage lays tensors out in memory: bytes per element, bytes of
a static tensor, and the bit pattern that fills memory with a scalar.

IREE keeps these rules beside its tensor encoding (`IREE::Util::getRoundedElementByteWidth`,
and the splat narrowing in Stream's EncodeTensors.cpp); here they sit below the passes that
use them (EncodeHostTensorsPass and its host slice and element helpers), so none of those
modules imports another for them.
"""

from __future__ import annotations

import struct

from xdsl.dialects import arith
from xdsl.dialects.builtin import ComplexType, FloatAttr, IntegerAttr, IntegerType, TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from ireelab.diagnostics import CompileError
from ireelab.schemas import packed_storage, small_float_formats

STAGE = "stream"


def element_bytes(op: Operation, element_type: Attribute) -> int:
    """Storage bytes of one element (i1 takes a byte, as IREE stores it by default; packed
    sub-byte types are sized by `tensor_bytes`)."""
    width = getattr(element_type, "bitwidth", None)
    if isinstance(element_type, ComplexType):  # a pair of floats, IREE's complex storage
        return 2 * element_bytes(op, element_type.element_type)
    if isinstance(element_type, IntegerType):
        width = element_type.width.data
    if not isinstance(width, int):
        raise CompileError.at(op, f"cannot size elements of type {element_type}", STAGE)
    return (width + 7) // 8


def tensor_bytes(op: Operation, tensor_type: Attribute, dynamic_as_one: bool = False) -> int:
    """Bytes of a dense row-major tensor with a static shape (with `dynamic_as_one`, of its
    static dims: the factor its `?` sizes multiply)."""
    if not isinstance(tensor_type, TensorType):
        raise CompileError.at(op, f"cannot size {tensor_type}", STAGE)
    count = 1
    for dim in tensor_type.get_shape():
        if dim < 0 and dynamic_as_one:
            continue
        if dim < 0:
            raise CompileError.at(op, f"dynamic shape {tensor_type} is not supported yet", STAGE)
        count *= dim
    bits = packed_storage.packed_bits(
        tensor_type.element_type, packed_storage.has_packed_storage(tensor_type)
    )
    if bits is None:
        return count * element_bytes(op, tensor_type.element_type)
    if any(dim < 0 for dim in tensor_type.get_shape()):
        raise CompileError.at(
            op, f"a dynamic shape of packed {tensor_type} is not supported", STAGE
        )
    size = packed_storage.packed_bytes(count, bits)
    if size is None:
        raise CompileError.at(
            op, f"{tensor_type} is stored packed and its elements do not fill whole bytes", STAGE
        )
    return size


def fill_pattern(op: Operation, value: SSAValue) -> tuple[int, int]:
    """(pattern, byte width) filling memory with `value`: the element's bits, narrowed to the
    shortest repeating unit (0.0f -> i8 0), as IREE's splat encoding does."""
    owner = value.owner
    if not isinstance(owner, arith.ConstantOp) or not isinstance(
        owner.value, IntegerAttr | FloatAttr
    ):
        raise CompileError.at(op, "a splat of a value computed at run time is not supported", STAGE)
    ty = value.type
    width = element_bytes(op, ty)
    small = small_float_formats.FORMATS.get(str(ty))
    if isinstance(owner.value, FloatAttr) and small is not None:  # bf16, the 8-bit floats
        bits = small_float_formats.encode(small, owner.value.value.data)
        raw = bits.to_bytes(width, "little")
    elif isinstance(owner.value, FloatAttr):
        fmt = {2: "<e", 4: "<f", 8: "<d"}[width]
        raw = struct.pack(fmt, owner.value.value.data)
    else:
        raw = (owner.value.value.data % (1 << (8 * width))).to_bytes(width, "little")
    unit = next(u for u in (1, 2, 4, 8) if raw == raw[:u] * (width // u))
    return int.from_bytes(raw[:unit], "little", signed=True), unit


def packed_fill_pattern(op: Operation, value: SSAValue, tensor_type: TensorType) -> int | None:
    """The i8 pattern filling a packed tensor with `value` (its bits repeated in every
    byte: 8 / bits copies), or None when `tensor_type` is not packed."""
    bits = packed_storage.packed_bits(
        tensor_type.element_type, packed_storage.has_packed_storage(tensor_type)
    )
    if bits is None:
        return None
    owner = value.owner
    if not isinstance(owner, arith.ConstantOp) or not isinstance(owner.value, IntegerAttr):
        raise CompileError.at(
            op, f"a splat of packed {tensor_type} needs a constant integer value", STAGE
        )
    byte = packed_storage.pack([owner.value.value.data] * (8 // bits), bits)[0]
    return byte - 256 if byte > 127 else byte
