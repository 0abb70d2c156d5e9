"""Serialise a `vm.module` to an ireelab module file (`.ilvm`): IREE's
`Target/Bytecode/BytecodeModuleTarget.cpp`, which writes a `.vmfb` FlatBuffer; ireelab's
container is simpler and fully described here.

Layout (all integers little-endian):

    offset 0   magic    8 bytes  b"ILVM\\0\\r\\n\\x1a" (the \\r\\n and \\x1a catch text-mode damage)
           8   version  u32      FORMAT_VERSION
          12   count    u32      number of sections
          16   table    count x (tag: 4 bytes, flags: u32, offset: u64, length: u64)
               payloads each section at its offset (16-byte aligned), inside the file
        end-32 checksum SHA-256 of every byte before it

Sections (tag: content):

    META  JSON {"name", "version", "producer"}
    TYPE  JSON list of the module's required types (`i32`, `!hal.buffer_view`, ...)
    IMPT  JSON list of imports {"name", "args": [[name, type, variadic]], "results",
          "cconv", "attributes"} with IREE's names and signatures
    EXPT  JSON list of exports {"name", "function"} (function ordinal)
    SIGN  JSON list, per function ordinal, {"name", "inputs", "outputs"}
    REFL  JSON {export name: {reflection key: string}} (`iree.abi.declaration`, ...)
    GLOB  JSON {"i32": [{"name", "initial"}], "i64": [...], "ref": [{"name", "type"}]}
    RODA  u32 n + JSON [{"name", "alignment", "mime_type", "offset", "length"}] + data;
          offsets count from the section start and respect each segment's alignment
    CODE  u32 n + JSON [{"name", "offset", "length"}] + the bytecode of every function
          (encoding: `ireelab.compiler.vm.bytecode`)
    EXEC  JSON [{"rodata", "name", "format", "exports"}]: which rodata segments are
          executable binaries and what they export

The file is written to a temporary name in the target folder and renamed into place, so a
crash never leaves a half-written module.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import tempfile
from pathlib import Path

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    Float32Type,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    TupleType,
)
from xdsl.ir import Attribute, Operation

from ireelab.compiler.vm.bytecode import SymbolOrdinals, encode_function
from ireelab.diagnostics import CompileError
from ireelab.dialects import vm

MAGIC = b"ILVM\x00\r\n\x1a"
FORMAT_VERSION = 1
SECTION_ALIGNMENT = 16
CHECKSUM_SIZE = 32
SECTION_ENTRY = struct.Struct("<4sIQQ")
HEADER = struct.Struct("<8sII")


def _type_text(type_: Attribute) -> str:
    return str(type_)


def _cconv_char(type_: Attribute) -> str:
    if isinstance(type_, Float32Type):
        return "f"
    if isinstance(type_, IntegerType):
        return "I" if type_.width.data == 64 else "i"
    if isinstance(type_, TupleType):
        return "".join(_cconv_char(t) for t in type_.types.data)
    return "r"


def _cconv(op: vm.ImportOp) -> str:
    """IREE's calling-convention string (`0rIrrIiiII_r`), as `iree-dump-module` shows it."""
    args = ""
    for type_, variadic in zip(op.function_type.inputs.data, op.is_variadic, strict=True):
        args += f"C{_cconv_char(type_)}D" if variadic else _cconv_char(type_)
    results = "".join(_cconv_char(t) for t in op.function_type.outputs.data)
    return f"0{args or 'v'}_{results or 'v'}"


def _attr_json(attr: Attribute) -> object:
    if isinstance(attr, StringAttr):
        return attr.data
    if isinstance(attr, IntegerAttr):
        return attr.value.data
    if isinstance(attr, DictionaryAttr):
        return {k: _attr_json(v) for k, v in attr.data.items()}
    if isinstance(attr, ArrayAttr):
        return [_attr_json(a) for a in attr.data]
    return str(attr)


def find_vm_module(module: Operation) -> vm.ModuleOp:
    if isinstance(module, vm.ModuleOp):
        return module
    if isinstance(module, ModuleOp):
        found = [op for op in module.body.ops if isinstance(op, vm.ModuleOp)]
        if len(found) == 1:
            return found[0]
    raise CompileError.at(module, "expected exactly one vm.module to serialise", "vm")


