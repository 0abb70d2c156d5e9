"""`linalg.pack` / `linalg.unpack` in MLIR's full syntax: static tiles and tiles given as SSA
values (`inner_tiles = [%c8, 4]`) parse, verify and print back as written; the packed type's
tile dims are `?` where a tile is an SSA value."""

from __future__ import annotations

import pytest
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from ireelab.compiler.context import make_context
from ireelab.dialects.linalg_pack import PackOp, UnPackOp

MIXED = """
func.func @f(%a: tensor<?x?xi32>, %t: index, %d0: index, %d1: index) -> tensor<?x?xi32> {
  %pad = arith.constant 0 : i32
  %e = tensor.empty(%d0, %d1, %t) : tensor<?x?x?x4xi32>
  %p = linalg.pack %a padding_value(%pad : i32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [%t, 4] into %e : tensor<?x?xi32> -> tensor<?x?x?x4xi32>
  %u0 = tensor.empty(%d1, %d0) : tensor<?x?xi32>
  %u = linalg.unpack %p outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [%t, 4] into %u0 : tensor<?x?x?x4xi32> -> tensor<?x?xi32>
  return %u : tensor<?x?xi32>
}
"""


def _parse(text: str):
    module = Parser(make_context(), text).parse_module()
    module.verify()
    return module


def test_ssa_tiles_parse_and_print_back():
    module = _parse(MIXED)
    pack = next(op for op in module.walk() if isinstance(op, PackOp))
    unpack = next(op for op in module.walk() if isinstance(op, UnPackOp))
    for op in (pack, unpack):
        assert op.has_dynamic_tiles()
        assert len(op.inner_tiles) == 1
    printed = str(module)
    assert "inner_tiles = [%t, 4] into" in printed
    assert str(_parse(printed)) == printed


def test_static_tiles_print_as_before():
    module = _parse(MIXED.replace("[%t, 4]", "[8, 4]").replace("?x?x?x4", "?x?x8x4"))
    pack = next(op for op in module.walk() if isinstance(op, PackOp))
    assert not pack.has_dynamic_tiles()
    assert "inner_tiles = [8, 4] into" in str(module)


def test_a_static_tile_size_where_the_type_says_another_is_rejected():
    with pytest.raises(VerifyException, match="does not match the tiling"):
        _parse(MIXED.replace("?x?x?x4xi32>", "?x?x?x5xi32>"))
