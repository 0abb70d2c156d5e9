"""A real ONNX CNN with a dynamic batch (`dim_param` "N"), one module for every batch size.

Conv with a bias, Relu, MaxPool, Flatten and Gemm, built with onnx.helper and imported by
IREE's importer: the bias becomes a `linalg.broadcast` over the `?` batch into the
convolution's accumulator, which DetachElementwiseFromNamedOpsPass splits off (a zero-filled
accumulator sized by the batch, then the bias add the Relu fuses into). iree-compile forms
four dispatches, each with the batch as its one workload (the padding copy, the conv, the
pool, the matmul); ireelab forms the same, and its module is compared with ONNX's reference
evaluator and with the real IREE at batch 1, 2 and 3. The same conv in linalg alone
(`programs/conv_bias_broadcast_batch.mlir`) is checked against numpy where IREE is absent.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

import ireelab

PROGRAMS = Path(__file__).parent / "programs"
BATCHES = (1, 2, 3)
TOLERANCE = dict(rtol=1e-5, atol=1e-5)
"""f32 sums of at most 36 products of standard-normal values, as the reference sums them."""

SITES = r"flow\.dispatch @[\w$]+::@([\w$]+)\[([^\]]*)\]"

needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)


# ---- the conv with its bias broadcast, in linalg ------------------------------------------


def _conv_reference(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    windows = sliding_window_view(padded, (3, 3), axis=(2, 3))  # n c oh ow kh kw
    conv = np.einsum("ncijkl,fckl->nfij", windows, w) + b[None, :, None, None]
    return np.maximum(conv, 0)


def test_conv_with_broadcast_bias_runs_every_batch():
    mod = ireelab.compile(str(PROGRAMS / "conv_bias_broadcast_batch.mlir"))
    rng = np.random.default_rng(5)
    w = rng.standard_normal((3, 2, 3, 3), dtype=np.float32)
    b = rng.standard_normal(3, dtype=np.float32)
    for n in BATCHES:
        x = rng.standard_normal((n, 2, 5, 5), dtype=np.float32)
        got = np.asarray(mod.conv(x, w, b))
        assert got.shape == (n, 3, 5, 5)
        np.testing.assert_allclose(got, _conv_reference(x, w, b), **TOLERANCE)


def test_conv_with_broadcast_bias_dispatches():
    # the padding copy and the conv (bias add and Relu fused), each over the batch alone
    path = str(PROGRAMS / "conv_bias_broadcast_batch.mlir")
    ir = ireelab.compile(path, compile_to="flow").ir()
    sites = re.findall(SITES, ir)
    assert [export for export, _ in sites] == [
        "conv_dispatch_0_slow_memcpy",
        "conv_dispatch_1_conv_Dx3x5x5x2x3x3_f32",
    ]
    assert [len(workload.split(", ")) for _, workload in sites] == [1, 1]


# ---- the ONNX model ------------------------------------------------------------------------


def _cnn_model():
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)

    def init(name, *shape):
        return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)

    nodes = [
        helper.make_node("Conv", ["x", "W", "B"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Flatten", ["p"], ["f"]),
        helper.make_node("Gemm", ["f", "G", "GB"], ["y"], transB=1),
    ]
    value = helper.make_tensor_value_info
    graph = helper.make_graph(
        nodes,
        "cnn",
        [value("x", TensorProto.FLOAT, ["N", 2, 6, 6])],
        [value("y", TensorProto.FLOAT, ["N", 5])],
        initializer=[init("W", 4, 2, 3, 3), init("B", 4), init("G", 5, 36), init("GB", 5)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    return model


@pytest.fixture(scope="module")
def cnn(tmp_path_factory):
    """The model, its file, and ireelab's module compiled from the file."""
    pytest.importorskip("iree.compiler")  # the ONNX importer is IREE's
    model = _cnn_model()
    path = tmp_path_factory.mktemp("cnn") / "cnn.onnx"
    path.write_bytes(model.SerializeToString())
    return model, path, ireelab.compile(str(path))


@pytest.mark.iree
def test_onnx_cnn_runs_every_batch(cnn):
    from onnx.reference import ReferenceEvaluator

    model, _, mod = cnn
    reference = ReferenceEvaluator(model)
    rng = np.random.default_rng(1)
    for n in BATCHES:
        x = rng.standard_normal((n, 2, 6, 6)).astype(np.float32)
        got = np.asarray(mod.cnn(x))
        (want,) = reference.run(None, {"x": x})
        assert got.shape == (n, 5)
        np.testing.assert_allclose(got, want, **TOLERANCE)


@pytest.mark.iree
@needs_iree
def test_onnx_cnn_matches_iree(cnn, tmp_path):
    """iree-compile's dispatch sites (export names, workloads) and its results."""
    import subprocess
    import sys

    import ireelab.iree

    _, path, mod = cnn
    imported = tmp_path / "cnn.mlir"
    command = [sys.executable, "-m", "iree.compiler.tools.import_onnx", str(path), "-o"]
    subprocess.run([*command, str(imported)], check=True, capture_output=True)
    theirs_flow = ireelab.iree.compile(str(imported), compile_to="flow", trace=False).ir()
    ours_flow = ireelab.compile(str(path), compile_to="flow").ir()
    ours, theirs = re.findall(SITES, ours_flow), re.findall(SITES, theirs_flow)
    assert [e for e, _ in ours] == [e for e, _ in theirs]
    assert [e for e, _ in ours] == [
        "cnn$async_dispatch_0_slow_memcpy",
        "cnn$async_dispatch_1_conv_Dx4x6x6x2x3x3_f32",
        "cnn$async_dispatch_2_conv_Dx4x3x3x2x2_f32",
        "cnn$async_dispatch_3_matmul_Dx5x36_f32",
    ]
    assert [len(w.split(", ")) for _, w in ours] == [len(w.split(", ")) for _, w in theirs]
    assert all(len(w.split(", ")) == 1 for _, w in ours)
    iree_module = ireelab.iree.compile(str(imported), trace=False)
    rng = np.random.default_rng(2)
    for n in BATCHES:
        x = rng.standard_normal((n, 2, 6, 6)).astype(np.float32)
        want = iree_module.invoke_all("cnn", x)
        want = want[0] if isinstance(want, tuple | list) else want
        np.testing.assert_allclose(np.asarray(mod.cnn(x)), np.asarray(want), **TOLERANCE)
