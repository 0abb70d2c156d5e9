"""JitGlobalsPass (`iree-consteval-jit-globals`): constant expressions evaluated at compile time.

IREE's const-eval (ConstEval/JitGlobals.cpp) compiles the initializers of hoisted constant
expressions, runs them, and stores the results as constants, so work that depends only on
constants (above all the packing of constant weights that data tiling creates) never runs at
run time. ireelab evaluates the layout ops data tiling creates: a `linalg.pack` of a constant
tensor (dense or `dense_resource`, outside dispatches) becomes the packed constant, computed
with numpy (pad, split each tiled dim, transpose). Other constant expressions are not
evaluated yet; they run in dispatches as before.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
)
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ireelab.compiler.flow.dispatch_utils import is_outside_dispatch
from ireelab.diagnostics import copy_location
from ireelab.dialects import builtin_resources
from ireelab.dialects.linalg_pack import PackOp

_FLOATS = {16: np.float16, 32: np.float32, 64: np.float64}
_INTS = {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}


def _dtype(element) -> np.dtype | None:
    width = getattr(element, "bitwidth", None)
    if isinstance(element, IntegerType):
        return _INTS.get(width)
    return _FLOATS.get(width) if width is not None else None


def _constant_array(op: PackOp) -> np.ndarray | None:
    owner = op.source.owner
    if not isinstance(owner, arith.ConstantOp):
        return None
    dense = builtin_resources.elements(owner.value)
    dtype = _dtype(op.source.type.element_type)
    if dense is None or dtype is None or op.source.type.element_type == IntegerType(1):
        return None
    values = np.frombuffer(dense.data.data, dtype=dtype)
    shape = op.source.type.get_shape()
    if values.size == 1:
        return np.full(shape, values[0], dtype=dtype)
    return values.reshape(shape)


def _padding(op: PackOp, dtype) -> object:
    if op.padding_value is None:
        return 0
    owner = op.padding_value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, FloatAttr | IntegerAttr):
        return owner.value.value.data
    return None


def pack_array(op: PackOp, source: np.ndarray, pad) -> np.ndarray:
    """`linalg.pack` semantics on a numpy array."""
    tiles = op.tiles()
    shape = source.shape
    full = [-(-s // tiles[d]) * tiles[d] if d in tiles else s for d, s in enumerate(shape)]
    padded = np.full(full, pad, dtype=source.dtype)
    padded[tuple(slice(0, s) for s in shape)] = source
    split: list[int] = []
    outer_axis: dict[int, int] = {}
    inner_axis: dict[int, int] = {}
    for d, size in enumerate(full):
        outer_axis[d] = len(split)
        if d in tiles:
            split += [size // tiles[d], tiles[d]]
            inner_axis[d] = len(split) - 1
        else:
            split.append(size)
    order = [outer_axis[d] for d in op.outer_perm()]
    order += [inner_axis[d] for d in op.inner_dims_pos.get_values()]
    return np.ascontiguousarray(padded.reshape(split).transpose(order))


def fold_constant_pack(op: PackOp) -> bool:
    source = _constant_array(op)
    if source is None:
        return False
    pad = _padding(op, source.dtype)
    if pad is None:
        return False
    packed = pack_array(op, source, pad)
    attr = DenseIntOrFPElementsAttr(op.result.type, BytesAttr(packed.tobytes()))
    constant = arith.ConstantOp(attr, op.result.type)
    copy_location(op, constant)
    Rewriter.replace_op(op, constant)
    return True


@dataclass(frozen=True)
class JitGlobalsPass(ModulePass):
    name = "iree-consteval-jit-globals"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for pack in [o for o in op.walk() if isinstance(o, PackOp) and is_outside_dispatch(o)]:
            fold_constant_pack(pack)
