"""Float dense literals read as MLIR reads them (`compiler/float_literals.py`): hex elements
are bit patterns in every float width, f16 decimals round to infinity past the largest half,
and a hex literal the type cannot hold is a located parse error."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import arith

from ireelab.compiler.source import parse_source
from ireelab.diagnostics import CompileError


def _constant_bytes(literal: str) -> bytes:
    module = parse_source(f"func.func @f() {{\n  %c = arith.constant {literal}\n  return\n}}")
    (constant,) = [op for op in module.walk() if isinstance(op, arith.ConstantOp)]
    return constant.value.data.data


@pytest.mark.parametrize(
    ("literal", "expected"),
    [
        # a hex splat is one bit pattern repeated: four -inf
        ("dense<0xFF800000> : tensor<4xf32>", np.full(4, -np.inf, np.float32)),
        ("dense<[0x7FF0000000000000, 2.5]> : tensor<2xf64>", np.array([np.inf, 2.5])),
        ("dense<[0x3C00, 7.0e4, -1.0]> : tensor<3xf16>", np.array([1, np.inf, -1], np.float16)),
    ],
)
def test_hex_elements_are_bit_patterns(literal, expected):
    assert _constant_bytes(literal) == expected.tobytes()


def test_bf16_hex_and_decimal_elements():
    # 0x7F80 is +inf; 1.0 rounds to 0x3F80; 1.00390625 is a tie between 0x3F80 and 0x3F81
    data = _constant_bytes("dense<[0x7F80, 1.0, 1.00390625]> : tensor<3xbf16>")
    assert np.frombuffer(data, np.uint16).tolist() == [0x7F80, 0x3F80, 0x3F80]


def test_integer_hex_literal_is_still_a_number():
    assert _constant_bytes("dense<0xFF> : tensor<2xi32>") == np.full(2, 255, np.int32).tobytes()


def test_hex_literal_wider_than_the_type_is_a_located_error():
    with pytest.raises(CompileError) as caught:
        parse_source("func.func @f() {\n  %c = arith.constant dense<0x1FFFF> : tensor<2xf16>\n}")
    assert "does not fit in f16" in caught.value.message
    assert caught.value.location is not None and caught.value.location.line == 2
