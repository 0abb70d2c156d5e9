"""Real framework programs in: PyTorch (iree-turbine), JAX (StableHLO), TOSA and ONNX, through
the real IREE's importers and input conversion, then ireelab's stages; each compared with numpy
and with the real IREE, models with their weights included."""

from __future__ import annotations

import numpy as np
import pytest
from frontend_support import needs, needs_iree_compile, real_iree

import ireelab

TOL = {"rtol": 1e-5, "atol": 1e-5}
"""f32 results: ireelab's kernels and numpy / IREE sum in different orders."""

RNG = np.random.default_rng(15)


def assert_same_dispatches(text: str) -> None:
    """ireelab forms the dispatches `iree-compile --compile-to=flow` forms, named alike."""
    from ireelab.notebook.summary import dispatches_in

    ours = [d.export for d in dispatches_in(ireelab.compile(text, compile_to="flow").ir())]
    real = ireelab.iree.compile(text, compile_to="flow", trace=False, keep=())
    assert ours and ours == [d.export for d in dispatches_in(real.ir())]


def rand(*shape) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


# ---- PyTorch ---------------------------------------------------------------------------------

torch_needed = needs("torch", "iree.turbine", "iree.compiler")


def _linear_relu_module():
    import torch

    class LinearReLU(torch.nn.Module):
        """Linear + ReLU with the weight and bias passed in (no constants in the program)."""

        def forward(self, x, weight, bias):
            return torch.relu(torch.nn.functional.linear(x, weight, bias))

    return LinearReLU()


@pytest.fixture(scope="module")
def torch_args():
    return rand(4, 8), rand(16, 8), rand(16)


@pytest.fixture(scope="module")
def torch_module(torch_args):
    import torch

    return ireelab.compile_torch(_linear_relu_module(), *map(torch.from_numpy, torch_args))


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
@pytest.mark.frontends
@torch_needed
def test_torch_linear_relu(torch_module, torch_args, device):
    x, w, b = torch_args
    # IREE's default torch form: an `$async` entry on fences and the sync `main` calling it.
    assert torch_module.functions[:2] == ["main$async", "main"]
    np.testing.assert_allclose(
        torch_module.main(x, w, b, device=device), np.maximum(x @ w.T + b, 0), **TOL
    )


@pytest.mark.frontends
@torch_needed
def test_torch_trace_starts_with_iree_s_input_conversion(torch_module):
    trace = torch_module.trace
    iree = [r for r in trace if r.tool == "iree"]
    assert iree and trace.records[: len(iree)] == iree  # IREE's passes come first
    assert {r.stage for r in iree} == {"input"}
    names = [r.name for r in iree]
    assert "ConvertTorchToLinalg" in names and "AutoInputConversionPipelinePass" in names
    assert [r.index for r in trace] == list(range(len(trace)))
    assert "torch.aten.linear" in trace.input_ir  # the program as exported
    assert "linalg.matmul" in iree[-1].ir or "linalg.generic" in iree[-1].ir
    assert trace.records[len(iree)].tool == "ireelab"
    assert [r.name for r in trace.find("FormDispatchRegionsPass")]


@pytest.mark.frontends
@torch_needed
def test_torch_sync_entry_points_on_request(torch_args):
    import torch

    sync = ireelab.compile_torch(
        _linear_relu_module(),
        *map(torch.from_numpy, torch_args),
        input_flags=("--iree-torch-emit-async-entry-points=false",),
    )
    assert sync.functions[:1] == ["main"] and "main$async" not in sync.functions
    x, w, b = torch_args
    np.testing.assert_allclose(sync.main(x, w, b), np.maximum(x @ w.T + b, 0), **TOL)


@pytest.mark.frontends
@real_iree
@torch_needed
def test_torch_matches_the_real_iree(torch_module, torch_args):
    text = torch_module.trace.input_ir  # what iree-turbine exported, as `torch_module` read it
    ours = torch_module.main(*torch_args)
    theirs = ireelab.iree.compile(text, trace=False, keep=()).main(*torch_args)
    np.testing.assert_allclose(ours, theirs, **TOL)
    assert_same_dispatches(text)  # main$async_dispatch_0_matmul_4x16x8_f32


