"""Reading a program: repeated shaped types and affine maps are parsed once per file
(`compiler/source.py`), and the module read is the one xDSL's own parser reads."""

from __future__ import annotations

import pytest
from xdsl.parser import Parser

from ireelab.compiler.context import make_context
from ireelab.compiler.source import parse_source
from ireelab.compiler.trace import print_ir
from ireelab.diagnostics import CompileError

_LAYER = """
  %e{i} = tensor.empty() : tensor<8x?xf32>
  %g{i} = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
      affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}}
      ins(%x, %b : tensor<8x?xf32>, tensor<?xf32>) outs(%e{i} : tensor<8x?xf32>) {{
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    linalg.yield %s : f32
  }} -> tensor<8x?xf32>
"""


def _program(layers: int, element: str = "f32") -> str:
    body = "".join(_LAYER.format(i=i) for i in range(layers))
    head = f"func.func @f(%x: tensor<8x?x{element}>, %b: tensor<?xf32>) -> tensor<8x?xf32> {{"
    return f"{head}{body}  return %g{layers - 1} : tensor<8x?xf32>\n}}\n"


def test_repeated_spellings_read_as_xdsl_reads_them():
    text = _program(4)
    ours = parse_source(text, "memo.mlir")
    theirs = Parser(make_context(), text).parse_module()
    assert print_ir(ours) == print_ir(theirs)
    generics = [op for op in ours.walk() if op.name == "linalg.generic"]
    maps = [g.indexing_maps for g in generics]
    assert len(generics) == 4 and all(m == maps[0] for m in maps)


def test_an_error_after_a_remembered_spelling_is_located():
    # `tensor<8x?xf32>` is remembered by then; the misspelt element type is still reported
    # where it is written.
    text = _program(2).replace(
        "%e1 = tensor.empty() : tensor<8x?xf32>", "%e1 = tensor.empty() : tensor<8x?xf33>"
    )
    with pytest.raises(CompileError) as info:
        parse_source(text, "memo_bad.mlir")
    assert info.value.location is not None
    assert (
        info.value.location.line
        == text.splitlines().index(next(line for line in text.splitlines() if "xf33" in line)) + 1
    )
