"""Results named and structured as the framework names them (`frontends/signature.py`): ONNX
graph output names (and inputs by name), the pytree a torch module or a JAX function returns.
Each compared with the framework's own result (f32, rtol 1e-6); each module is also saved and
loaded back, and keeps its names and structure (`frontends/saved_signature.py`, the reflection
string the file keeps), with the very same results."""

from __future__ import annotations

import json

import numpy as np
import pytest
from frontend_support import needs

import ireelab
from ireelab.frontends import saved_signature
from ireelab.frontends.signature import NamedResults

TOL = {"rtol": 1e-6, "atol": 1e-6}
RNG = np.random.default_rng(2)


def rand(*shape) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def saved_and_loaded(module, tmp_path):
    """`module` saved to a file and loaded back, with the signature record the file keeps."""
    path = tmp_path / "m.ilvm"
    module.save(str(path))
    loaded = ireelab.load(str(path), device="local-sync")
    (name,) = loaded.signatures
    return loaded, json.loads(loaded.loaded.image.reflection[name][saved_signature.KEY])


def _two_output_model():
    from onnx import TensorProto, helper

    def value(name):
        return helper.make_tensor_value_info(name, TensorProto.FLOAT, [2, 3])

    nodes = [
        helper.make_node("Add", ["left", "right"], ["total"]),
        helper.make_node("Mul", ["left", "right"], ["product"]),
    ]
    graph = helper.make_graph(
        nodes, "pair", [value("left"), value("right")], [value("total"), value("product")]
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.mark.frontends
@needs("onnx", "iree.compiler.extras.onnx_importer")
def test_onnx_results_carry_the_graph_output_names(tmp_path):
    a, b = rand(2, 3), rand(2, 3)
    module = ireelab.compile(_two_output_model())
    out = module.pair(a, b)
    assert isinstance(out, NamedResults) and out.names == ("total", "product")
    np.testing.assert_allclose(out["total"], a + b, **TOL)
    np.testing.assert_allclose(out["product"], a * b, **TOL)
    total, product = out  # still the positional tuple IREE's runtime returns
    np.testing.assert_allclose(product, a * b, **TOL)
    assert list(out.as_dict()) == ["total", "product"]
    by_name = module.pair(right=b, left=a)  # inputs by their graph names
    np.testing.assert_allclose(by_name["total"], a + b, **TOL)
    with pytest.raises(KeyError, match="no result named 'sum'"):
        out["sum"]  # noqa: B018
    with pytest.raises(TypeError, match="no input named 'x'"):
        module.pair(x=a, right=b)
    loaded, record = saved_and_loaded(module, tmp_path)
    assert record == {
        "framework": "onnx",
        "inputs": ["left", "right"],
        "outputs": ["total", "product"],
    }
    again = loaded.pair(right=b, left=a)
    assert isinstance(again, NamedResults) and again.names == ("total", "product")
    np.testing.assert_array_equal(again["product"], out["product"])


@pytest.mark.frontends
@needs("torch", "iree.turbine", "iree.compiler")
def test_torch_results_keep_the_module_s_structure(tmp_path):
    import torch

    class Heads(torch.nn.Module):
        def forward(self, x, y):
            return {"sum": x + y, "pair": (x * y, torch.relu(x - y))}

    x, y = rand(4), rand(4)
    module = ireelab.compile_torch(Heads(), x, y)  # numpy examples are taken as tensors
    out = module.main(x, y)
    with torch.no_grad():
        expected = Heads()(torch.from_numpy(x), torch.from_numpy(y))
    assert set(out) == {"sum", "pair"} and isinstance(out["pair"], tuple)
    np.testing.assert_allclose(out["sum"], expected["sum"].numpy(), **TOL)
    np.testing.assert_allclose(out["pair"][1], expected["pair"][1].numpy(), **TOL)
    # torch tensors are taken as arguments too
    again = module.main(torch.from_numpy(x), torch.from_numpy(y))
    np.testing.assert_allclose(again["pair"][0], expected["pair"][0].numpy(), **TOL)
    loaded, record = saved_and_loaded(module, tmp_path)
    assert record["results"] == [
        "sdict",
        ["sum", ["ndarray"]],
        ["pair", ["stuple", ["ndarray"], ["ndarray"]]],
    ]
    back = loaded.main(x, y)
    assert list(back) == ["sum", "pair"] and isinstance(back["pair"], tuple)
    np.testing.assert_array_equal(back["pair"][1], np.asarray(out["pair"][1]))


@pytest.mark.frontends
@needs("jax", "iree.compiler")
def test_jax_results_keep_the_function_s_pytree(tmp_path):
    def stats(x):
        return {"mean": x.mean(axis=0), "extremes": [x.min(axis=0), x.max(axis=0)]}

    x = rand(5, 3)
    module = ireelab.compile_jax(stats, x)
    out = module.main(x)
    assert set(out) == {"mean", "extremes"} and isinstance(out["extremes"], list)
    np.testing.assert_allclose(out["mean"], x.mean(axis=0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out["extremes"][1], x.max(axis=0), **TOL)
    loaded, record = saved_and_loaded(module, tmp_path)
    assert record["framework"] == "jax"
    back = loaded.main(x)
    assert set(back) == {"mean", "extremes"} and isinstance(back["extremes"], list)
    np.testing.assert_array_equal(back["extremes"][0], out["extremes"][0])
