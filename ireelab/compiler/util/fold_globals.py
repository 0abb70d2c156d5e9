"""FoldGlobalsPass (`iree-util-fold-globals`): what module initialisation proves about globals.

Mirrors IREE's `Dialect/Util/Transforms/FoldGlobals.cpp`, which IREE runs at the end of global
optimisation (before dispatch regions form) and between most passes of the Stream stage.
ireelab runs it in those two places: in the Flow stage's global optimisation, and once after
EncodeHostTensorsPass, where the Stream stage first needs it. Four of its rules are modelled:

- a global that nothing stores, with an initial value of a value type (a tensor or a scalar),
  not mutable and carrying no attributes of other dialects (`inlineConstantGlobalLoads`) is
  that value: each load becomes an `arith.constant` of it (unless the global's inlining policy
  is `#util.inline.never`), and a private global nobody loads any more goes. This is how the
  weights an importer leaves in `util.global`s (ml_program globals after IREE's input
  conversion) become constants that dispatch region formation can clone (small ones) or
  OutlineConstantsPass turns back into `__constant_*` globals (large ones), as in IREE;
- a mutable global nothing stores is not mutable;
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
from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.stream.alloc_constants import host_block
from ireelab.compiler.stream.index_constants import IndexConstants
from ireelab.diagnostics import copy_location
from ireelab.dialects import builtin_resources, util


@dataclass
class _Accesses:
    loads: list[util.GlobalLoadOp] = field(default_factory=list)
    init_stores: list[util.GlobalStoreOp] = field(default_factory=list)
    other_stores: list[util.GlobalStoreOp] = field(default_factory=list)
    other_references: list[Operation] = field(default_factory=list)
    """Ops other than loads and stores naming the global (it may be reached indirectly)."""


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
        elif not isinstance(op, util.GlobalOp):
            for name in _referenced_symbols(op):
                found.setdefault(name, _Accesses()).other_references.append(op)
    return found


def _referenced_symbols(op: Operation) -> list[str]:
    return [
        value.root_reference.data
        for value in (*op.properties.values(), *op.attributes.values())
        if isinstance(value, SymbolRefAttr)
    ]


VALUE_TYPES = (TensorType, IntegerType, IndexType, AnyFloat)
"""Types IREE inlines a global's value of; reference types (devices, buffers) stay globals."""


def _inlinable_value(glob: util.GlobalOp, access: _Accesses) -> Attribute | None:
    """The initial value every load of `glob` reads, if IREE would inline it."""
    if access.init_stores or access.other_stores or access.other_references:
        return None
    if glob.is_mutable is not None or glob.initial_value is None or not access.loads:
        return None
    if isinstance(glob.inlining_policy, util.InlineNeverAttr):
        return None
    if any("." in key and not key.startswith("util.") for key in glob.attributes):
        return None
    if not isinstance(glob.type, VALUE_TYPES):
        return None
    value = glob.initial_value
    if isinstance(glob.type, TensorType):
        return value if builtin_resources.elements(value) is not None else None
    return value if isinstance(value, IntegerAttr | FloatAttr) else None


def _inline_constant_global(glob: util.GlobalOp, access: _Accesses) -> bool:
    value = _inlinable_value(glob, access)
    if value is None:
        return False
    for load in access.loads:
        constant = arith.ConstantOp(value, glob.type)
        constant.result.name_hint = load.result.name_hint
        copy_location(load, constant)
        Rewriter.replace_op(load, constant)
    if glob.sym_visibility is not None and glob.sym_visibility.data == "private":
        Rewriter.erase_op(glob)
    return True


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
        if glob.is_mutable is not None and not (access.init_stores or access.other_stores):
            glob.is_mutable = None  # nothing stores it: it is a constant (IREE's immutability rule)
        if _inline_constant_global(glob, access):
            continue
        if _fold_constant_global(glob, access) or access.other_stores:
            continue
        for load in access.loads:
            load.is_immutable = UnitAttr()


@dataclass(frozen=True)
class FoldGlobalsPass(ModulePass):
    """Inlines the values of constant globals, marks loads of initializer-only globals
    immutable."""

    name = "iree-util-fold-globals"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fold_globals(op)
