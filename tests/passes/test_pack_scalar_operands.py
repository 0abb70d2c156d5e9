"""PackDispatchOperandsPass on scalar operands (f32, i64, i8, f16, i32), and the dispatch
interface around it (bindings first, then operands), compared with what IREE 3.13 prints at
`--compile-to=stream` for the same programs."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

import ireelab

GENERIC = (
    "indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], "
    'iterator_types = ["parallel"]'
)


def _program(scalar: str, body: str) -> str:
    return f"""
func.func @f(%x: tensor<8xi32>, %s: {scalar}) -> tensor<8xi32> {{
  %e = tensor.empty() : tensor<8xi32>
  %r = linalg.generic {{{GENERIC}}} ins(%x : tensor<8xi32>) outs(%e : tensor<8xi32>) {{
  ^bb0(%i: i32, %o: i32):
{body}
    linalg.yield %m : i32
  }} -> tensor<8xi32>
  return %r : tensor<8xi32>
}}
"""


PROGRAMS = {
    "f32": _program(
        "f32", "    %c = arith.fptosi %s : f32 to i32\n    %m = arith.addi %i, %c : i32"
    ),
    "i64": _program(
        "i64", "    %c = arith.trunci %s : i64 to i32\n    %m = arith.addi %i, %c : i32"
    ),
    "i8": _program("i8", "    %c = arith.extsi %s : i8 to i32\n    %m = arith.addi %i, %c : i32"),
    "f16": _program(
        "f16",
        "    %w = arith.extf %s : f16 to f32\n    %c = arith.fptosi %w : f32 to i32\n"
        "    %m = arith.addi %i, %c : i32",
    ),
    "i32": _program("i32", "    %m = arith.addi %i, %s : i32"),
}


def _ireelab_stream(name: str) -> str:
    return ireelab.compile(PROGRAMS[name], compile_to="stream").ir()


def _kernel_signature(text: str) -> list[str]:
    match = re.search(r"func\.func @f_dispatch_0\w*\((.*)\) \{", text)
    assert match, text
    return [t.split("{")[0].strip() for t in re.findall(r"%\w+: ([^,]+(?:\{[^}]*\})?)", match[1])]


def _site_operand_types(text: str) -> list[str]:
    match = re.search(r"stream\.cmd\.dispatch @[\w:@]+(?:\(([^)]*)\))? \{", text)
    assert match, text
    if not match[1]:
        return []
    return [t.strip() for t in match[1].split(":")[1].split(",")]


def _host_arith(text: str) -> list[str]:
    """The arith ops of the host function (after the executables), in order."""
    host = text[text.index("util.func public @f") :]
    return re.findall(r"= (arith\.(?!constant)\w+) [^\n]*", host)


def _kernel_prologue(text: str) -> list[str]:
    kernel = text[text.index("func.func @f_dispatch_0") :]
    kernel = kernel[: kernel.index("stream.binding.subspan")]
    return re.findall(r"= (arith\.(?!constant)\w+) ", kernel)


def test_f32_is_bitcast_to_one_push_constant() -> None:
    text = _ireelab_stream("f32")
    assert _kernel_signature(text) == ["!stream.binding", "!stream.binding", "i32"]
    assert _site_operand_types(text) == ["i32"]
    assert "arith.bitcast %arg1 : f32 to i32" in text
    assert _kernel_prologue(text) == ["arith.bitcast"]
    assert re.search(r"arith\.bitcast %\w+ : i32 to f32", text)


def test_i64_is_split_into_low_and_high_words() -> None:
    text = _ireelab_stream("i64")
    assert _kernel_signature(text) == ["!stream.binding", "!stream.binding", "i32", "i32"]
    assert _site_operand_types(text) == ["i32", "i32"]
    assert _host_arith(text) == ["arith.trunci", "arith.shrui", "arith.trunci"]
    assert _kernel_prologue(text) == ["arith.extui", "arith.extui", "arith.shli", "arith.ori"]


def test_narrow_values_are_zero_extended_and_truncated_back() -> None:
    assert _host_arith(_ireelab_stream("i8")) == ["arith.extui"]
    assert _kernel_prologue(_ireelab_stream("i8")) == ["arith.trunci"]
    f16 = _ireelab_stream("f16")
    assert _host_arith(f16) == ["arith.bitcast", "arith.extui"]
    assert _kernel_prologue(f16) == ["arith.trunci", "arith.bitcast"]


def test_i32_passes_as_it_is() -> None:
    text = _ireelab_stream("i32")
    assert _host_arith(text) == []
    assert re.search(r"stream\.cmd\.dispatch @[\w:@]+\(%arg1 : i32\)", text)


def test_unsupported_operand_type_is_a_located_error() -> None:
    # a 128-bit integer cannot travel as push constants
    source = PROGRAMS["i64"].replace("i64", "i128")
    with pytest.raises(ireelab.CompileError) as info:
        ireelab.compile(source, compile_to="stream")
    assert info.value.stage is not None


@pytest.mark.iree
@pytest.mark.skipif(shutil.which("iree-compile") is None, reason="IREE not installed")
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_same_interface_as_iree(tmp_path, name: str) -> None:
    path = tmp_path / f"{name}.mlir"
    path.write_text(PROGRAMS[name])
    iree = subprocess.run(
        ["iree-compile", "--iree-hal-target-backends=llvm-cpu", "--compile-to=stream", str(path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    ours = _ireelab_stream(name)
    assert _kernel_signature(ours) == _kernel_signature(iree)
    assert _site_operand_types(ours) == _site_operand_types(iree)
    assert _host_arith(ours) == _host_arith(iree)
    assert _kernel_prologue(ours) == _kernel_prologue(iree)