def _executable_info(ordinal: int, op: vm.RodataOp) -> dict | None:
    data = op.data
    if not data.startswith(b"{"):
        return None
    try:
        header = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(header, dict) or "exports" not in header or "format" not in header:
        return None
    exports = [str(e.get("name", "")) for e in header["exports"] if isinstance(e, dict)]
    return {
        "rodata": ordinal,
        "name": op.sym_name.data,
        "format": header["format"],
        "exports": exports,
    }


def _required_types(module: vm.ModuleOp) -> list[str]:
    scalars: set[str] = set()
    refs: set[str] = set()
    seen: set[int] = set()  # types are immutable and shared by many values: one look each
    texts: dict[Attribute, str] = {}  # equal types made apart print alike: print one of them

    def note(type_: Attribute) -> None:
        if id(type_) in seen:
            return
        seen.add(id(type_))
        if isinstance(type_, TupleType):
            for t in type_.types.data:
                note(t)
        elif isinstance(type_, IntegerType):
            scalars.add("i64" if type_.width.data == 64 else "i32")
        elif isinstance(type_, Float32Type):
            scalars.add("f32")
        elif isinstance(type_, vm.RefType):
            object_type = type_.object_type
            text = texts.get(object_type)
            if text is None:
                text = texts[object_type] = _type_text(object_type)
            refs.add(text)
        elif isinstance(type_, vm.BufferType):
            refs.add("!vm.buffer")

    for op in module.walk():
        for value in (*op.results, *op.operands):
            note(value.type)
        if isinstance(op, vm.ImportOp | vm.FuncOp):
            for t in (*op.function_type.inputs.data, *op.function_type.outputs.data):
                note(t)
    return sorted(scalars) + sorted(refs)


