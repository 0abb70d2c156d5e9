"""Real ONNX CNNs with a dynamic batch (`dim_param` "N"), one module for every batch size.

Built with onnx.helper and imported by IREE's importer: a CNN (Conv with a bias, Relu,
MaxPool, Flatten, Gemm), a MobileNet block (depthwise Conv + ReLU6, pointwise Conv + Relu,
GlobalAveragePool, Gemm), and single grouped, depthwise, 1-D and 3-D Convs. Each conv's bias
becomes a `linalg.broadcast` over the `?` batch into its accumulator, which
DetachElementwiseFromNamedOpsPass splits off (a zero-filled accumulator sized by the batch,
then the bias add, which fuses into the conv's dispatch). iree-compile's dispatches (export
names, the batch as each one's only workload) are formed, and each module is compared with
ONNX's reference evaluator and with the real IREE at batch 1, 2 and 3. The conv with its
broadcast bias in linalg alone (`programs/conv_bias_broadcast_batch.mlir`) is checked against
numpy where IREE is absent. SqueezeNet 1.1 (benchmarks/squeezenet.py) exported from torch with
`dynamic_axes` gives iree-compile's 56 dispatches and torch's logits. `?` image sizes are
carried too (test_dynamic_conv_spatial.py; an ONNX CNN over dim_params H and W here);
and so are `?` channel and filter counts of convolutions
(test_dynamic_conv_channels.py); a `?` filter window stays refused
(tests/bad_inputs/compile/unsupported_dynamic_depthwise_window.mlir).
"""

from __future__ import annotations

import os
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


# ---- the ONNX models -----------------------------------------------------------------------


def _graph(name, nodes, x, y, initializers):
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    value = helper.make_tensor_value_info
    graph = helper.make_graph(
        nodes,
        name,
        [value("x", TensorProto.FLOAT, x)],
        [value("y", TensorProto.FLOAT, y)],
        initializer=initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    return model


def _weights(*specs):
    """Standard-normal initializers, `(name, *shape)` each."""
    from onnx import numpy_helper

    rng = np.random.default_rng(0)
    return [
        numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)
        for name, *shape in specs
    ]


