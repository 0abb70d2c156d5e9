"""`schemas/packed_storage.py`: which element types IREE packs, and the bit layout (first
element in the low bits), against numpy's packbits for i1 and a reference loop for i2 / i4."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import Float4E2M1FNType, IntegerType, f16

from ireelab.schemas import packed_storage


def _unpack(data: bytes, bits: int, count: int, signed: bool = False) -> list[int]:
    per_byte, mask = 8 // bits, (1 << bits) - 1
    values = [data[k // per_byte] >> (k % per_byte * bits) & mask for k in range(count)]
    return [v - (1 << bits) if signed and v >> (bits - 1) else v for v in values]


@pytest.mark.parametrize(
    ("element", "packed_i1", "bits"),
    [
        (IntegerType(4), False, 4),
        (IntegerType(2), False, 2),
        (Float4E2M1FNType(), False, 4),
        (IntegerType(1), False, None),  # a byte per i1 unless #iree_encoding.packed_storage
        (IntegerType(1), True, 1),
        (IntegerType(3), False, None),  # not a power of two: IREE does not pack it
        (IntegerType(8), False, None),
        (f16, False, None),
    ],
)
def test_which_types_are_packed(element, packed_i1, bits):
    assert packed_storage.packed_bits(element, packed_i1) == bits


def test_i1_packs_as_numpy_packbits_little():
    rng = np.random.default_rng(0)
    values = rng.integers(0, 2, 64).tolist()
    want = np.packbits(np.array(values, np.uint8), bitorder="little").tobytes()
    assert packed_storage.pack(values, 1) == want
    assert _unpack(want, 1, 64) == values


@pytest.mark.parametrize("bits", [2, 4])
def test_sub_byte_integers_round_trip_signed(bits):
    low, high = -(1 << (bits - 1)), 1 << (bits - 1)
    values = list(range(low, high)) * 4
    data = packed_storage.pack(values, bits)
    assert len(data) == len(values) * bits // 8
    assert _unpack(data, bits, len(values), signed=True) == values
    first = data[0]
    assert first & ((1 << bits) - 1) == values[0] & ((1 << bits) - 1)  # element 0: low bits


def test_sizes_must_fill_whole_bytes():
    assert packed_storage.packed_bytes(8, 4) == 4
    assert packed_storage.packed_bytes(3, 4) is None
    assert packed_storage.packed_bytes(16, 1) == 2
