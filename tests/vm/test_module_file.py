"""The .ilvm container: written atomically; bad files give one-line ModuleFileErrors."""

from __future__ import annotations

import hashlib

import pytest

from ireelab.compiler.vm.module_file import write_module
from ireelab.runtime import ModuleFileError
from ireelab.runtime.vm.module_file import read_module


def test_write_is_atomic_and_complete(converted_module, tmp_path):
    # The file holds exactly the returned bytes and no temporary file stays behind.
    path = tmp_path / "m.ilvm"
    data = write_module(converted_module, path)
    assert path.read_bytes() == data
    assert [p.name for p in tmp_path.iterdir()] == ["m.ilvm"]
    assert data[-32:] == hashlib.sha256(data[:-32]).digest()


def test_contents_read_back(converted_bytes):
    # Every documented section is present and decodes.
    image = read_module(converted_bytes)
    assert image.name == "module"
    assert [e["name"] for e in image.exports] == ["matmul", "__init"]
    assert image.types[:2] == ["i32", "i64"] and "!hal.buffer_view" in image.types
    assert image.executables[0]["exports"] == ["matmul_dispatch_0_matmul_2x2x4_f32"]
    assert image.imports[0]["cconv"] == "0rrrIii_v"  # IREE's cconv for hal.buffer.assert
    assert set(image.sections) >= {
        "META",
        "TYPE",
        "IMPT",
        "EXPT",
        "SIGN",
        "REFL",
        "GLOB",
        "RODA",
        "CODE",
        "EXEC",
    }


def _flip(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0x40]) + data[at + 1 :]


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: b"", "empty"),
        (lambda d: d[:5], "bad magic"),
        (lambda d: d[:20], "truncated"),
        (lambda d: d[: len(d) // 2], "truncated"),
        (lambda d: d[:-1], "checksum"),
        (lambda d: _flip(d, len(d) // 2), "checksum"),
        (lambda d: b"\x7fELF" + d[4:], "bad magic"),
        (lambda d: b"PK\x03\x04-\x00\x00\x00IREE" + bytes(100), ".vmfb"),
        (lambda d: d[:8] + (2).to_bytes(4, "little") + d[12:], "version 2"),
    ],
)
def test_bad_files_are_refused(converted_bytes, damage, message):
    # Truncated, corrupted, empty or foreign files: one clear line, never a traceback.
    with pytest.raises(ModuleFileError) as info:
        read_module(damage(converted_bytes))
    text = str(info.value)
    assert message in text
    assert "\n" not in text
