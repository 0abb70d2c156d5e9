"""Issue 17's first step: a dynamic construct is refused at input, never miscompiled.

ONNX's `test_onehot_without_axis`, taken through IREE's importer, builds `tensor.empty(%n) :
tensor<?xi64>` in the function body (the depth is an input's value); ireelab used to compile
it as if the size were fixed and 13 of its 36 outputs differed from ONNX's. Until the stages
after input carry `?` dims, such programs stop at input, at the op's line.
"""

from __future__ import annotations

import pytest
from bad_input_corpus import CORPUS
from onnx_node_import import import_to_input_phase, load_node_test, needs_onnx_import

import ireelab
from ireelab.diagnostics import CompileError

ONE_HOT = CORPUS / "unsupported_dynamic_tensor_empty.mlir"


def _refusal(path) -> CompileError:
    with pytest.raises(CompileError) as caught:
        ireelab.compile(str(path))
    return caught.value


def test_one_hot_pattern_is_refused_at_the_dynamic_empty():
    error = _refusal(ONE_HOT)
    assert error.stage == "input"
    assert error.message == "dynamic shape tensor<?xi64> of 'tensor.empty' is not supported yet"
    assert error.location.source_line.strip() == "%empty = tensor.empty(%n) : tensor<?xi64>"


@pytest.mark.parametrize("phase", ["input", "flow", "end"])
def test_refused_whatever_the_phase(phase):
    """The refusal is at input, so no later phase (nor the printed IR) ever sees the program."""
    with pytest.raises(CompileError, match="dynamic shape tensor<"):
        ireelab.compile(str(ONE_HOT), compile_to=phase)


@needs_onnx_import
@pytest.mark.parametrize("name", ["test_onehot_without_axis", "test_onehot_with_axis"])
def test_onnx_one_hot_through_iree_importer_is_refused(name, tmp_path):
    model, _, _ = load_node_test(name)
    error = _refusal(import_to_input_phase(model, tmp_path, name))
    assert error.stage == "input" and error.location is not None
    assert "tensor.empty" in error.message and "tensor<?x" in error.message
    assert "tensor.empty(" in error.location.source_line
