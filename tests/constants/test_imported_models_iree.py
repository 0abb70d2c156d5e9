"""Models with weights through IREE's own importers and input conversion, then ireelab: a
PyTorch Linear + ReLU (iree-turbine's export, `data/torch_linear_relu.torch.mlir`, made by
`aot.export(M(), torch.randn(4, 16))` of `relu(Linear(16, 8))` seeded with 0), the same built
fresh from an `nn.Module` when torch is installed, and an ONNX model with initializers (two
Gemms and a Conv) built in memory. Each is taken to IREE's input phase by the real
`iree-compile --compile-to=input --iree-torch-emit-async-entry-points=false`; ireelab's
results match numpy / the framework / ONNX's reference evaluator and the real IREE at rtol 1e-5
(atol 1e-5: f32 sums of up to 64 products), and the constants are placed as IREE places them:
the same dispatches, the same `__constant_*` globals, the same packed byte count."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import ireelab
from ireelab.iree import compile as iree_compile
from ireelab.iree.availability import INSTALL_HINT, is_available
from ireelab.iree.ir_summary import summarize_dispatches

pytestmark = [pytest.mark.iree, pytest.mark.skipif(not is_available(), reason=INSTALL_HINT)]

DATA = Path(__file__).parent / "data"
TOLERANCE = {"rtol": 1e-5, "atol": 1e-5}


def input_phase(framework_mlir: str) -> str:
    """IREE's input conversion of torch-dialect MLIR (what `--compile-to=input` prints)."""
    flags = ("--iree-torch-emit-async-entry-points=false",)
    return iree_compile(framework_mlir, compile_to="input", flags=flags, trace=False).ir()


def _blob(mlir: str, key: str, shape: tuple[int, ...]) -> np.ndarray:
    hex_text = re.search(rf'{re.escape(key)}: "0x([0-9A-F]+)"', mlir).group(1)
    return np.frombuffer(bytes.fromhex(hex_text)[4:], np.float32).reshape(shape)


def _constant_globals(ir: str) -> set[str]:
    return set(re.findall(r"util\.global private @(__constant_\w+)", ir))


def _packed_bytes(stream_ir: str) -> int:
    return sum(int(n) for n in re.findall(r"#util\.composite<(\d+)xi8", stream_ir))


def _same_placement(source: str) -> tuple:
    """ireelab's and IREE's flow and stream IR for `source`, checked to agree on dispatches,
    constant globals and packed constant bytes."""
    ours = ireelab.compile(source)
    theirs = iree_compile(source, trace=False)
    our_flow, their_flow = ours.trace.find("OutlineConstantsPass")[-1].ir, theirs.ir_after("flow")
    ours_d, theirs_d = summarize_dispatches(our_flow), summarize_dispatches(their_flow)
    assert [s.export for s in ours_d.sites] == [s.export for s in theirs_d.sites]
    assert _constant_globals(our_flow) == _constant_globals(their_flow)
    # the stream phase's IR as the full compile's trace has it (one replay gives every pass's
    # IR), rather than a second compile to `stream`
    our_stream = [r for r in ours.trace.records if r.stage == "stream"][-1].ir
    assert _packed_bytes(our_stream) == _packed_bytes(theirs.ir_after("stream"))
    assert our_stream.count("#util.composite<") == 1
    return ours, theirs


def test_torch_export_linear_relu() -> None:
    # the failing model: one matmul dispatch, the weight a packed constant global
    torch_mlir = (DATA / "torch_linear_relu.torch.mlir").read_text()
    source = input_phase(torch_mlir)
    w = _blob(torch_mlir, "torch_tensor_8_16_torch.float32", (8, 16))
    b = _blob(torch_mlir, "torch_tensor_8_torch.float32", (8,))
    x = np.random.default_rng(0).standard_normal((4, 16)).astype(np.float32)
    ours, theirs = _same_placement(source)
    got = ours.invoke("main", x)
    np.testing.assert_allclose(got, np.maximum(x @ w.T + b, 0), **TOLERANCE)
    np.testing.assert_allclose(got, theirs.invoke("main", x), **TOLERANCE)
    assert _constant_globals(ours.trace.find("OutlineConstantsPass")[-1].ir) == {
        "__constant_tensor_8x16xf32"
    }


def test_torch_module_through_turbine() -> None:
    # a two-layer MLP straight from nn.Module: 2 KiB and 640 B weights, 128 B and 40 B biases
    torch = pytest.importorskip("torch")
    aot = pytest.importorskip("iree.turbine.aot")
    torch.manual_seed(1)
    model = torch.nn.Sequential(
        torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 5), torch.nn.Tanh()
    )
    x = torch.randn(3, 16)
    source = input_phase(str(aot.export(model, args=(x,)).mlir_module))
    ours, theirs = _same_placement(source)
    got = ours.invoke("main", x.numpy())
    np.testing.assert_allclose(got, model(x).detach().numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got, theirs.invoke("main", x.numpy()), rtol=1e-5, atol=1e-5)


def _onnx_model():
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)

    def init(name, *shape):
        return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)

    nodes = [
        helper.make_node("Gemm", ["x", "W1", "B1"], ["h"]),
        helper.make_node("Relu", ["h"], ["r"]),
        helper.make_node("Gemm", ["r", "W2", "B2"], ["y"]),
        helper.make_node("Conv", ["img", "CW", "CB"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["cr"]),
    ]
    value = helper.make_tensor_value_info
    graph = helper.make_graph(
        nodes,
        "g",
        [value("x", TensorProto.FLOAT, [4, 32]), value("img", TensorProto.FLOAT, [1, 3, 8, 8])],
        [value("y", TensorProto.FLOAT, [4, 10]), value("cr", TensorProto.FLOAT, [1, 4, 8, 8])],
        initializer=[
            init("W1", 32, 64),
            init("B1", 64),
            init("W2", 64, 10),
            init("B2", 10),
            init("CW", 4, 3, 3, 3),
            init("CB", 4),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    return model


def test_onnx_model_with_initializers(tmp_path) -> None:
    # 8 KiB + 2.5 KiB + 432 B weights in one 11200-byte buffer, biases cloned, as IREE does
    model = _onnx_model()
    from onnx.reference import ReferenceEvaluator

    path, imported = tmp_path / "model.onnx", tmp_path / "model.mlir"
    path.write_bytes(model.SerializeToString())
    command = [sys.executable, "-m", "iree.compiler.tools.import_onnx", str(path), "-o"]
    subprocess.run([*command, str(imported)], check=True, capture_output=True)
    source = input_phase(imported.read_text())
    ours, theirs = _same_placement(source)
    # the stream phase's IR as the full compile's trace has it (one replay gives every pass's
    # IR), rather than a second compile to `stream`
    our_stream = [r for r in ours.trace.records if r.stage == "stream"][-1].ir
    assert "#util.composite<11200xi8, [" in our_stream
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 32)).astype(np.float32)
    img = rng.standard_normal((1, 3, 8, 8)).astype(np.float32)
    expected = ReferenceEvaluator(model).run(None, {"x": x, "img": img})
    got = ours.invoke("g", x, img)
    for mine, reference, iree_value in zip(got, expected, theirs.invoke("g", x, img), strict=True):
        np.testing.assert_allclose(mine, reference, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(mine, iree_value, rtol=1e-5, atol=1e-5)
