"""Constant tensor globals as ConvertToStreamPass makes them: `util.global @X = dense<...>`
becomes a constant resource global, a size global and the initializer that uploads the value.

Part of IREE's ConvertToStream (Stream/Conversion/UtilToStream): globals holding tensors turn
into resource globals with their sizes. Here in its own module because two converters make
them: the pass itself for the program's constant globals, and `host_splat` for a 64-bit splat
constant it outlines.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, TensorType
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.rewriter import Rewriter

from ireelab.diagnostics import copy_location
from ireelab.dialects import builtin_resources, stream, util

CONSTANT = stream.ResourceType("constant")


def size_global_name(name: str) -> str:
    return f"{name}__size"


def is_constant_global(op: Operation) -> bool:
    return (
        isinstance(op, util.GlobalOp)
        and isinstance(op.type, TensorType)
        and builtin_resources.elements(op.initial_value) is not None
        and op.is_mutable is None
    )


def _global_affinity(op: util.GlobalOp, default: Attribute) -> Attribute:
    for key in ("stream.affinity", "stream.affinity.default"):
        if key in op.attributes:
            return op.attributes[key]
    return default


def convert_constant_global(op: util.GlobalOp, default_affinity_: Attribute) -> None:
    """`util.global @X = dense<...> : tensor<...>` -> a constant resource global, its size
    global and the initializer that uploads the value."""
    name = op.sym_name.data
    visibility = op.sym_visibility.data if op.sym_visibility is not None else None
    resource = util.GlobalOp(name, CONSTANT, visibility=visibility)
    size = util.GlobalOp(size_global_name(name), IndexType(), visibility=visibility)
    constant = stream.TensorConstantOp(
        op.initial_value, op.type, CONSTANT, _global_affinity(op, default_affinity_)
    )
    measured = stream.ResourceSizeOp(constant.result)
    body = Block(
        [
            constant,
            measured,
            util.GlobalStoreOp(constant.result, name),
            util.GlobalStoreOp(measured.result, size_global_name(name)),
            util.ReturnOp(),
        ]
    )
    initializer = util.InitializerOp(Region(body))
    for new in (resource, size, constant, initializer):
        copy_location(op, new)
    Rewriter.replace_op(op, [resource, size, initializer])
