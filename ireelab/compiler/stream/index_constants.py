"""Index constants hoisted to the top of a host function, one `arith.constant` per value.

The Stream stage turns sizes and offsets into numbers (static shapes); IREE's canonicalizer
leaves each such constant once, at the top of the function. Passes that need one ask here.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter


class IndexConstants:
    """`arith.constant N : index` values hoisted to the top of one block, one per value."""

    def __init__(self, block: Block):
        self.block = block
        self.values: dict[int, SSAValue] = {}
        for op in block.ops:
            if (
                isinstance(op, arith.ConstantOp)
                and isinstance(op.result.type, IndexType)
                and isinstance(op.value, IntegerAttr)
            ):
                self.values.setdefault(op.value.value.data, op.result)

    def get(self, value: int) -> SSAValue:
        found = self.values.get(value)
        if found is not None:
            self._hoist(found)
            return found
        const = arith.ConstantOp(IntegerAttr(value, IndexType()))
        const.result.name_hint = f"c{value}"
        Rewriter.insert_op(const, InsertPoint.at_start(self.block))
        self.values[value] = const.result
        return const.result

    def _hoist(self, value: SSAValue) -> None:
        """Move a reused constant found further down (a shape dimension of a later argument,
        say) into the leading run of constants, so it is defined before any use asked here."""
        const = value.owner
        for op in self.block.ops:
            if op is const:
                return
            if not isinstance(op, arith.ConstantOp):
                break
        const.detach()
        Rewriter.insert_op(const, InsertPoint.at_start(self.block))


def constant_value(value: SSAValue) -> int | None:
    """The integer an index/integer `arith.constant` holds, or None."""
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None