@pytest.mark.frontends
@torch_needed
def test_torch_linear_with_its_weights():
    import torch

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU())
    x = torch.from_numpy(rand(4, 8))
    module = ireelab.compile_torch(model, x)
    with torch.no_grad():
        expected = model(x).numpy()
    np.testing.assert_allclose(module.main(x.numpy()), expected, **TOL)


# ---- JAX ---------------------------------------------------------------------------------------


def _mlp(x, w1, b1, w2, b2):
    import jax.numpy as jnp

    return jnp.tanh(x @ w1 + b1) @ w2 + b2


@pytest.fixture(scope="module")
def jax_args():
    return rand(4, 8), rand(8, 16), rand(16), rand(16, 2), rand(2)


@pytest.fixture(scope="module")
def jax_module(jax_args):
    """`_mlp` through JAX's export and IREE's input conversion, compiled once for the tests."""
    return ireelab.compile_jax(_mlp, *jax_args)


@pytest.mark.frontends
@needs("jax", "iree.compiler")
def test_jax_mlp(jax_module, jax_args):
    module, args = jax_module, jax_args
    x, w1, b1, w2, b2 = args
    expected = np.tanh(x @ w1 + b1) @ w2 + b2
    np.testing.assert_allclose(module.main(*args), expected, **TOL)
    assert any(r.tool == "iree" and "stablehlo" in r.flag for r in module.trace)


@pytest.mark.frontends
@real_iree
@needs("jax", "iree.compiler")
def test_jax_matches_the_real_iree(jax_module, jax_args):
    args = jax_args
    text = jax_module.trace.input_ir  # what JAX exported, as `jax_module` read it
    ours = jax_module.main(*args)
    theirs = ireelab.iree.compile(text, trace=False, keep=()).main(*args)
    np.testing.assert_allclose(ours, theirs, **TOL)
    assert_same_dispatches(text)  # the two matmuls, each with its elementwise consumers


# ---- TOSA --------------------------------------------------------------------------------------

TOSA = """
func.func @main(%a: tensor<1x4x8xf32>, %b: tensor<1x8x16xf32>, %bias: tensor<1x1x16xf32>) -> tensor<1x4x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x16xf32>
  %s = tosa.add %m, %bias : (tensor<1x4x16xf32>, tensor<1x1x16xf32>) -> tensor<1x4x16xf32>
  %r = tosa.clamp %s min_val(0.0 : f32) max_val(3.0e38 : f32) : (tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  return %r : tensor<1x4x16xf32>
}
"""


@pytest.mark.frontends
@needs_iree_compile
def test_tosa_program():
    a, b, bias = rand(1, 4, 8), rand(1, 8, 16), rand(1, 1, 16)
    module = ireelab.compile(TOSA)
    np.testing.assert_allclose(module.main(a, b, bias), np.maximum(a @ b + bias, 0), **TOL)


@pytest.mark.frontends
@real_iree
@needs_iree_compile
def test_tosa_is_detected_and_converted_by_iree():
    from ireelab.frontends.input_conversion import convert_input
    from ireelab.frontends.input_type import detect_input_type

    assert detect_input_type(TOSA) == "tosa"
    converted = convert_input(TOSA, "<tosa>", "auto")
    assert "linalg" in converted.text and detect_input_type(converted.text) == "none"
    assert any("tosa" in r.flag for r in converted.records)
    a, b, bias = rand(1, 4, 8), rand(1, 8, 16), rand(1, 1, 16)
    theirs = ireelab.iree.compile(TOSA, trace=False, keep=()).main(a, b, bias)
    np.testing.assert_allclose(theirs, np.maximum(a @ b + bias, 0), **TOL)


# ---- ONNX --------------------------------------------------------------------------------------


