"""Issue 9.4: no text from the input reaches generated Python unescaped.

Function names with quotes, newlines, Python code, unicode or Python reserved words, and
attribute strings (`doc`, `library_call`, function attributes) must compile to correct kernels
or be refused with a located error. The kernel sources inside the module (the executable
binaries' "source") and the VM's translated functions must not contain any of that text, and
nothing in it may run (a marker file the payload would create must not appear).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import ireelab
from ireelab.diagnostics import CompileError
from ireelab.runtime.vm.module_file import read_module

PROGRAM = """
func.func @{name}(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {attrs}{{
  %e = tensor.empty() : tensor<2x3xf32>
  %0 = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]{generic_attrs}}} ins(%a, %b : tensor<2x3xf32>, tensor<3xf32>) outs(%e : tensor<2x3xf32>) {{
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.subf %x, %y : f32
    linalg.yield %s : f32
  }} -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}}
"""


def payload(marker: Path) -> str:
    return f"__import__('os').system('touch {marker}')"


def mlir_string(text: str) -> str:
    """`text` as an MLIR string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\0A") + '"'


def kernel_sources(module_bytes: bytes) -> list[str]:
    image = read_module(module_bytes)
    sources = []
    for executable in image.executables:
        binary = image.rodata[executable["rodata"]].data
        sources.append(json.loads(binary.decode("utf-8"))["source"])
    return sources


def check_runs_and_stays_inert(source: str, name: str, marker: Path, forbidden: list[str]):
    mod = ireelab.compile(source, device="local-sync")
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.array([1, 2, 3], np.float32)
    np.testing.assert_array_equal(mod.invoke(name, a, b), a - b)
    for text in kernel_sources(mod.module_bytes):
        for bad in forbidden:
            assert bad not in text, f"{bad!r} reached the kernel source"
    for function in mod.loaded.context("local-sync").functions:
        for bad in forbidden:
            assert bad not in function.source, f"{bad!r} reached a translated VM function"
    assert not marker.exists(), "input text ran as code"
    return mod


NAMES = {
    "reserved_def": "def",
    "reserved_lambda": "lambda",
    "reserved_none": "None",
    "builtin_exec": "exec",
    "leading_digit": "0abc",
}
QUOTED_NAMES = {
    "double_quote": 'a"b',
    "single_quote": "a'b",
    "newline": "a\nb",
    "python_code": "x'); PAYLOAD; ('",
    "unicode": "ñandú_函数",
    "space_and_hash": "a b # c",
}


@pytest.mark.parametrize("name", NAMES.values(), ids=NAMES.keys())
def test_bare_symbol_names(name, tmp_path):
    symbol = mlir_string(name) if name[0].isdigit() else name  # MLIR quotes those
    source = PROGRAM.format(name=symbol, attrs="", generic_attrs="")
    check_runs_and_stays_inert(source, name, tmp_path / "marker", [f"def {name}("])


@pytest.mark.parametrize("name", QUOTED_NAMES.values(), ids=QUOTED_NAMES.keys())
def test_quoted_symbol_names(name, tmp_path):
    marker = tmp_path / "marker"
    name = name.replace("PAYLOAD", payload(marker))
    source = PROGRAM.format(name=mlir_string(name), attrs="", generic_attrs="")
    # Text made only of [A-Za-z0-9_] may appear in a header comment; anything else may not.
    forbidden = [name] if re.fullmatch(r"\w+", name, re.ASCII) is None else []
    mod = check_runs_and_stays_inert(source, name, marker, forbidden + ["__import__(", "\na"])
    sanitised = re.sub(r"[^A-Za-z0-9_]", "_", name)
    for text in kernel_sources(mod.module_bytes):
        for line in text.splitlines():
            assert sanitised not in line or line.startswith("#"), f"name outside a comment: {line}"


@pytest.mark.parametrize("name", QUOTED_NAMES.values(), ids=QUOTED_NAMES.keys())
def test_export_names_are_iree_names_as_data(name, tmp_path):
    # As in IREE (the ELF's export table and the host's lookup string hold `a"b_dispatch_0_...`
    # unchanged), the binary's export table keeps the name the host code looks up; the kernel
    # source only names it, sanitised, in its header comment.
    name = name.replace("PAYLOAD", payload(tmp_path / "marker"))
    mod = ireelab.compile(PROGRAM.format(name=mlir_string(name), attrs="", generic_attrs=""))
    image = read_module(mod.module_bytes)
    (executable,) = image.executables
    binary = json.loads(image.rodata[executable["rodata"]].data.decode("utf-8"))
    want = f"{name}_dispatch_0_elementwise_2x3_f32"
    assert [e["name"] for e in binary["exports"]] == [want]
    header = binary["source"].split("\n", 3)[:3]
    assert f"#   export 0: {re.sub(r'[^A-Za-z0-9_]', '_', want)}" in header


def test_attribute_strings_are_not_code(tmp_path):
    marker = tmp_path / "marker"
    evil = "'); " + payload(marker) + '; (\'\n"""'
    source = PROGRAM.format(
        name="f",
        attrs=f"attributes {{note = {mlir_string(evil)}}} ",
        generic_attrs=f", doc = {mlir_string(evil)}, library_call = {mlir_string(evil)}",
    )
    check_runs_and_stays_inert(source, "f", marker, ["__import__", '"""'])


def test_numbers_are_printed_from_values(tmp_path):
    # A float constant's text is never copied: odd spellings and specials arrive as values.
    source = PROGRAM.format(name="f", attrs="", generic_attrs="").replace(
        "%s = arith.subf %x, %y : f32",
        "%c = arith.constant 0x7FC00000 : f32\n    %m = arith.maximumf %x, %c : f32\n"
        "    %s = arith.subf %x, %y : f32",
    )
    check_runs_and_stays_inert(source, "f", tmp_path / "marker", ["0x7FC00000"])


def test_a_name_too_strange_for_mlir_is_a_located_error():
    source = PROGRAM.format(name="__import__('os')", attrs="", generic_attrs="")
    with pytest.raises(CompileError) as info:
        ireelab.compile(source)
    assert info.value.location is not None and info.value.location.line == 2
