"""A small CI sample of ONNX's backend node tests through IREE's importer and input conversion,
then the real IREE 3.13 and ireelab, both held to ONNX's expected outputs at the test's own
tolerances (rtol 1e-3, atol 1e-7). The full measurement is `benchmarks/onnx_node_tests.py`
(figures in docs/onnx_node_tests.md); these are node tests of the kinds issue 15 needed:
weights and host constants (Gemm, Conv, Constant, Shape), softmax and reductions, matmuls."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from iree_support import needs_iree

pytestmark = needs_iree

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

SAMPLE = (
    "test_constant",
    "test_shape",
    "test_gemm_default_single_elem_vector_bias",
    "test_gemm_all_attributes",
    "test_conv_with_strides_padding",
    "test_softmax_axis_0",
    "test_reduce_sum_default_axes_keepdims_example",
    "test_reduce_mean_default_axes_keepdims_example",
    "test_matmul_3d",
    "test_relu",
)


@pytest.fixture(scope="module")
def node_tests():
    pytest.importorskip("onnx")
    import onnx_node_tests

    return {t.name: t for t in onnx_node_tests.load_tests(1, set(SAMPLE))}


@pytest.mark.parametrize("name", SAMPLE)
def test_node_test_passes_in_iree_and_ireelab(node_tests, name: str) -> None:
    import onnx_node_tests

    outcome = onnx_node_tests.run_test(node_tests[name], in_process_import=True)
    assert outcome.stage == "imported"
    assert outcome.iree == "pass"
    assert outcome.ireelab == "pass"
