"""Issue 17: a dynamic construct the stages do not carry is refused at input, never
miscompiled.

ONNX's `test_onehot_without_axis`, taken through IREE's importer, builds `tensor.empty(%n) :
tensor<?xi64>` in the function body (the depth is an input's value); ireelab once compiled it
as if the size were fixed and 13 of its 36 outputs differed from ONNX's. Such sizes are now
read back on the host as IREE does (tests/dynamic/test_sizes_from_values.py), and the ONNX
tests match ONNX's outputs, as are integer scalar arguments
(tests/dynamic/test_scalar_argument_sizes.py); a size the stages cannot compute yet (a float
argument converted with `arith.fptosi`) still stops at input, at the op's line.
"""

from __future__ import annotations

import numpy as np
import pytest
from bad_input_corpus import CORPUS
from onnx_node_import import import_to_input_phase, load_node_test, needs_onnx_import

import ireelab
from ireelab.diagnostics import CompileError

ARGUMENT_SIZE = CORPUS / "unsupported_dynamic_empty_argument_size.mlir"


def _refusal(path) -> CompileError:
    with pytest.raises(CompileError) as caught:
        ireelab.compile(str(path))
    return caught.value


def test_empty_sized_by_an_argument_is_refused_at_its_line():
    error = _refusal(ARGUMENT_SIZE)
    assert error.stage == "input"
    assert error.message == "dynamic shape tensor<?xf32> of 'tensor.empty' is not supported yet"
    assert error.location.source_line.strip() == "%e = tensor.empty(%n) : tensor<?xf32>"


@pytest.mark.parametrize("phase", ["input", "flow", "end"])
def test_refused_whatever_the_phase(phase):
    """The refusal is at input, so no later phase (nor the printed IR) ever sees the program."""
    with pytest.raises(CompileError, match="dynamic shape tensor<"):
        ireelab.compile(str(ARGUMENT_SIZE), compile_to=phase)


@needs_onnx_import
@pytest.mark.parametrize("name", ["test_onehot_without_axis", "test_onehot_with_axis"])
def test_onnx_one_hot_through_iree_importer_matches_onnx(name, tmp_path):
    """The once-miscompiled one-hot: every output equals ONNX's expected one (exact: the
    values are the test's on / off values)."""
    model, inputs, outputs = load_node_test(name)
    module = ireelab.compile(str(import_to_input_phase(model, tmp_path, name)))
    got = module.invoke(name, *[np.asarray(a) for a in inputs])
    np.testing.assert_array_equal(np.asarray(got), np.asarray(outputs[0]))
