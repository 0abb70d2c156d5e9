"""`--iree-input-type=auto`: the input type is detected by IREE's rule (the input plugins'
`populateDetectedCustomInputConversionTypes`), read from the program's text."""

from __future__ import annotations

import pytest

from ireelab.diagnostics import CompileError
from ireelab.frontends.input_type import detect_input_type

LINALG = """
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""

TORCH = """
module @module {
  func.func @main(%arg0: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
    %0 = torch.aten.relu %arg0 : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
    return %0 : !torch.vtensor<[4],f32>
  }
}
"""


def test_linalg_needs_no_conversion():
    assert detect_input_type(LINALG) == "none"


def test_torch_ops():
    assert detect_input_type(TORCH) == "torch"


def test_torch_types_in_a_signature_alone_make_it_torch():
    # IREE's torch plugin also looks at func.func argument / result types.
    text = "func.func @f(%a: !torch.vtensor<[4],f32>) -> tensor<4xf32>\n"
    assert detect_input_type(text) == "torch"


def test_onnx_opset_attribute_makes_it_onnx():
    text = TORCH.replace(
        "func.func @main(%arg0: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {",
        "func.func @main(%arg0: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> "
        "attributes {torch.onnx_meta.opset_version = 17 : si64} {",
    )
    assert detect_input_type(text) == "onnx"


def test_generic_form_op_counts():
    text = '%0 = "tosa.abs"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>\n'
    assert detect_input_type(text) == "tosa"


def test_stablehlo_and_its_tuple_variant():
    plain = "%0 = stablehlo.add %a, %b : tensor<4xf32>\n"
    assert detect_input_type(plain) == "stablehlo"
    tuples = "%0 = stablehlo.tuple %a, %b : tuple<tensor<4xf32>, tensor<4xf32>>\n"
    assert detect_input_type(tuples) == "stablehlo_xla"


def test_chlo_is_stablehlo():
    assert detect_input_type("%0 = chlo.erf %a : tensor<4xf32> -> tensor<4xf32>\n") == "stablehlo"


def test_comments_strings_attributes_and_resources_do_not_count():
    text = LINALG + (
        "// %0 = torch.aten.relu %arg0\n"
        'util.global private @g {note = "tosa.abs"} : i32\n'
        "{-#\n  dialect_resources: {\n    builtin: {\n"
        '      torch_tensor_4_torch.float32: "0x04000000"\n    }\n  }\n#-}\n'
    )
    assert detect_input_type(text) == "none"


def test_a_mixture_is_an_error_as_in_iree():
    with pytest.raises(CompileError, match="mixture of input types.*'torch'.*'tosa'"):
        detect_input_type(TORCH + '%1 = "tosa.abs"(%a) : (tensor<4xf32>) -> tensor<4xf32>\n')


def test_unknown_input_type_is_a_one_line_error():
    import ireelab

    with pytest.raises(CompileError, match="unknown --iree-input-type 'caffe'"):
        ireelab.compile(LINALG, input_type="caffe")


def test_none_skips_detection_and_the_parser_names_the_dialect():
    import ireelab

    with pytest.raises(CompileError, match="torch"):
        ireelab.compile(TORCH, input_type="none")
