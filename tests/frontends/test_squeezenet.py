"""A real model in: SqueezeNet 1.1 (random weights, `benchmarks/squeezenet.py`) through the ONNX
route (`torch.onnx.export`, then `ireelab.compile(path)`) and the PyTorch route
(`ireelab.compile_torch`), on a 1x3x64x64 input.

Both routes form the dispatches `iree-compile --compile-to=flow` forms, named alike (30 for
ONNX, 31 for torch, whose global average pool divides in a dispatch of its own; SqueezeNet 1.0
through ONNX: 36, names only), and compute
torch's result within rtol 1e-5 / atol 1e-6 (the f32 sums run in another order), and the real
IREE's. Each route is exported, imported and compiled once per session (module fixtures): the
text a route's tests give the real IREE is the one its ireelab compile read (its trace's input),
and the real IREE compiles each route once, keeping its Flow IR for the dispatch names. The
numba kernels are compiled on the first call and cached on disk by source, so a second run
loads them. The 224x224 figures: `python benchmarks/squeezenet.py`.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest
from frontend_support import needs, real_iree

import ireelab
import ireelab.iree
from ireelab.iree.availability import is_available

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import squeezenet  # noqa: E402

SIZE = 64
TOL = {"rtol": 1e-5, "atol": 1e-6}

pytestmark = [
    pytest.mark.frontends,
    needs("torch", "onnx", "iree.turbine", "iree.compiler.extras.onnx_importer"),
]


@pytest.fixture(scope="module")
def model():
    return squeezenet.squeezenet()


@pytest.fixture(scope="module")
def x():
    return squeezenet.example_input(SIZE)


@pytest.fixture(scope="module")
def expected(model, x):
    return squeezenet.reference(model, x)


@pytest.fixture(scope="module")
def onnx_path(model, x, tmp_path_factory):
    return squeezenet.export_onnx(model, x, tmp_path_factory.mktemp("sq") / "squeezenet.onnx")


@pytest.fixture(scope="module")
def onnx_module(onnx_path):
    return ireelab.compile(str(onnx_path))


@pytest.fixture(scope="module")
def onnx_text(onnx_module):
    """What IREE's ONNX importer made of the file: the text `onnx_module` compiled."""
    return onnx_module.trace.input_ir


@pytest.fixture(scope="module")
def torch_module(model, x):
    import torch

    return ireelab.compile_torch(model, torch.from_numpy(x))


@pytest.fixture(scope="module")
def torch_text(torch_module):
    """What iree-turbine exported: the text `torch_module` compiled."""
    return torch_module.trace.input_ir


@pytest.fixture(scope="module")
def onnx_1_0_text(x, tmp_path_factory):
    from ireelab.frontends.onnx_import import import_onnx

    path = tmp_path_factory.mktemp("sq10") / "squeezenet1_0.onnx"
    return import_onnx(squeezenet.export_onnx(squeezenet.squeezenet(version="1.0"), x, path))


def _real_iree(text: str):
    """The real IREE's full compile of `text`, its Flow IR kept on the way."""
    return ireelab.iree.compile(text, trace=False, keep=("flow",))


@pytest.fixture(scope="module")
def onnx_iree(onnx_text):
    return _real_iree(onnx_text)


@pytest.fixture(scope="module")
def torch_iree(torch_text):
    return _real_iree(torch_text)


@pytest.fixture(scope="module")
def onnx_1_0_iree(onnx_1_0_text):
    """Names only for SqueezeNet 1.0: the real IREE stops at Flow."""
    return ireelab.iree.compile(onnx_1_0_text, compile_to="flow", trace=False, keep=())


def _exports(flow_ir: str) -> list[str]:
    from ireelab.notebook.summary import dispatches_in

    return [d.export for d in dispatches_in(flow_ir)]


@real_iree
@pytest.mark.parametrize(("route", "count"), [("onnx", 30), ("torch", 31), ("onnx_1_0", 36)])
def test_dispatches_as_iree_compile_forms_them(route, count, request):
    text = request.getfixturevalue(f"{route}_text")
    ours = _exports(ireelab.compile(text, compile_to="flow").ir())
    real = _exports(request.getfixturevalue(f"{route}_iree").ir_after("flow"))
    assert len(ours) == count
    assert ours == real
    kinds = {re.search(r"_dispatch_\d+_([a-z]+)", name).group(1) for name in ours}
    assert {"conv", "matmul", "slow", "reduction"} <= kinds  # 3x3, 1x1 convs, pads, the pool


def test_onnx_route_matches_torch(onnx_module, x, expected):
    np.testing.assert_allclose(onnx_module.main_graph(x), expected, **TOL)


@real_iree
def test_onnx_route_matches_the_real_iree(onnx_module, onnx_iree, x):
    theirs = onnx_iree.main_graph(x)
    np.testing.assert_allclose(onnx_module.main_graph(x), theirs, **TOL)


@pytest.mark.slow
def test_torch_route_matches_torch_and_the_real_iree(torch_module, x, expected, request):
    ours = torch_module.main(x)
    np.testing.assert_allclose(ours, expected, **TOL)
    if is_available():
        theirs = request.getfixturevalue("torch_iree").main(x)
        np.testing.assert_allclose(ours, theirs, **TOL)
