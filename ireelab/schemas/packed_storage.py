"""Sub-byte element types in buffers: which are stored packed, how many bytes they take, and
the bit layout of their elements.

Mirrors IREE's `Encoding/Utils/ElementPackingUtils.cpp`: an element type of 2 or 4 bits
(`i2`, `i4`, `f4E2M1FN`) is stored packed, `8 / bits` elements per byte; `i1` is stored one
byte per element unless its tensor type carries `#iree_encoding.packed_storage`, then packed
too. Element `k` of a packed buffer is in byte `k // per_byte`, at bit `(k % per_byte) * bits`
(the first element in the low bits: little-endian nibble order). A tensor's bytes are
`count * bits / 8`; IREE refuses a static tensor whose elements do not fill whole bytes, and so
does ireelab.

Used by the Stream stage (sizes and constants), codegen (the kernels' packed loads and stores)
and the runtime (buffer views); plain Python, no numpy at import.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ComplexType, IntegerType
from xdsl.ir import Attribute

PACKED_STORAGE = "#iree_encoding.packed_storage"
"""The tensor encoding that packs `i1` (IREE's `iree_encoding.packed_storage`)."""


def type_bits(element_type: Attribute) -> int | None:
    """The bit width of an integer or float element type (None for others)."""
    if isinstance(element_type, IntegerType):
        return element_type.width.data
    if isinstance(element_type, ComplexType):  # a pair of its floats
        inner = type_bits(element_type.element_type)
        return None if inner is None else 2 * inner
    return getattr(element_type, "bitwidth", None)


def packed_bits(element_type: Attribute, packed_i1: bool = False) -> int | None:
    """Bits per element when `element_type` is stored packed (`packed_i1`: the tensor has
    `#iree_encoding.packed_storage`), else None."""
    bits = type_bits(element_type)
    if bits == 1:
        return 1 if packed_i1 else None
    return bits if bits in (2, 4) else None


def is_packed_tensor(tensor_type: Attribute) -> bool:
    element = getattr(tensor_type, "element_type", None)
    return element is not None and packed_bits(element, has_packed_storage(tensor_type)) is not None


def has_packed_storage(tensor_type: Attribute) -> bool:
    encoding = getattr(tensor_type, "encoding", None)
    return encoding is not None and str(encoding) == PACKED_STORAGE


def packed_bytes(count: int, bits: int) -> int | None:
    """Bytes of `count` packed elements of `bits` bits, or None when they do not fill whole
    bytes (IREE cannot lay such a tensor out either)."""
    total = count * bits
    return total // 8 if total % 8 == 0 else None


def pack(values: list[int], bits: int) -> bytes:
    """`values` (each read modulo 2**bits) packed, little-endian within each byte."""
    per_byte, mask = 8 // bits, (1 << bits) - 1
    out = bytearray((len(values) + per_byte - 1) // per_byte)
    for index, value in enumerate(values):
        out[index // per_byte] |= (value & mask) << (index % per_byte * bits)
    return bytes(out)
