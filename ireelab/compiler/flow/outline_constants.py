"""OutlineConstantsPass (`iree-flow-outline-constants`).

Mirrors IREE's Flow/Transforms/OutlineConstants.cpp. It runs at the end of the Flow stage, after
dispatch regions are outlined: every dense tensor constant still in host code (the ones too
large to clone into a dispatch, see `--iree-flow-inline-constants-max-byte-length`) becomes an
immutable module global

    util.global private @__constant_tensor_64x64xf32 <inlining_policy = #util.inline.never>
        {stream.affinity.default = #hal.device.affinity<@__device_0>} = dense<...> : tensor<64x64xf32>

placed just before the function that used it, and the constant becomes
`util.global.load immutable @__constant_tensor_64x64xf32`. The Stream stage turns such globals
into constant resources uploaded once at module initialisation. Splats are left alone (they
stay cheap to recreate); constants inside executables are never touched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab import diagnostics
from ireelab.compiler.flow.structured import is_splat
from ireelab.dialects import builtin_resources, util

HOISTABLE_ATTRIBUTES = ("stream.affinity", "stream.affinity.default")
"""Attributes IREE's `HoistableAttrInterface` carries from a constant's ancestors to its global:
where the data should live."""


def is_outlinable(op: Operation) -> bool:
    """A dense or `dense_resource`, non-splat `arith.constant` (the global keeps the
    attribute as written: a resource stays a handle to its blob)."""
    if not isinstance(op, arith.ConstantOp):
        return False
    value = builtin_resources.elements(op.value)
    return value is not None and not is_splat(value)


def constant_name(op: arith.ConstantOp) -> str:
    """`__constant_` + the printed type with every non-identifier character made `_`."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", f"__constant_{op.result.type}")
    return name.rstrip("_") if name.endswith("_") else name


def hoistable_attributes(op: Operation) -> dict[str, Attribute]:
    """The nearest value of each hoistable attribute on `op` or its ancestors."""
    found: dict[str, Attribute] = {}
    current: Operation | None = op
    while current is not None:
        for key in HOISTABLE_ATTRIBUTES:
            if key in current.attributes and key not in found:
                found[key] = current.attributes[key]
        current = current.parent_op()
    return found


def _unique(name: str, taken: set[str]) -> str:
    """MLIR's symbol-table uniquing: `name`, else `name_0`, `name_1`, ..."""
    if name not in taken:
        return name
    suffix = 0
    while f"{name}_{suffix}" in taken:
        suffix += 1
    return f"{name}_{suffix}"


def _top_level_parent(op: Operation, module: ModuleOp) -> Operation:
    while op.parent_op() is not module:
        op = op.parent_op()
    return op


def outline_constants(module: ModuleOp) -> None:
    taken = {
        o.sym_name.data for o in module.body.block.ops if getattr(o, "sym_name", None) is not None
    }
    callables = [o for o in module.body.block.ops if isinstance(o, util.FuncOp | func.FuncOp)]
    constants = [o for fn in callables for o in fn.walk() if is_outlinable(o)]
    for constant in constants:
        name = _unique(constant_name(constant), taken)
        taken.add(name)
        global_op = util.GlobalOp(name, constant.result.type, constant.value)
        global_op.inlining_policy = util.InlineNeverAttr()
        global_op.attributes.update(hoistable_attributes(constant))
        diagnostics.copy_location(constant, global_op)
        anchor = _top_level_parent(constant, module)
        Rewriter.insert_op(global_op, InsertPoint.before(anchor))
        load = util.GlobalLoadOp(name, constant.result.type, immutable=True)
        load.result.name_hint = name
        diagnostics.copy_location(constant, load)
        Rewriter.replace_op(constant, load)


@dataclass(frozen=True)
class OutlineConstantsPass(ModulePass):
    """Move large host tensor constants into immutable `util.global`s."""

    name = "iree-flow-outline-constants"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        outline_constants(op)
