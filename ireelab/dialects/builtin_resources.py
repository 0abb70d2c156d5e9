"""The blobs behind `dense_resource<handle>` attributes, and the file section that holds them.

MLIR writes large constants (every weight an importer brings in) as `dense_resource<key> :
tensor<...>` and keeps the bytes once, in the file's trailing section

    {-#
      dialect_resources: {
        builtin: {
          key: "0x04000000..."
        }
      }
    #-}

where each value is the blob's alignment (4 bytes, little-endian) then its raw row-major bytes.
The MLIR context owns the blobs (`DenseResourceElementsHandle` / `AsmResourceBlob`) and keeps
keys unique within it: a second blob under a taken key is renamed `key_0`, `key_1`, ...

xDSL 0.75 parses the section into storage on its (process-wide) builtin dialect object, and a
second parse of the same file renames the IR's handles but stores the bytes under yet another
key, so the IR loses its data. ireelab keeps its own table instead, with MLIR's context rules:
one process is one context, a key names one blob, the same bytes under the same key are shared.
The IR keeps the handle (as IREE prints it, through every stage down to the
`util.buffer.constant` that packs the weights into the module file); the passes that need the
values ask this module for them.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    ShapedType,
    TensorType,
)
from xdsl.ir import Attribute


@dataclass(frozen=True)
class Blob:
    alignment: int
    data: bytes


_BLOBS: dict[str, Blob] = {}
"""Every blob this process has read or made, by key (MLIR's context-owned resources)."""

_ELEMENTS: dict[tuple[str, Attribute], DenseIntOrFPElementsAttr] = {}
"""`dense_resource` attribute -> the same values as a dense attribute, made once."""


def decode_hex(text: str) -> Blob:
    """`"0x" + alignment (u32, little-endian) + bytes`, as MLIR prints a blob."""
    if not text.startswith("0x") or len(text) < 10 or len(text) % 2:
        raise ValueError("a resource blob must be a hex string 0x<alignment><bytes>")
    raw = bytes.fromhex(text[2:])
    (alignment,) = struct.unpack("<I", raw[:4])
    return Blob(alignment, raw[4:])


def encode_hex(blob: Blob) -> str:
    return "0x" + (struct.pack("<I", blob.alignment) + blob.data).hex().upper()


def declare(key: str, blob: Blob) -> str:
    """Keep `blob` under `key`, or under `key_N` if `key` holds other bytes; return the key."""
    candidate, suffix = key, 0
    while candidate in _BLOBS and _BLOBS[candidate].data != blob.data:
        candidate, suffix = f"{key}_{suffix}", suffix + 1
    _BLOBS.setdefault(candidate, blob)
    return candidate


def lookup(key: str) -> Blob | None:
    return _BLOBS.get(key)


def byte_length(shaped: ShapedType) -> int:
    """Bytes of a row-major tensor of this type (i1 takes a byte, as in MLIR's bool blobs)."""
    count = 1
    for dim in shaped.get_shape():
        count *= dim
    element = shaped.get_element_type()
    return count * ((element.bitwidth + 7) // 8)


def check_fits(attr: DenseResourceAttr) -> str | None:
    """Why `attr` cannot be read (no blob, or one of the wrong size), or None."""
    key = attr.resource_handle.data
    blob = _BLOBS.get(key)
    if blob is None:
        return f"dense_resource<{key}> has no blob in the file's dialect_resources section"
    expected = byte_length(attr.type)
    if len(blob.data) != expected:
        return f"dense_resource<{key}> holds {len(blob.data)} bytes; {attr.type} needs {expected}"
    return None


def elements(attr: Attribute) -> DenseIntOrFPElementsAttr | None:
    """The values of a dense or `dense_resource` attribute as a dense attribute, else None."""
    if isinstance(attr, DenseIntOrFPElementsAttr):
        return attr
    if not isinstance(attr, DenseResourceAttr) or check_fits(attr) is not None:
        return None
    key = (attr.resource_handle.data, attr.type)
    if key not in _ELEMENTS:
        shaped = attr.type
        if not isinstance(shaped, TensorType):
            shaped = TensorType(shaped.get_element_type(), shaped.get_shape())
        _ELEMENTS[key] = DenseIntOrFPElementsAttr(shaped, BytesAttr(_BLOBS[key[0]].data))
    return _ELEMENTS[key]


def metadata_section(keys: Iterable[str]) -> str:
    """The `{-# dialect_resources: ... #-}` text for the blobs of `keys` (empty if none)."""
    known = sorted(k for k in set(keys) if k in _BLOBS)
    if not known:
        return ""
    entries = ",\n".join(f'      {k}: "{encode_hex(_BLOBS[k])}"' for k in known)
    return f"\n\n{{-#\n  dialect_resources: {{\n    builtin: {{\n{entries}\n    }}\n  }}\n#-}}"
