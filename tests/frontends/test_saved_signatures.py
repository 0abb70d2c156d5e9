"""A saved module keeps the names and structures a framework gave its results
(`frontends/saved_signature.py`): kept as a reflection string of the export and restored by
`ireelab.load` without the framework. `test_named_results.py` saves and loads each
framework's module it compiles (ONNX, torch, JAX); here: the command line's module file, the
record's descriptors and flattening on plain structures, and damaged records."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from frontend_support import needs
from test_named_results import _two_output_model

import ireelab
from ireelab.frontends import saved_signature
from ireelab.frontends.signature import Signature

TOL = {"rtol": 1e-6, "atol": 1e-6}
RNG = np.random.default_rng(3)


def rand(*shape) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


@pytest.mark.frontends
@needs("onnx", "iree.compiler.extras.onnx_importer")
def test_the_command_line_keeps_onnx_names_in_the_file(tmp_path):
    import onnx

    model, out = tmp_path / "pair.onnx", tmp_path / "pair.ilvm"
    onnx.save(_two_output_model(), model)
    tool = [sys.executable, "-m", "ireelab.tools.compile", str(model), "-o", str(out)]
    proc = subprocess.run(tool, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    a, b = rand(2, 3), rand(2, 3)
    got = ireelab.load(str(out), device="local-sync").pair(a, b)
    assert got.names == ("total", "product")
    np.testing.assert_allclose(got["total"], a + b, **TOL)


def test_a_record_round_trips_without_the_framework():
    """The descriptors, flattening and rebuilding, on plain Python structures."""

    def unflatten(values):
        return {"b": (values[0], None, [values[1]]), "a": values[2]}

    signature = Signature("torch", (), (), None, unflatten)
    text = saved_signature.encode(signature, 3)
    assert json.loads(text)["results"] == [
        "sdict",
        ["b", ["stuple", ["ndarray"], ["none"], ["slist", ["ndarray"]]]],
        ["a", ["ndarray"]],
    ]
    back = saved_signature.decode(text, 3)
    assert back.pack([1, 2, 3]) == {"b": (1, None, [2]), "a": 3}
    assert back.bind(({"q": 1, "p": 2}, [3]), {"r": 4}) == [1, 2, 3, 4]  # insertion order
    jax = saved_signature.decode(text.replace('"torch"', '"jax"'), 3)
    assert jax.bind(({"q": 1, "p": 2},), {}) == [2, 1]  # sorted keys


def test_a_structure_that_cannot_be_described_is_not_saved():
    class Point:
        def __init__(self, x):
            self.x = x

    signature = Signature("torch", (), (), None, lambda values: Point(values[0]))
    assert saved_signature.encode(signature, 1) is None


def test_a_damaged_record_fails_the_load_with_one_error(tmp_path):
    from ireelab.compiler.vm.module_file import with_reflection
    from ireelab.runtime import ModuleFileError

    source = "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> { return %a : tensor<2xf32> }"
    data = ireelab.compile(source).module_bytes
    path = tmp_path / "bad.ilvm"
    path.write_bytes(
        with_reflection(
            data,
            "f",
            {
                saved_signature.KEY: '{"framework": "jax", "results": ["sdict", ["a", ["ndarray"]], ["b", ["ndarray"]]]}'
            },
        )
    )
    with pytest.raises(ModuleFileError, match="export 'f': .*other than 1 results"):
        ireelab.load(str(path))
    path.write_bytes(with_reflection(data, "f", {saved_signature.KEY: "not json"}))
    with pytest.raises(ModuleFileError, match="export 'f': malformed ireelab.signature"):
        ireelab.load(str(path))