def _onnx_model(with_initializer: bool = False):
    from onnx import TensorProto, helper, numpy_helper

    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])]
    initializers = []
    if with_initializer:
        initializers.append(
            numpy_helper.from_array(np.arange(12, dtype=np.float32).reshape(3, 4) / 10, "w")
        )
    else:
        inputs.append(helper.make_tensor_value_info("w", TensorProto.FLOAT, [3, 4]))
    inputs.append(helper.make_tensor_value_info("b", TensorProto.FLOAT, [4]))
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["m"]),
        helper.make_node("Add", ["m", "b"], ["s"]),
        helper.make_node("Relu", ["s"], ["y"]),
    ]
    output = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])
    graph = helper.make_graph(nodes, "mlp", inputs, [output], initializer=initializers)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


onnx_needed = needs("onnx", "iree.compiler.extras.onnx_importer")


@pytest.mark.frontends
@onnx_needed
def test_onnx_model_proto():
    x, w, b = rand(2, 3), rand(3, 4), rand(4)
    module = ireelab.compile(_onnx_model())
    np.testing.assert_allclose(module.mlp(x, w, b), np.maximum(x @ w + b, 0), **TOL)


@pytest.mark.frontends
@onnx_needed
def test_onnx_file_through_the_tools(tmp_path):
    import onnx

    from ireelab.tools import compile as compile_tool
    from ireelab.tools import import_onnx as import_tool

    path = tmp_path / "mlp.onnx"
    onnx.save(_onnx_model(), path)
    assert import_tool.main([str(path), "-o", str(tmp_path / "mlp.mlir")]) == 0
    assert "torch.onnx_meta.opset_version" in (tmp_path / "mlp.mlir").read_text()
    assert compile_tool.main([str(path), "-o", str(tmp_path / "mlp.ilvm")]) == 0
    x, w, b = rand(2, 3), rand(3, 4), rand(4)
    result = ireelab.load(str(tmp_path / "mlp.ilvm")).mlp(x, w, b)
    np.testing.assert_allclose(result, np.maximum(x @ w + b, 0), **TOL)
    from_path = ireelab.compile(str(path))
    assert from_path.trace.input_ir.startswith("module")  # what the importer printed
    np.testing.assert_allclose(from_path.mlp(x, w, b), result, **TOL)


@pytest.mark.frontends
@onnx_needed
def test_a_damaged_onnx_file_is_one_line(tmp_path, capsys):
    from ireelab.tools import import_onnx as import_tool

    path = tmp_path / "bad.onnx"
    path.write_bytes(b"not a protobuf")
    assert import_tool.main([str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot load the ONNX model" in err
    with pytest.raises(ireelab.CompileError, match="cannot load the ONNX model .*No such file"):
        ireelab.compile(str(tmp_path / "missing.onnx"))


@pytest.mark.frontends
@real_iree
@onnx_needed
def test_onnx_matches_the_real_iree():
    from ireelab.frontends.onnx_import import import_onnx

    x, w, b = rand(2, 3), rand(3, 4), rand(4)
    text = import_onnx(_onnx_model())
    ours = ireelab.compile(text).mlp(x, w, b)
    theirs = ireelab.iree.compile(text, trace=False, keep=()).mlp(x, w, b)
    np.testing.assert_allclose(ours, theirs, **TOL)
    assert_same_dispatches(text)


@pytest.mark.frontends
@onnx_needed
def test_onnx_model_with_an_initializer():
    # The importer writes the initializer as a `dense_resource` constant; this one is used
    # by the matmul directly, which takes it into its dispatch (a torch `Linear` transposes
    # its weight on the host first, which is what still fails above).
    x, b = rand(2, 3), rand(4)
    w = np.arange(12, dtype=np.float32).reshape(3, 4) / 10
    module = ireelab.compile(_onnx_model(with_initializer=True))
    np.testing.assert_allclose(module.mlp(x, b), np.maximum(x @ w + b, 0), **TOL)
