"""Without the `frontends` extra, a framework program gets one line naming what to install
(simulated: the packages are hidden, `iree-compile` is not found)."""

from __future__ import annotations

import sys

import pytest
from test_input_type import TORCH

import ireelab
from ireelab.diagnostics import CompileError

HINT = "pip install 'ireelab[frontends]'"


def _one_line(err: pytest.ExceptionInfo) -> str:
    text = str(err.value)
    assert "\n" not in text
    return text


def test_a_torch_program_without_iree_s_compiler(monkeypatch):
    monkeypatch.setattr("ireelab.iree.availability.iree_compile_path", lambda: None)
    with pytest.raises(CompileError) as err:
        ireelab.compile(TORCH)
    text = _one_line(err)
    assert "a torch program needs iree-base-compiler" in text and HINT in text


def test_the_tool_says_it_in_one_line_and_fails(monkeypatch, tmp_path, capsys):
    from ireelab.tools import compile as compile_tool

    monkeypatch.setattr("ireelab.iree.availability.iree_compile_path", lambda: None)
    path = tmp_path / "model.mlir"
    path.write_text(TORCH)
    assert compile_tool.main([str(path), "-o", str(tmp_path / "out.ilvm")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and HINT in err
    assert not (tmp_path / "out.ilvm").exists()


def test_an_onnx_file_without_onnx(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "onnx", None)  # `import onnx` raises ImportError
    path = tmp_path / "model.onnx"
    path.write_bytes(b"\x08\x07")
    with pytest.raises(CompileError) as err:
        ireelab.compile(str(path))
    assert "importing an ONNX model needs onnx" in _one_line(err)


def test_compile_torch_without_torch(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(CompileError) as err:
        ireelab.compile_torch(object())
    assert "compile_torch needs torch" in _one_line(err)


def test_compile_jax_without_jax(monkeypatch):
    monkeypatch.setitem(sys.modules, "jax", None)
    with pytest.raises(CompileError) as err:
        ireelab.compile_jax(lambda x: x)
    assert "compile_jax needs jax" in _one_line(err)


def test_linalg_needs_none_of_it(monkeypatch):
    monkeypatch.setattr("ireelab.iree.availability.iree_compile_path", lambda: None)
    for name in ("onnx", "torch", "jax"):
        monkeypatch.setitem(sys.modules, name, None)
    module = ireelab.compile(
        "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0 = arith.addf %a, %a : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n",
        compile_to="flow",
    )
    assert all(r.tool == "ireelab" for r in module.trace)
