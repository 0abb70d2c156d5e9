"""Sub-byte buffers in numba kernels: packed bytes in memory, whole numbers in registers.

IREE's CPU backend emulates narrow types (`EmulateNarrowTypePass`, MLIR's narrow-type
emulation): a memref of `i4` becomes a memref of `i8` with half as many elements, and each load
or store of an element becomes a byte load, a shift and a mask (a store: a read-modify-write
of the byte). ireelab's kernels do the same, element by element:

- a buffer of a packed type (`schemas/packed_storage.py`: i2, i4, f4E2M1FN, and i1 under
  `#iree_encoding.packed_storage`, which bufferization keeps as the memref's memory space) is
  a 1-D `uint8`
  array of its packed bytes (bindings, constants and allocations alike), indexed by the
  row-major linear index of the element;
- `memref.load` reads the element's bits (`_load_bits<N>`), then an integer is sign-extended
  into an `int8` register (MLIR's signless value, as `arith.extsi` would read it; `extui`
  masks it again) and an f4E2M1FN is decoded to f32 (`f16_storage`'s small-float rule);
- `memref.store` writes them back into their bits of the byte (`_store_bits<N>`), leaving the
  byte's other elements unchanged;
- a dispatch that stores into a packed buffer runs as one workgroup
  (`LLVMCPUSelectLoweringStrategyPass`), so no two threads write the same byte.

Views of packed buffers (`memref.subview`, `memref.dim`) are refused: `FoldMemRefAliasOpsPass`
has folded the tiles' subviews into the loads and stores by then.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType, MemRefType
from xdsl.ir import Attribute

from ireelab.schemas import packed_storage

_LOAD = """\
def _load_bits{bits}(a, k):
    return (np.int64(a[k >> {shift}]) >> ((k & {lane_mask}) * {bits})) & {mask}
"""

_STORE = """\
def _store_bits{bits}(a, k, v):
    s = (k & {lane_mask}) * {bits}
    a[k >> {shift}] = np.uint8((np.int64(a[k >> {shift}]) & ~({mask} << s)) | ((np.int64(v) & {mask}) << s))
"""


def _fields(bits: int) -> dict[str, int]:
    per_byte = 8 // bits
    return {"bits": bits, "shift": per_byte.bit_length() - 1, "lane_mask": per_byte - 1,
            "mask": (1 << bits) - 1}  # fmt: skip


HELPERS: dict[str, str] = {}
"""njit helper source by name: a load and a store per packed width."""
for _bits in (1, 2, 4):
    HELPERS[f"_load_bits{_bits}"] = _LOAD.format(**_fields(_bits))
    HELPERS[f"_store_bits{_bits}"] = _STORE.format(**_fields(_bits))


def packed_bits(memref: Attribute) -> int | None:
    """Bits per element when `memref` is a buffer of a packed type (an `i1` one when its
    memory space is `#iree_encoding.packed_storage`, as bufferization keeps it), else None."""
    if not isinstance(memref, MemRefType):
        return None
    packed_i1 = str(memref.memory_space) == packed_storage.PACKED_STORAGE
    return packed_storage.packed_bits(memref.get_element_type(), packed_i1)


def packed_byte_count(memref: MemRefType) -> int | None:
    """Bytes of a static packed buffer, or None if its elements do not fill whole bytes."""
    count = 1
    for size in memref.get_shape():
        count *= size
    return packed_storage.packed_bytes(count, packed_bits(memref))


def linear_index(shape: tuple[int, ...], indices: list[str]) -> str:
    """The row-major linear index of `indices` (names) into a static `shape`."""
    terms = []
    stride = 1
    for size, index in zip(reversed(shape), reversed(indices), strict=True):
        terms.append(index if stride == 1 else f"{index} * {stride}")
        stride *= size
    return " + ".join(reversed(terms)) if terms else "0"


def load_expression(element: Attribute, bits: int, array: str, index: str) -> str:
    """The register value of element `index` of packed `array`."""
    raw = f"_load_bits{bits}({array}, {index})"
    if isinstance(element, IntegerType):
        if bits == 1:
            return f"bool({raw})"
        sign = 1 << (bits - 1)
        return f"np.int8(({raw} ^ {sign}) - {sign})"
    from ireelab.compiler.codegen.f16_storage import load_expression as decode

    return decode(element, raw)


def store_statement(element: Attribute, bits: int, array: str, index: str, value: str) -> str:
    """The statement writing register `value` into element `index` of packed `array`."""
    from ireelab.compiler.codegen.f16_storage import store_expression as encode

    bits_value = value if isinstance(element, IntegerType) else encode(element, value)
    return f"_store_bits{bits}({array}, {index}, {bits_value})"
