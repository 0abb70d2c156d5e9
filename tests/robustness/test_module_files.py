"""Issue 9.3: truncated, corrupted, empty or foreign module files are refused cleanly.

`ireelab.load`, `ireelab.runtime.load_module`, `ireelab-run-module` and `ireelab-dump-module`
must answer every damaged file with one line (`ModuleFileError`, or a HAL/VM error when the
damage is only found while running), never a crash, a hang or a traceback. The file's magic,
version and SHA-256 make this reliable for accidents; a file re-sealed with a correct
checksum around damaged bytecode must still fail cleanly at load or call time.

What loading trusts: the checksum guards against damage, not against an author. A module file
carries Python kernel source, and loading imports it, so a module file is code: load only
files you would run. `test_forged_kernel_source_is_refused` is the strict-xfail reproducer of
that gap (the loader does not check that a kernel is what `ConvertToNumbaPass` emits).
"""

from __future__ import annotations

import hashlib
import random
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import ireelab
from ireelab.runtime import load_module
from ireelab.runtime.errors import HALError, ModuleFileError, VMError
from ireelab.runtime.vm.module_file import read_module
from ireelab.tools import dump_module, run_module

BAD_INPUTS = Path(__file__).resolve().parent.parent / "bad_inputs"
A = np.ones((2, 3), np.float32)


@pytest.fixture(scope="module")
def good() -> bytes:
    return ireelab.compile(str(BAD_INPUTS / "valid_add.mlir"), device="local-sync").module_bytes


def reseal(body: bytes) -> bytes:
    """A file with `body` and a correct checksum: damage the checksum cannot catch."""
    return body + hashlib.sha256(body).digest()


def refused(data: bytes) -> str:
    with pytest.raises(ModuleFileError) as info:
        load_module(data)
    message = str(info.value)
    assert message and "\n" not in message
    return message


def test_the_good_module_loads_and_runs(good):
    np.testing.assert_array_equal(load_module(good).invoke("add", A, A)[0], 2 * A)


def test_empty_file(good):
    assert refused(b"") == "module file is empty"


@pytest.mark.parametrize("fraction", [0.0001, 0.01, 0.1, 0.5, 0.9, 0.99])
def test_truncated_file(good, fraction):
    refused(good[: max(1, int(len(good) * fraction))])


@pytest.mark.parametrize("cut", [1, 7, 8, 16, 31, 32, 33])
def test_truncated_near_the_edges(good, cut):
    refused(good[:cut])
    refused(good[:-cut])


def test_every_single_byte_flip_is_caught(good):
    rng = random.Random(9)
    positions = sorted(rng.sample(range(len(good)), 200)) + [0, 8, 12, len(good) - 1]
    for position in positions:
        damaged = bytearray(good)
        damaged[position] ^= 1 << rng.randrange(8)
        refused(bytes(damaged))


def test_text_mode_damage(good):
    refused(good.replace(b"\r\n", b"\n"))


@pytest.mark.parametrize(
    "data",
    [
        b"\x89PNG\r\n\x1a\n" + bytes(64),
        b"PK\x03\x04" + bytes(64),
        b"func.func @f() {\n  return\n}\n",
        bytes(range(256)) * 4,
    ],
    ids=["png", "zip", "mlir-text", "noise"],
)
def test_foreign_files(data):
    assert "not an ireelab module file" in refused(data)


def test_an_elf_executable():
    assert "not an ireelab module file" in refused(Path(sys.executable).read_bytes()[:65536])


@pytest.mark.skipif(shutil.which("iree-compile") is None, reason="needs the real IREE")
def test_a_real_iree_vmfb(tmp_path):
    vmfb = tmp_path / "add.vmfb"
    subprocess.run(
        ["iree-compile", "--iree-hal-target-backends=llvm-cpu", "-o", str(vmfb),
         str(Path("/work/shared/reference/programs/a0_matmul_tiny.mlir"))],
        check=True,
        capture_output=True,
    )  # fmt: skip
    assert "IREE .vmfb" in refused(vmfb.read_bytes())


def test_other_format_version(good):
    header = bytearray(good[:-32])
    struct.pack_into("<I", header, 8, 2)
    assert refused(reseal(bytes(header))) == (
        "module file format version 2 is not supported (expected 1)"
    )


def test_malformed_section_with_a_valid_checksum(good):
    offset, length = read_module(good).sections["META"]
    body = bytearray(good[:-32])
    body[offset : offset + length] = b"{" * length
    assert "META" in refused(reseal(bytes(body)))


def test_resealed_bytecode_damage_fails_cleanly(good):
    """Bytecode changed behind a valid checksum: a clean error at load or call, or a result."""
    offset, length = read_module(good).sections["CODE"]
    rng = random.Random(3)
    outcomes = set()
    for _ in range(300):
        body = bytearray(good[:-32])
        for _ in range(rng.randint(1, 4)):
            body[rng.randrange(offset, offset + length)] = rng.randrange(256)
        try:
            load_module(reseal(bytes(body))).invoke("add", A, A)
            outcomes.add("ran")
        except (ModuleFileError, VMError, HALError) as err:
            assert "\n" not in str(err)
            outcomes.add(type(err).__name__)
    assert "ModuleFileError" in outcomes


def test_ireelab_load_refuses(tmp_path, good):
    path = tmp_path / "cut.ilvm"
    path.write_bytes(good[: len(good) // 2])
    with pytest.raises(ModuleFileError, match="truncated|corrupted"):
        ireelab.load(str(path))


@pytest.mark.parametrize("damage", ["empty", "truncated", "flipped", "foreign"])
def test_tools_refuse_in_one_line(tmp_path, good, capsys, damage):
    data = {
        "empty": b"",
        "truncated": good[:100],
        "flipped": good[:500] + bytes([good[500] ^ 0x10]) + good[501:],
        "foreign": b"\x7fELF" + bytes(100),
    }[damage]
    path = tmp_path / "m.ilvm"
    path.write_bytes(data)
    assert run_module.main([f"--module={path}", "--function=add", "--input=2x3xf32=1"]) == 1
    assert dump_module.main([str(path)]) == 1
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert captured.out == ""
    assert len(lines) == 2 and "Traceback" not in captured.err
    assert lines[0].startswith("ireelab-run-module: error: ")
    assert lines[1].startswith("ireelab-dump-module: error: ")


def test_forged_kernel_source_is_refused(good, tmp_path, monkeypatch):
    monkeypatch.setenv("IREELAB_CACHE_DIR", str(tmp_path))
    header = b"# ireelab numba-python executable "
    at = good.index(header)
    end = good.index(b"\\n", at)
    payload = b"import sys; sys.ireelab_forged = 1"
    assert len(payload) <= end - at
    forged = good[:at] + payload.ljust(end - at, b" ") + good[end:-32]
    try:
        with pytest.raises((ModuleFileError, HALError)):
            load_module(reseal(forged)).invoke("add", A, A)
    finally:
        ran = getattr(sys, "ireelab_forged", None)
        if ran:
            del sys.ireelab_forged
    assert ran is None, "the forged kernel module's code ran"
