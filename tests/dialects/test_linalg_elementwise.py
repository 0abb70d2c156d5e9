"""`linalg.elementwise <kind>` (ireelab/dialects/linalg_elementwise.py): the text IREE 3.13
prints parses, verifies and prints back unchanged; each kind's body is MLIR's scalar function;
a kind on a type MLIR does not define it for is a located parse error."""

from __future__ import annotations

import pytest
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError

from ireelab.compiler.context import make_context
from ireelab.dialects.linalg_elementwise import ElementwiseOp

TRANSPOSED_ADD = (
    "%r = linalg.elementwise <add> indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, "
    "affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>] "
    "ins(%t, %row : tensor<8x4xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) "
    "-> tensor<4x8xf32>"
)


def _function(body: str) -> str:
    return (
        "func.func @f(%t: tensor<8x4xf32>, %row: tensor<8xf32>, %a: tensor<4x8xi32>, "
        "%c: tensor<4x8xi1>, %x: tensor<4x8xf32>) -> tensor<4x8xf32> {\n"
        "  %e = tensor.empty() : tensor<4x8xf32>\n"
        "  %ei = tensor.empty() : tensor<4x8xi32>\n"
        f"  {body}\n"
        "  return %e : tensor<4x8xf32>\n}"
    )


def _ops(body: str) -> list[ElementwiseOp]:
    module = Parser(make_context(), _function(body)).parse_module()
    module.verify()
    return [op for op in module.walk() if isinstance(op, ElementwiseOp)]


def test_indexing_maps_form_prints_back_as_iree_prints_it() -> None:
    (op,) = _ops(TRANSPOSED_ADD)
    assert str(op) == TRANSPOSED_ADD
    assert [str(m.data) for m in op.get_indexing_maps()][0] == "(d0, d1) -> (d1, d0)"


@pytest.mark.parametrize(
    ("body", "scalar_ops"),
    [
        ("%r = linalg.elementwise <exp> ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>", ["math.exp"]),
        ("%r = linalg.elementwise <max_unsigned> ins(%a, %a : tensor<4x8xi32>, tensor<4x8xi32>) outs(%ei : tensor<4x8xi32>) -> tensor<4x8xi32>", ["arith.maxui"]),
        ("%r = linalg.elementwise <select> ins(%c, %x, %x : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>", ["arith.select"]),
    ],
)  # fmt: skip
def test_each_kind_has_mlirs_scalar_function(body: str, scalar_ops: list[str]) -> None:
    (op,) = _ops(body)
    assert [o.name for o in op.body.block.ops] == [*scalar_ops, "linalg.yield"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("%r = linalg.elementwise <abs> ins(%a : tensor<4x8xi32>) outs(%ei : tensor<4x8xi32>) -> tensor<4x8xi32>", "defined on floats, not i32"),
        ("%r = linalg.elementwise <div_unsigned> ins(%x, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>", "defined on integers, not f32"),
        ("%r = linalg.elementwise <add> ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>", "takes 2 inputs"),
    ],
)  # fmt: skip
def test_a_kind_on_operands_it_is_not_defined_for_is_a_parse_error(body: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        _ops(body)
