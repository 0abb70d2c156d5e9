"""Read and validate an ireelab module file (`.ilvm`); the format is documented in
`ireelab.compiler.vm.module_file`. IREE's counterpart is the FlatBuffer verification in
`iree/vm/bytecode/module.c` (`iree_vm_bytecode_module_flatbuffer_verify`).

Every problem (empty, truncated, foreign, corrupted, wrong version, malformed section)
raises `ModuleFileError` with a one-line message; nothing here trusts an offset it has not
checked.
"""

from __future__ import annotations

import hashlib
import json
import struct
from dataclasses import dataclass

from ireelab.runtime.errors import ModuleFileError

MAGIC = b"ILVM\x00\r\n\x1a"
FORMAT_VERSION = 1
CHECKSUM_SIZE = 32
HEADER = struct.Struct("<8sII")
SECTION_ENTRY = struct.Struct("<4sIQQ")
REQUIRED_SECTIONS = (
    b"META",
    b"TYPE",
    b"IMPT",
    b"EXPT",
    b"SIGN",
    b"REFL",
    b"GLOB",
    b"RODA",
    b"CODE",
)


@dataclass(frozen=True)
class Rodata:
    name: str
    alignment: int
    mime_type: str
    data: bytes


@dataclass(frozen=True)
class FunctionCode:
    name: str
    registers: tuple[int, int, int]
    block_count: int
    code: bytes
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]


@dataclass(frozen=True)
class ModuleImage:
    """Everything a module file holds, validated and ready to load."""

    name: str
    version: int
    types: list[str]
    imports: list[dict]
    exports: list[dict]
    reflection: dict[str, dict]
    globals: dict[str, list[dict]]
    rodata: list[Rodata]
    functions: list[FunctionCode]
    executables: list[dict]
    sections: dict[str, tuple[int, int]]
    """Tag -> (offset, length) in the file, for `ireelab-dump-module`."""
    size: int


def _json(tag: bytes, data: bytes, kind: type) -> object:
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:
        raise ModuleFileError(f"section {tag.decode()} is not valid JSON: {err}") from None
    if not isinstance(value, kind):
        raise ModuleFileError(f"section {tag.decode()} has the wrong shape")
    return value


def _table_and_blobs(tag: bytes, data: bytes) -> list[tuple[dict, bytes]]:
    if len(data) < 4:
        raise ModuleFileError(f"section {tag.decode()} is truncated")
    (table_length,) = struct.unpack_from("<I", data)
    if 4 + table_length > len(data):
        raise ModuleFileError(f"section {tag.decode()} table runs past its end")
    entries = _json(tag, data[4 : 4 + table_length], list)
    out = []
    for entry in entries:
        try:
            offset, length = int(entry["offset"]), int(entry["length"])
        except (KeyError, TypeError, ValueError):
            raise ModuleFileError(f"section {tag.decode()} has a malformed entry") from None
        if offset < 4 + table_length or length < 0 or offset + length > len(data):
            raise ModuleFileError(f"section {tag.decode()} entry runs outside the section")
        out.append((entry, data[offset : offset + length]))
    return out


def _check_container(data: bytes) -> dict[bytes, tuple[int, int]]:
    if not data:
        raise ModuleFileError("module file is empty")
    if len(data) < len(MAGIC) or data[: len(MAGIC)] != MAGIC:
        if b"IREE" in data[:256] and (data[4:8] == b"IREE" or data.startswith(b"PK\x03\x04")):
            raise ModuleFileError(
                "this is an IREE .vmfb module (run it with iree-run-module), not an ireelab module"
            )
        raise ModuleFileError("not an ireelab module file (bad magic)")
    if len(data) < HEADER.size + CHECKSUM_SIZE:
        raise ModuleFileError("module file is truncated (header incomplete)")
    _, version, count = HEADER.unpack_from(data)
    if version != FORMAT_VERSION:
        raise ModuleFileError(
            f"module file format version {version} is not supported (expected {FORMAT_VERSION})"
        )
    table_end = HEADER.size + SECTION_ENTRY.size * count
    if table_end + CHECKSUM_SIZE > len(data):
        raise ModuleFileError("module file is truncated (section table incomplete)")
    body, checksum = data[:-CHECKSUM_SIZE], data[-CHECKSUM_SIZE:]
    sections: dict[bytes, tuple[int, int]] = {}
    for i in range(count):
        tag, _, offset, length = SECTION_ENTRY.unpack_from(
            data, HEADER.size + i * SECTION_ENTRY.size
        )
        if offset < table_end or offset + length > len(body):
            raise ModuleFileError(
                f"module file is truncated or corrupted (section {tag!r} lies outside the file)"
            )
        sections[tag] = (offset, length)
    if hashlib.sha256(body).digest() != checksum:
        raise ModuleFileError("module file is corrupted (SHA-256 checksum mismatch)")
    missing = [t.decode() for t in REQUIRED_SECTIONS if t not in sections]
    if missing:
        raise ModuleFileError(f"module file lacks section(s) {', '.join(missing)}")
    return sections


def read_module(data: bytes) -> ModuleImage:
    data = bytes(data)
    table = _check_container(data)

    def section(tag: bytes) -> bytes:
        offset, length = table[tag]
        return data[offset : offset + length]

    try:
        return _decode(data, table, section)
    except ModuleFileError:
        raise
    except (KeyError, TypeError, ValueError, IndexError) as err:
        raise ModuleFileError(f"module file has a malformed section: {err!r}") from None


def _decode(data: bytes, table, section) -> ModuleImage:
    meta = _json(b"META", section(b"META"), dict)
    signatures = _json(b"SIGN", section(b"SIGN"), list)
    code = _table_and_blobs(b"CODE", section(b"CODE"))
    if len(code) != len(signatures):
        raise ModuleFileError("sections CODE and SIGN disagree on the number of functions")
    functions = [
        FunctionCode(
            name=str(entry["name"]),
            registers=tuple(int(r) for r in entry["registers"]),
            block_count=int(entry["blocks"]),
            code=blob,
            inputs=tuple(sig["inputs"]),
            outputs=tuple(sig["outputs"]),
        )
        for (entry, blob), sig in zip(code, signatures, strict=True)
    ]
    rodata = [
        Rodata(str(e["name"]), int(e["alignment"]), str(e["mime_type"]), blob)
        for e, blob in _table_and_blobs(b"RODA", section(b"RODA"))
    ]
    exports = _json(b"EXPT", section(b"EXPT"), list)
    for export in exports:
        if not 0 <= int(export["function"]) < len(functions):
            raise ModuleFileError(f"export '{export['name']}' names a missing function")
    executables = _json(b"EXEC", section(b"EXEC"), list) if b"EXEC" in table else []
    return ModuleImage(
        name=str(meta["name"]),
        version=int(meta.get("version", 0)),
        types=list(_json(b"TYPE", section(b"TYPE"), list)),
        imports=list(_json(b"IMPT", section(b"IMPT"), list)),
        exports=exports,
        reflection=dict(_json(b"REFL", section(b"REFL"), dict)),
        globals=dict(_json(b"GLOB", section(b"GLOB"), dict)),
        rodata=rodata,
        functions=functions,
        executables=executables,
        sections={tag.decode(): span for tag, span in table.items()},
        size=len(data),
    )
