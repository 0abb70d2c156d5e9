"""MLIR's EraseIdentityLinalgOp in ireelab's canonicalizer (`input/linalg_canonicalization.py`):
a `linalg.generic` on tensors whose maps are all the same and whose body only yields block
arguments is replaced by the operands it yields; anything else stays."""

from __future__ import annotations

import pytest

from ireelab.compiler.context import make_context
from ireelab.compiler.input.common import CanonicalizerPass
from ireelab.compiler.source import parse_source
from ireelab.compiler.trace import print_ir

ID = "affine_map<(d0, d1) -> (d0, d1)>"
T = "affine_map<(d0, d1) -> (d1, d0)>"


def _generic(name: str, maps: str, body: str, ins: str, out: str) -> str:
    return (
        f"  %{name} = linalg.generic {{indexing_maps = [{maps}], iterator_types = "
        f'["parallel", "parallel"]}} ins({ins}) outs({out}) {{\n'
        f"  ^bb0(%in: f32, %out: f32):\n{body}  }} -> {out.split(' : ')[1]}\n"
    )


def _canonicalized(body: str, result: str) -> str:
    source = (
        f"func.func @f(%a: tensor<4x4xf32>, %d: tensor<?x4xf32>) -> {result} {{\n"
        "  %e = tensor.empty() : tensor<4x4xf32>\n"
        f"{body}  func.return %r : {result}\n}}\n"
    )
    module = parse_source(source, "identity.mlir")
    CanonicalizerPass().apply(make_context(), module)
    return print_ir(module)


COPY = "    linalg.yield %in : f32\n"


@pytest.mark.parametrize(
    ("source", "replacement"),
    [
        ("%a : tensor<4x4xf32>", "func.return %a : tensor<4x4xf32>"),
        # a `?` input copied to a static result: the input, cast to the result's type
        ("%d : tensor<?x4xf32>", "tensor.cast %d : tensor<?x4xf32> to tensor<4x4xf32>"),
    ],
)
def test_a_copy_is_its_input(source, replacement):
    copy = _generic("r", f"{ID}, {ID}", COPY, source, "%e : tensor<4x4xf32>")
    ir = _canonicalized(copy, "tensor<4x4xf32>")
    assert "linalg.generic" not in ir
    assert replacement in ir


def test_a_transpose_a_computation_and_a_yield_of_a_value_stay():
    transpose = _generic("r", f"{T}, {ID}", COPY, "%a : tensor<4x4xf32>", "%e : tensor<4x4xf32>")
    assert "linalg.generic" in _canonicalized(transpose, "tensor<4x4xf32>")
    doubled = _generic(
        "r",
        f"{ID}, {ID}",
        "    %s = arith.addf %in, %in : f32\n    linalg.yield %s : f32\n",
        "%a : tensor<4x4xf32>",
        "%e : tensor<4x4xf32>",
    )
    assert "linalg.generic" in _canonicalized(doubled, "tensor<4x4xf32>")
