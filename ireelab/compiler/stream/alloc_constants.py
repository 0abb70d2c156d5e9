"""The host function's hoisted index constants, reached from an op nested anywhere in it."""

from __future__ import annotations

from xdsl.ir import Block, Operation, SSAValue

from ireelab.compiler.stream.index_constants import IndexConstants


def host_block(op: Operation) -> Block:
    """The entry block of the function (or other top-level op) that holds `op`."""
    while True:
        parent = op.parent_op()
        grandparent = parent.parent_op() if parent is not None else None
        if grandparent is None or grandparent.parent_op() is None:
            return op.parent_block()
        op = parent


def zero_in(op: Operation) -> SSAValue:
    return IndexConstants(host_block(op)).get(0)


def constant_in(op: Operation, value: int) -> SSAValue:
    return IndexConstants(host_block(op)).get(value)
