"""Bad ONNX input, as a user meets it: an error inside a node names the ONNX node (name and
op_type) on its one headline line besides the MLIR location, whichever stage finds it (IREE's
input conversion, or ireelab's stages on what IREE produced); inputs over the 64 MiB limit
(`ireelab/input_limit.py`) are refused before any work, with one line, and leave no output."""

from __future__ import annotations

import numpy as np
import pytest
from frontend_support import needs

import ireelab
from ireelab import input_limit

pytestmark = [pytest.mark.frontends, needs("onnx", "iree.compiler.extras.onnx_importer")]


def _model(op: str, out_shape, out_type=None, domain: str = "", **attrs):
    from onnx import TensorProto, helper

    nodes = [
        helper.make_node("Relu", ["x"], ["r"], name="first_relu"),
        helper.make_node(op, ["r"], ["y"], name="the_node", domain=domain, **attrs),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4])],
        [helper.make_tensor_value_info("y", out_type or TensorProto.FLOAT, out_shape)],
    )
    opsets = [helper.make_opsetid("", 17)] + ([helper.make_opsetid(domain, 1)] if domain else [])
    return helper.make_model(graph, opset_imports=opsets)


def _unsupported():
    """An op no converter knows (a custom domain): IREE's input conversion rejects it."""
    return _model("Frobnicate", [3, 4], domain="com.example")


def test_an_op_iree_cannot_convert_names_its_onnx_node():
    with pytest.raises(ireelab.CompileError) as info:
        ireelab.compile(_unsupported())
    err = info.value
    assert err.stage == "input" and str(err.location).startswith("<onnx>:")
    headline = str(err).splitlines()[0]
    assert "failed to legalize operation 'torch.operator'" in headline
    assert headline.endswith("(ONNX node 'the_node', Frobnicate)")


def test_the_tool_names_the_onnx_node_too(tmp_path, capsys):
    import onnx

    from ireelab.tools import compile as compile_tool

    path = tmp_path / "custom.onnx"
    onnx.save(_unsupported(), path)
    out = tmp_path / "custom.ilvm"
    assert compile_tool.main([str(path), "-o", str(out)]) == 1
    headline = capsys.readouterr().err.splitlines()[0]
    assert headline.startswith(f"{path}:5:")
    assert headline.endswith("(ONNX node 'the_node', Frobnicate)")
    assert not out.exists()


def test_a_node_ireelab_cannot_lower_is_named_or_runs():
    """ArgMax becomes `iree_linalg_ext.arg_compare` in IREE's output: where ireelab cannot take
    that op yet, its error (at IREE's converted line) names the ONNX node it came from; where
    it can, the result is numpy's."""
    from onnx import TensorProto

    model = _model("ArgMax", [3, 1], TensorProto.INT64, axis=1, keepdims=1)
    try:
        module = ireelab.compile(model)
    except ireelab.CompileError as err:
        assert str(err).splitlines()[0].endswith("(ONNX node 'the_node', ArgMax)")
        return
    x = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
    np.testing.assert_array_equal(module.g(x), np.maximum(x, 0).argmax(1)[:, None])


def test_node_lines_follow_the_imported_text():
    from ireelab.frontends.onnx_import import import_onnx_program

    imported = import_onnx_program(_model("Sigmoid", [3, 4]))
    lines = imported.text.splitlines()
    assert set(imported.nodes.values()) == {("first_relu", "Relu"), ("the_node", "Sigmoid")}
    for number, (_, op_type) in imported.nodes.items():
        assert f'"onnx.{op_type}"' in lines[number - 1]


# ---- the size limit ----------------------------------------------------------------------------


def _sparse_file(path, size: int):
    with open(path, "wb") as f:  # no data written: the file system keeps it sparse
        f.truncate(size)
    return path


def test_a_large_onnx_file_is_refused_before_loading(tmp_path, capsys):
    from ireelab.tools import compile as compile_tool
    from ireelab.tools import import_onnx as import_tool

    big = _sparse_file(tmp_path / "big.onnx", input_limit.MAX_INPUT_BYTES + 1)
    with pytest.raises(ireelab.CompileError, match=r"input file '.*big.onnx' is 67108865 bytes"):
        ireelab.compile(str(big))  # not "cannot load the ONNX model": it was never read
    out = tmp_path / "big.mlir"
    for tool in (import_tool, compile_tool):
        assert tool.main([str(big), "-o", str(out)]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "over ireelab's input limit of 67108864 bytes" in err
        assert not out.exists()


def test_a_large_mlir_file_is_refused_before_reading(tmp_path, capsys):
    from ireelab.tools import compile as compile_tool

    big = _sparse_file(tmp_path / "big.mlir", input_limit.MAX_INPUT_BYTES + 1)
    out = tmp_path / "big.ilvm"
    assert compile_tool.main([str(big), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "input file" in err and "64 MiB" in err
    assert not out.exists()
    with pytest.raises(ireelab.CompileError, match="over ireelab's input limit"):
        ireelab.compile(str(big))


def test_a_large_model_proto_or_text_is_refused_before_import(monkeypatch):
    import ireelab.frontends.compile_program as compile_program
    import ireelab.frontends.onnx_import as onnx_import

    monkeypatch.setattr(input_limit, "MAX_INPUT_BYTES", 64)
    monkeypatch.setattr(onnx_import, "_imported", _never)
    with pytest.raises(ireelab.CompileError, match="the ONNX model is .* bytes, over"):
        ireelab.compile(_model("Sigmoid", [3, 4]))
    torch_text = "func.func @f(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {" + (
        " " * 64 + "\n  return %a : !torch.vtensor<[2],f32>\n}\n"
    )
    monkeypatch.setattr(compile_program, "resolve_input_type", _never)
    with pytest.raises(ireelab.CompileError, match="input is .* bytes, over"):
        ireelab.compile(torch_text)


def _never(*args, **kwargs):
    raise AssertionError("work started on an input over the limit")