def _pack_table_and_blobs(entries: list[dict], blobs: list[bytes], aligns: list[int]) -> bytes:
    """u32 json length + JSON table + blobs; offsets in the table count from the start."""
    # The table's own length depends on the offsets it lists: iterate until it is stable.
    prefix = 0
    for _ in range(8):
        offset = 4 + prefix
        for entry, blob, align in zip(entries, blobs, aligns, strict=True):
            offset = -(-offset // align) * align
            entry["offset"], entry["length"] = offset, len(blob)
            offset += len(blob)
        table = json.dumps(entries, separators=(",", ":")).encode()
        if len(table) == prefix:
            break
        prefix = len(table)
    out = bytearray(struct.pack("<I", len(table)) + table)
    for entry, blob in zip(entries, blobs, strict=True):
        out += bytes(entry["offset"] - len(out))
        out += blob
    return bytes(out)


def build_sections(module: vm.ModuleOp) -> dict[bytes, bytes]:
    ops = list(module.body.ops)
    funcs = [op for op in ops if isinstance(op, vm.FuncOp)]
    imports = [op for op in ops if isinstance(op, vm.ImportOp)]
    rodata = [op for op in ops if isinstance(op, vm.RodataOp)]
    exports = [op for op in ops if isinstance(op, vm.ExportOp)]
    globals_by_kind: dict[str, list[Operation]] = {
        "i32": [op for op in ops if isinstance(op, vm.GlobalI32Op)],
        "i64": [op for op in ops if isinstance(op, vm.GlobalI64Op)],
        "ref": [op for op in ops if isinstance(op, vm.GlobalRefOp)],
    }
    symbols = SymbolOrdinals(
        functions={f.sym_name.data: i for i, f in enumerate(funcs)},
        imports={f.sym_name.data: i for i, f in enumerate(imports)},
        rodata={r.sym_name.data: i for i, r in enumerate(rodata)},
        globals={
            g.sym_name.data: i for table in globals_by_kind.values() for i, g in enumerate(table)
        },
    )
    encoded = [encode_function(f, symbols) for f in funcs]

    export_table, reflection = [], {}
    for export in exports:
        target = export.function_ref.root_reference.data
        if target not in symbols.functions:
            raise CompileError.at(export, f"vm.export of unknown function @{target}", "vm")
        export_table.append(
            {"name": export.export_name.data, "function": symbols.functions[target]}
        )
        attrs = export.attributes.get("iree.reflection") or funcs[
            symbols.functions[target]
        ].attributes.get("iree.reflection")
        if isinstance(attrs, DictionaryAttr):
            reflection[export.export_name.data] = _attr_json(attrs)

    def to_json(value: object) -> bytes:
        return json.dumps(value, separators=(",", ":")).encode()

    return {
        b"META": to_json({"name": module.sym_name.data, "version": 0, "producer": "ireelab"}),
        b"TYPE": to_json(_required_types(module)),
        b"IMPT": to_json(
            [
                {
                    "name": op.sym_name.data,
                    "args": [
                        [n.data, _type_text(t), v]
                        for n, t, v in zip(
                            op.arg_names.data,
                            op.function_type.inputs.data,
                            op.is_variadic,
                            strict=True,
                        )
                    ],
                    "results": [_type_text(t) for t in op.function_type.outputs.data],
                    "cconv": _cconv(op),
                    "attributes": {k: _attr_json(v) for k, v in op.attributes.items()},
                }
                for op in imports
            ]
        ),
        b"EXPT": to_json(export_table),
        b"SIGN": to_json(
            [
                {
                    "name": f.sym_name.data,
                    "inputs": [_type_text(t) for t in f.function_type.inputs.data],
                    "outputs": [_type_text(t) for t in f.function_type.outputs.data],
                }
                for f in funcs
            ]
        ),
        b"REFL": to_json(reflection),
        b"GLOB": to_json(
            {
                "i32": [_global_entry(g) for g in globals_by_kind["i32"]],
                "i64": [_global_entry(g) for g in globals_by_kind["i64"]],
                "ref": [_global_entry(g) for g in globals_by_kind["ref"]],
            }
        ),
        b"RODA": _pack_table_and_blobs(
            [
                {
                    "name": r.sym_name.data,
                    "alignment": r.alignment.value.data if r.alignment is not None else 1,
                    "mime_type": r.mime_type.data if r.mime_type is not None else "",
                }
                for r in rodata
            ],
            [r.data for r in rodata],
            [max(1, r.alignment.value.data) if r.alignment is not None else 1 for r in rodata],
        ),
        b"CODE": _pack_table_and_blobs(
            [
                {"name": e.name, "registers": list(e.register_counts), "blocks": e.block_count}
                for e in encoded
            ],
            [e.code for e in encoded],
            [4] * len(encoded),
        ),
        b"EXEC": to_json(
            [info for i, r in enumerate(rodata) if (info := _executable_info(i, r)) is not None]
        ),
    }


def _global_entry(op: Operation) -> dict:
    entry: dict[str, object] = {"name": op.sym_name.data, "type": _type_text(op.type)}
    if op.initial_value is not None:
        entry["initial"] = op.initial_value.value.data
    return entry


def serialize(sections: dict[bytes, bytes]) -> bytes:
    table_size = HEADER.size + SECTION_ENTRY.size * len(sections)
    offset = -(-table_size // SECTION_ALIGNMENT) * SECTION_ALIGNMENT
    entries, payload = [], bytearray()
    for tag, data in sections.items():
        entries.append(SECTION_ENTRY.pack(tag, 0, offset, len(data)))
        padded = -(-len(data) // SECTION_ALIGNMENT) * SECTION_ALIGNMENT
        payload += data + bytes(padded - len(data))
        offset += padded
    head = HEADER.pack(MAGIC, FORMAT_VERSION, len(sections)) + b"".join(entries)
    head += bytes(-(-table_size // SECTION_ALIGNMENT) * SECTION_ALIGNMENT - table_size)
    body = head + bytes(payload)
    return body + hashlib.sha256(body).digest()


def with_reflection(data: bytes, export: str, entries: dict[str, str]) -> bytes:
    """`data` (a module file this writer made) with `entries` added to the reflection of
    `export`, as a front end adds keys to a function's `iree.reflection` dictionary."""
    _, _, count = HEADER.unpack_from(data)
    sections: dict[bytes, bytes] = {}
    for i in range(count):
        tag, _, offset, length = SECTION_ENTRY.unpack_from(
            data, HEADER.size + i * SECTION_ENTRY.size
        )
        sections[tag] = data[offset : offset + length]
    reflection = json.loads(sections[b"REFL"])
    reflection.setdefault(export, {}).update(entries)
    sections[b"REFL"] = json.dumps(reflection, separators=(",", ":")).encode()
    return serialize(sections)


def write_module(vm_module: Operation, path: str | os.PathLike | None = None) -> bytes:
    """Encode `vm_module` (a `vm.module` or a `builtin.module` holding one); write it to `path`
    atomically when given; return the bytes."""
    data = serialize(build_sections(find_vm_module(vm_module)))
    if path is not None:
        _write_atomically(Path(path), data)
    return data


def _write_atomically(path: Path, data: bytes) -> None:
    folder = path.parent if str(path.parent) else Path(".")
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
