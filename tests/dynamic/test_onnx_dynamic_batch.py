"""ONNX's node tests with a dynamic batch, a few per cause the sweep found, against ONNX's
expected outputs and the real IREE.

`python benchmarks/onnx_node_tests.py --dynamic-batch --every 1` is the sweep (figures in
docs/benchmarks.md): every single-node test of a batch op with its first dims made the
`dim_param` `N`, through IREE's importer and input phase. Here each sampled test is compiled
once by ireelab and once by IREE; both run it at the test's batch (held to ONNX's expected
outputs at the test's tolerances) and at twice it (the batch inputs followed by themselves
reversed along dim 0: no expected outputs there, so ireelab is held to IREE's, at the same
tolerances): one module for both sizes.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

import ireelab

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

pytestmark = pytest.mark.iree

SAMPLE = (
    # iree_linalg_ext.arg_compare over a `?` batch was refused (ONNX's ArgMax / ArgMin)
    "test_argmax_keepdims_example",
    "test_argmin_no_keepdims_random_select_last_index",
    # iree_linalg_ext.dequantize_affine over a `?` batch was refused (DequantizeLinear)
    "test_dequantizelinear_axis",
    # `tensor.reshape` to a `from_elements` shape of the batch was refused (GroupNormalization)
    "test_group_normalization_example",
    # linalg.conv_2d_nchw_fchw_q over a `?` batch was refused (ConvInteger)
    "test_convinteger_without_padding",
)


@pytest.fixture(scope="module")
def node_tests():
    pytest.importorskip("onnx")
    pytest.importorskip("iree.compiler")
    import onnx_node_tests

    return {t.name: t for t in onnx_node_tests.load_tests(1, set(SAMPLE))}


def _doubled(inputs: list[np.ndarray], model) -> list[np.ndarray]:
    """The inputs whose first dim the rewrite made `N`, at twice the batch (scalars, such as
    ConvInteger's zero points, have none)."""
    from onnx_dynamic_batch import BATCH

    dims = [v.type.tensor_type.shape.dim for v in model.graph.input]
    batched = [bool(d) and d[0].dim_param == BATCH for d in dims]
    return [
        np.concatenate([a, a[::-1]]) if is_batched else a
        for a, is_batched in zip(inputs, batched, strict=True)
    ]


@pytest.mark.parametrize("name", SAMPLE)
def test_dynamic_batch_node_test(node_tests, name: str) -> None:
    import onnx_node_tests as suite
    from onnx_dynamic_batch import dynamic_batch

    from ireelab.iree import compile as iree_compile

    test = node_tests[name]
    model = dynamic_batch(test.model)
    with tempfile.TemporaryDirectory() as folder:
        source, problem = suite.front_end(model, Path(folder), in_process=True)
    assert source is not None, problem
    function = suite.function_name(source)
    assert "tensor<?x" in source.split(f"@{function}(", 1)[1].split("{", 1)[0]
    inputs, expected = ([suite._array(a) for a in arrays] for arrays in test.data_sets[0])
    inputs = suite.demoted_inputs(inputs, source, function)
    mine, theirs = ireelab.compile(source), iree_compile(source, trace=False)
    rtol, atol = test.rtol, test.atol
    assert suite.matches(theirs.invoke_all(function, *inputs), expected, rtol, atol) == "pass"
    assert suite.matches(mine.invoke(function, *inputs), expected, rtol, atol) == "pass"
    doubled = _doubled(inputs, model)
    reference = [np.asarray(r) for r in theirs.invoke_all(function, *doubled)]
    assert suite.matches(mine.invoke(function, *doubled), reference, rtol, atol) == "pass"
