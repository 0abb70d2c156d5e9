"""The canonicalizer writes constant SSA slice positions into the op (MLIR's
OpWithOffsetSizesAndStridesConstantArgumentFolder, `input/constant_argument_folding.py`)."""

from __future__ import annotations

import re

import ireelab


def _input_ir(body: str, signature: str, results: str) -> str:
    text = f"func.func @f({signature}) -> {results} {{\n{body}\n}}"
    return ireelab.compile(text, compile_to="input").ir()


def test_constant_offset_and_size_give_a_static_slice():
    # the size becomes static, so the result type does too and the cast to it folds away
    ir = _input_ir(
        """  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %s = tensor.extract_slice %a[%c1, 0] [%c3, 4] [1, 1] : tensor<8x4xf32> to tensor<?x4xf32>
  %t = tensor.cast %s : tensor<?x4xf32> to tensor<3x4xf32>
  return %t : tensor<3x4xf32>""",
        "%a: tensor<8x4xf32>",
        "tensor<3x4xf32>",
    )
    assert re.search(
        r"tensor\.extract_slice %a\[1, 0\] \[3, 4\] \[1, 1\] : tensor<8x4xf32> to tensor<3x4xf32>",
        ir,
    )
    assert "tensor.cast" not in ir


def test_rank_reducing_slice_keeps_its_type():
    ir = _input_ir(
        """  %c2 = arith.constant 2 : index
  %s = tensor.extract_slice %a[%c2, 0] [1, 4] [1, 1] : tensor<8x4xf32> to tensor<4xf32>
  return %s : tensor<4xf32>""",
        "%a: tensor<8x4xf32>",
        "tensor<4xf32>",
    )
    assert "tensor.extract_slice %a[2, 0] [1, 4] [1, 1] : tensor<8x4xf32> to tensor<4xf32>" in ir


def test_constant_insert_offset():
    ir = _input_ir(
        """  %c5 = arith.constant 5 : index
  %r = tensor.insert_slice %b into %a[%c5] [3] [1] : tensor<3xf32> into tensor<8xf32>
  return %r : tensor<8xf32>""",
        "%a: tensor<8xf32>, %b: tensor<3xf32>",
        "tensor<8xf32>",
    )
    assert "tensor.insert_slice %b into %a[5] [3] [1] : tensor<3xf32> into tensor<8xf32>" in ir
