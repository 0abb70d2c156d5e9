"""`IndexConstants` (stream/index_constants.py): a constant handed out is defined before every
op of the block it may be used by, even when the block already held it further down."""

from __future__ import annotations

import ireelab
from ireelab.compiler.context import make_context
from ireelab.compiler.stream.index_constants import IndexConstants

IR = """
func.func @f(%x: index) -> index {
  %a = arith.addi %x, %x : index
  %c4 = arith.constant 4 : index
  %b = arith.muli %a, %c4 : index
  func.return %b : index
}
"""


def _parse(text: str):
    from xdsl.parser import Parser

    return Parser(make_context(), text).parse_module()


def test_reused_constant_moves_to_the_top():
    module = _parse(IR)
    block = module.body.block.first_op.body.block
    constants = IndexConstants(block)
    four = constants.get(4)
    assert block.first_op is four.owner  # hoisted above %a, so an early use is dominated
    assert constants.get(4) is four and constants.get(0) is block.first_op.result
    names = [op.name for op in block.ops]
    assert names.count("arith.constant") == 2


def test_new_constants_go_first_and_existing_leading_ones_stay():
    module = _parse(
        IR.replace("%a = arith.addi %x, %x : index\n  %c4", "%c4").replace("%a, %c4", "%x, %c4")
    )
    block = module.body.block.first_op.body.block
    before = [op.name for op in block.ops]
    IndexConstants(block).get(4)
    assert [op.name for op in block.ops] == before


SIZE_EQUALS_LATER_DIM = """
func.func @f(%a: tensor<1xf32>, %b: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = arith.addf %b, %b : tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
"""


def test_byte_size_equal_to_a_later_shape_dimension_is_defined_first():
    # tensor<1xf32> is 4 bytes; the second argument's shape check defines %c4 later on
    # (checked where EncodeHostTensors sized the import: the unused import is dead code that
    # the CSE after PackDispatchOperands drops, as IREE's cleanup does)
    module = ireelab.compile(SIZE_EQUALS_LATER_DIM, compile_to="stream")
    text = module.trace.find("EncodeHostTensorsPass")[-1].ir
    body = text[text.index("util.func public @f") :]
    assert body.index("%c4 = arith.constant 4 : index") < body.index("{%c4}")
