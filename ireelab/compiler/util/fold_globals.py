"""FoldGlobalsPass (`iree-util-fold-globals`): what module initialisation proves about globals.

Mirrors IREE's `Dialect/Util/Transforms/FoldGlobals.cpp`, which IREE runs between most passes
of the Stream stage (ireelab runs it once, after EncodeHostTensorsPass, where the Stream stage
first needs it). Two of its rules are modelled:

- a global that only initializers store never changes once the module is loaded: its loads
  become `util.global.load immutable`;
- a global that one initializer stores a constant into (the `@X__size` globals
  ConvertToStreamPass creates, once EncodeHostTensorsPass has computed the size) is that
  constant: its loads become the constant, and the global and its store go away.

IREE's other rules (renaming chains of globals, removing globals nobody loads, folding
equal globals together) are not modelled.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, UnitAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.stream.alloc_constants import host_block
from ireelab.compiler.stream.index_constants import IndexConstants
from ireelab.dialects import util


@dataclass
class _Accesses:
    loads: list[util.GlobalLoadOp] = field(default_factory=list)
    init_stores: list[util.GlobalStoreOp] = field(default_factory=list)
    other_stores: list[util.GlobalStoreOp] = field(default_factory=list)


def _in_initializer(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, util.InitializerOp):
        parent = parent.parent_op()
    return parent is not None


def _accesses(module: ModuleOp) -> dict[str, _Accesses]:
    found: dict[str, _Accesses] = {}
    for op in module.walk():
        if isinstance(op, util.GlobalLoadOp):
            found.setdefault(op.global_.root_reference.data, _Accesses()).loads.append(op)
        elif isinstance(op, util.GlobalStoreOp):
            entry = found.setdefault(op.global_.root_reference.data, _Accesses())
            (entry.init_stores if _in_initializer(op) else entry.other_stores).append(op)
    return found


def _stored_constant(access: _Accesses) -> arith.ConstantOp | None:
    """The constant a global always holds, if one initializer store is all that writes it."""
    if access.other_stores or len(access.init_stores) != 1:
        return None
    value = access.init_stores[0].value.owner
    return value if isinstance(value, arith.ConstantOp) else None


def _materialise(constant: arith.ConstantOp, load: util.GlobalLoadOp) -> None:
    """Replace `load` by the constant, at the top of its function (one per value)."""
    if isinstance(load.result.type, IndexType) and isinstance(constant.value, IntegerAttr):
        value = IndexConstants(host_block(load)).get(constant.value.value.data)
        load.result.replace_all_uses_with(value)
        Rewriter.erase_op(load)
        return
    clone = constant.clone()
    Rewriter.insert_op(clone, InsertPoint.before(load))
    Rewriter.replace_op(load, [], [clone.result])


def _fold_constant_global(glob: util.GlobalOp, access: _Accesses) -> bool:
    constant = _stored_constant(access)
    if constant is None or glob.sym_visibility is None or glob.sym_visibility.data != "private":
        return False
    for load in access.loads:
        _materialise(constant, load)
    Rewriter.erase_op(access.init_stores[0])
    if not constant.result.uses:
        Rewriter.erase_op(constant)
    Rewriter.erase_op(glob)
    return True


def fold_globals(module: ModuleOp) -> None:
    accesses = _accesses(module)
    for glob in [o for o in module.body.block.ops if isinstance(o, util.GlobalOp)]:
        access = accesses.get(glob.sym_name.data, _Accesses())
        if _fold_constant_global(glob, access) or access.other_stores:
            continue
        for load in access.loads:
            load.is_immutable = UnitAttr()


@dataclass(frozen=True)
class FoldGlobalsPass(ModulePass):
    """Marks loads of initializer-only globals immutable and inlines constant globals."""

    name = "iree-util-fold-globals"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fold_globals(op)