def _cnn():
    # Conv with a bias, Relu, MaxPool, Flatten, Gemm
    from onnx import helper

    nodes = [
        helper.make_node("Conv", ["x", "W", "B"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Flatten", ["p"], ["f"]),
        helper.make_node("Gemm", ["f", "G", "GB"], ["y"], transB=1),
    ]
    weights = _weights(("W", 4, 2, 3, 3), ("B", 4), ("G", 5, 36), ("GB", 5))
    return _graph("cnn", nodes, ["N", 2, 6, 6], ["N", 5], weights)


def _mobile():
    # a MobileNet block: depthwise 3x3 (stride 2) + ReLU6, pointwise 1x1 + ReLU, pooled, Gemm
    from onnx import helper, numpy_helper

    nodes = [
        helper.make_node("Conv", ["x", "DW", "DB"], ["d"], group=4, pads=[1] * 4, strides=[2, 2]),
        helper.make_node("Clip", ["d", "lo", "hi"], ["d6"]),
        helper.make_node("Conv", ["d6", "PW", "PB"], ["p"]),
        helper.make_node("Relu", ["p"], ["pr"]),
        helper.make_node("GlobalAveragePool", ["pr"], ["g"]),
        helper.make_node("Flatten", ["g"], ["f"]),
        helper.make_node("Gemm", ["f", "FC", "FB"], ["y"], transB=1),
    ]
    weights = _weights(("DW", 4, 1, 3, 3), ("DB", 4), ("PW", 8, 4, 1, 1), ("PB", 8))
    weights += _weights(("FC", 3, 8), ("FB", 3))
    weights += [numpy_helper.from_array(np.float32(v), n) for n, v in (("lo", 0), ("hi", 6))]
    return _graph("mobile", nodes, ["N", 4, 8, 8], ["N", 3], weights)


def _conv(name, x, w, y, **attributes):
    """One Conv with a bias: `x` and `y` shapes after the batch, `w` the filter's."""
    from onnx import helper

    node = helper.make_node("Conv", ["x", "W", "B"], ["y"], **attributes)
    return _graph(name, [node], ["N", *x], ["N", *y], _weights(("W", *w), ("B", w[0])))


MODELS = {
    "cnn": _cnn,
    "mobile": _mobile,
    "grouped": lambda: _conv("grouped", [4, 6, 6], [6, 2, 3, 3], [6, 4, 4], group=2),
    "depthwise": lambda: _conv(
        "depthwise", [4, 6, 6], [4, 1, 3, 3], [4, 6, 6], group=4, pads=[1] * 4
    ),
    "pointwise": lambda: _conv("pointwise", [4, 5, 5], [6, 4, 1, 1], [6, 5, 5]),
    "conv1d": lambda: _conv("conv1d", [2, 8], [3, 2, 3], [3, 6]),
    "conv3d": lambda: _conv("conv3d", [2, 4, 4, 4], [3, 2, 2, 2, 2], [3, 3, 3, 3]),
}
"""Each model's graph is named as its function; ONNX's Conv with `group` lowers to
`linalg.conv_2d_ngchw_gfchw`, one group per channel to `depthwise_conv_2d_nchw_chw`, 1-D and
3-D Convs to `conv_1d_ncw_fcw` / `conv_3d_ncdhw_fcdhw`; a 1x1 Conv is a `matmul_like` once
FoldUnitExtentDimsPass drops its unit window loops."""

EXPORTS = {
    "cnn": ["slow_memcpy", "conv_Dx4x6x6x2x3x3_f32", "conv_Dx4x3x3x2x2_f32", "matmul_Dx5x36_f32"],
    "mobile": [
        "slow_memcpy",
        "conv_Dx4x4x4x3x3_f32",
        "matmul_like_Dx8x16x4_f32",
        "reduction_Dx8x16_f32",
        "matmul_Dx3x8_f32",
    ],
    "grouped": ["conv_Dx2x3x4x4x2x3x3_f32"],
    "depthwise": ["slow_memcpy", "conv_Dx6x6x4x3x3_f32"],
    "pointwise": ["matmul_like_Dx6x25x4_f32"],  # the bias add fused, as in SqueezeNet's fires
    "conv1d": ["conv_Dx3x6x2x3_f32"],
    "conv3d": ["conv_Dx3x3x3x3x2x2x2x2_f32"],
}
"""iree-compile 3.13's dispatches, each `<graph>$async_dispatch_<i>_` before these."""

EXTRA = {"grouped": "elementwise_broadcast_Dx6x16_f32"}
"""Dispatches ireelab forms beyond iree-compile's: IREE's BubbleUpExpandShapesPass (not
modelled) moves the grouped conv's `expand_shape` of the bias broadcast above it, so the
broadcast fuses into the conv; here it stays a dispatch of its own (the static model too)."""


def _exports(name: str) -> list[str]:
    names = [EXTRA[name], *EXPORTS[name]] if name in EXTRA else EXPORTS[name]
    return [f"{name}$async_dispatch_{i}_{n}" for i, n in enumerate(names)]


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """name -> (model, its file, ireelab's module compiled from the file), compiled once."""
    pytest.importorskip("iree.compiler")  # the ONNX importer is IREE's
    folder = tmp_path_factory.mktemp("onnx")
    built = {}

    def get(name):
        if name not in built:
            model = MODELS[name]()
            path = folder / f"{name}.onnx"
            path.write_bytes(model.SerializeToString())
            built[name] = model, path, ireelab.compile(str(path))
        return built[name]

    return get


def _batches(model, seed: int):
    dims = model.graph.input[0].type.tensor_type.shape.dim
    shape = [d.dim_value for d in dims[1:]]
    rng = np.random.default_rng(seed)
    for n in BATCHES:
        yield n, rng.standard_normal((n, *shape)).astype(np.float32)


@pytest.mark.iree
@pytest.mark.parametrize("name", MODELS)
def test_onnx_model_runs_every_batch(name, models):
    from onnx.reference import ReferenceEvaluator

    model, path, mod = models(name)
    reference = ReferenceEvaluator(model)
    for n, x in _batches(model, 1):
        got = np.asarray(getattr(mod, name)(x))
        (want,) = reference.run(None, {"x": x})
        assert got.shape == want.shape and got.shape[0] == n
        np.testing.assert_allclose(got, want, **TOLERANCE)


@pytest.mark.iree
@pytest.mark.parametrize("name", MODELS)
def test_onnx_model_dispatches(name, models):
    # one dispatch per root, each with the batch as its one workload
    _, path, _ = models(name)
    sites = re.findall(SITES, ireelab.compile(str(path), compile_to="flow").ir())
    assert [export for export, _ in sites] == _exports(name)
    assert all(len(workload.split(", ")) == 1 for _, workload in sites)


@pytest.mark.iree
@needs_iree
@pytest.mark.parametrize("name", MODELS)
def test_onnx_model_matches_iree(name, models, tmp_path):
    """iree-compile's dispatch sites (export names, one workload each) and its results."""
    import subprocess
    import sys

    import ireelab.iree

    model, path, mod = models(name)
    imported = tmp_path / f"{name}.mlir"
    command = [sys.executable, "-m", "iree.compiler.tools.import_onnx", str(path), "-o"]
    subprocess.run([*command, str(imported)], check=True, capture_output=True)
    theirs = ireelab.iree.compile(str(imported), compile_to="flow", trace=False).ir()
    sites = re.findall(SITES, theirs)
    assert [e for e, _ in sites] == [
        f"{name}$async_dispatch_{i}_{n}" for i, n in enumerate(EXPORTS[name])
    ]
    assert all(len(workload.split(", ")) == 1 for _, workload in sites)
    iree_module = ireelab.iree.compile(str(imported), trace=False)
    for _, x in _batches(model, 2):
        want = iree_module.invoke_all(name, x)
        want = want[0] if isinstance(want, tuple | list) else want
        np.testing.assert_allclose(np.asarray(getattr(mod, name)(x)), np.asarray(want), **TOLERANCE)


# ---- an ONNX CNN over a dynamic image size ---------------------------------------------------


def _image_cnn():
    # Conv (padded, stride 2) with a bias, Relu, MaxPool over dim_params H and W
    from onnx import helper

    nodes = [
        helper.make_node("Conv", ["x", "W", "B"], ["c"], pads=[1] * 4, strides=[2, 2]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("MaxPool", ["r"], ["y"], kernel_shape=[2, 2], strides=[2, 2]),
    ]
    weights = _weights(("W", 4, 2, 3, 3), ("B", 4))
    return _graph("image_cnn", nodes, [1, 2, "H", "W"], [1, 4, "OH", "OW"], weights)


IMAGE_EXPORTS = ["slow_memcpy", "conv_4xDxDx2x3x3_f32", "conv_4xDxDx2x2_f32"]
"""iree-compile 3.13's dispatches for `_image_cnn`: the padding copy, the conv with its bias
and Relu, the pool; each takes its operands' `?` sizes as its workload (four each)."""


IMAGE_SIZES = [(4, 4), (7, 9), (30, 45), (70, 300)]
"""From the smallest image (a 1x1 result) to ones that leave partial workgroup tiles."""


@pytest.fixture(scope="module")
def image_cnn(tmp_path_factory):
    pytest.importorskip("iree.compiler")  # the ONNX importer is IREE's
    model = _image_cnn()
    path = tmp_path_factory.mktemp("onnx") / "image_cnn.onnx"
    path.write_bytes(model.SerializeToString())
    return model, path, ireelab.compile(str(path))


@pytest.mark.iree
def test_onnx_cnn_over_a_dynamic_image_size(image_cnn):
    """The image's H and W as dim_params (the result's sizes computed by the importer's
    arithmetic): iree-compile's dispatches and ONNX's reference results at every size."""
    from onnx.reference import ReferenceEvaluator

    model, _, mod = image_cnn
    sites = re.findall(SITES, [r for r in mod.trace.records if r.stage == "flow"][-1].ir)
    assert [e for e, _ in sites] == [
        f"image_cnn$async_dispatch_{i}_{n}" for i, n in enumerate(IMAGE_EXPORTS)
    ]
    assert [len(w.split(", ")) for _, w in sites] == [4, 4, 4]
    reference, rng = ReferenceEvaluator(model), np.random.default_rng(6)
    for h, w in IMAGE_SIZES:
        x = rng.standard_normal((1, 2, h, w)).astype(np.float32)
        (want,) = reference.run(None, {"x": x})
        got = np.asarray(mod.image_cnn(x))
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, **TOLERANCE)


@pytest.mark.iree
@needs_iree
def test_onnx_cnn_over_a_dynamic_image_size_matches_iree(image_cnn, tmp_path):
    import subprocess
    import sys

    import ireelab.iree

    _, path, mod = image_cnn
    imported = tmp_path / "image_cnn.mlir"
    command = [sys.executable, "-m", "iree.compiler.tools.import_onnx", str(path), "-o"]
    subprocess.run([*command, str(imported)], check=True, capture_output=True)
    theirs = ireelab.iree.compile(str(imported), compile_to="flow", trace=False).ir()
    assert [e for e, _ in re.findall(SITES, theirs)] == [
        f"image_cnn$async_dispatch_{i}_{n}" for i, n in enumerate(IMAGE_EXPORTS)
    ]
    iree_module = ireelab.iree.compile(str(imported), trace=False)
    rng = np.random.default_rng(7)
    for h, w in IMAGE_SIZES:
        x = rng.standard_normal((1, 2, h, w)).astype(np.float32)
        want = iree_module.invoke_all("image_cnn", x)
        want = want[0] if isinstance(want, tuple | list) else want
        np.testing.assert_allclose(np.asarray(mod.image_cnn(x)), np.asarray(want), **TOLERANCE)


# ---- SqueezeNet 1.1 exported from torch with a dynamic batch ---------------------------------


@pytest.mark.iree
@pytest.mark.frontends
@needs_iree
@pytest.mark.skipif(
    os.environ.get("IREELAB_FULL_TESTS") != "1",
    reason="about 110 s of CPU cold (56 kernels); IREELAB_FULL_TESTS=1 runs it",
)
def test_squeezenet_with_dynamic_batch(tmp_path):
    """torch.onnx.export with `dynamic_axes` (the batch as "N"): iree-compile's 56 dispatches,
    each with the batch as its one workload, and torch's logits at batch 1, 2 and 3."""
    import subprocess
    import sys
    import warnings

    torch = pytest.importorskip("torch")
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import squeezenet

    import ireelab.iree

    model, size = squeezenet.squeezenet(), 64
    path, imported = tmp_path / "squeezenet.onnx", tmp_path / "squeezenet.mlir"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the TorchScript exporter's deprecation notice
        torch.onnx.export(
            model,
            (torch.from_numpy(squeezenet.example_input(size)),),
            str(path),
            input_names=["data"],
            output_names=["logits"],
            opset_version=17,
            dynamo=False,
            dynamic_axes={"data": {0: "N"}, "logits": {0: "N"}},
        )
    mod = ireelab.compile(str(path))
    command = [sys.executable, "-m", "iree.compiler.tools.import_onnx", str(path), "-o"]
    subprocess.run([*command, str(imported)], check=True, capture_output=True)
    theirs = ireelab.iree.compile(str(imported), compile_to="flow", trace=False).ir()
    ours = [r for r in mod.trace.records if r.stage == "flow"][-1].ir  # at --compile-to=flow
    ours_sites, their_sites = re.findall(SITES, ours), re.findall(SITES, theirs)
    assert len(their_sites) == 56
    assert [e for e, _ in ours_sites] == [e for e, _ in their_sites]
    assert all(len(w.split(", ")) == 1 for _, w in ours_sites)
    rng = np.random.default_rng(4)
    for n in BATCHES:
        x = rng.random((n, 3, size, size), dtype=np.float32)
        got = np.asarray(mod.main_graph(x))
        assert got.shape == (n, 1000)
        np.testing.assert_allclose(got, squeezenet.reference(model, x), rtol=1e-5, atol=1e-6)
