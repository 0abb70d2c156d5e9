"""An ONNX Concat with symbolic dims through IREE's importer and its async ABI: the `?`
tensors pass `hal.tensor.barrier` (sizes and all), the concat is the host copies or the
slow_memcpy dispatches IREE forms, and one module serves every size (numpy, exact)."""

from __future__ import annotations

import numpy as np
import pytest
from frontend_support import needs

import ireelab

pytestmark = [pytest.mark.frontends, needs("onnx", "iree.compiler.extras.onnx_importer")]


def _concat_model(axis: int):
    from onnx import TensorProto, helper

    shape_a, shape_b, shape_y = (
        (["n", 4], ["m", 4], [None, 4]) if axis == 0 else ([3, "n"], [3, "m"], [3, None])
    )
    graph = helper.make_graph(
        [helper.make_node("Concat", ["a", "b"], ["y"], axis=axis)],
        "g",
        [
            helper.make_tensor_value_info("a", TensorProto.FLOAT, shape_a),
            helper.make_tensor_value_info("b", TensorProto.FLOAT, shape_b),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape_y)],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.mark.parametrize("axis", [0, 1])
def test_concat_with_symbolic_dims_at_every_size(axis: int) -> None:
    module = ireelab.compile(_concat_model(axis))
    rng = np.random.default_rng(axis)
    for n, m in [(1, 1), (5, 2), (70, 131)]:
        shapes = [(n, 4), (m, 4)] if axis == 0 else [(3, n), (3, m)]
        a, b = (rng.standard_normal(s, dtype=np.float32) for s in shapes)
        got = np.asarray(module.g(a, b))
        np.testing.assert_array_equal(got, np.concatenate([a, b], axis=axis))
