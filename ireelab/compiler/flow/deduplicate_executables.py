"""DeduplicateExecutablesPass (`iree-flow-deduplicate-executables`).

Mirrors IREE's Flow/Transforms/DeduplicateExecutables.cpp: executables whose contents are the
same up to symbol names (two same-shape matmuls, say) are merged into the first one; every
`flow.dispatch` is pointed at the survivor's export, and the duplicates are erased.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, SymbolRefAttr
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ireelab.dialects import flow

_OWN_NAMES = ("sym_name", "function_ref")
"""What may differ between two copies of one executable: its name, its exports' names and the
functions they refer to (blanked out in the fingerprint)."""


def fingerprint(executable: flow.ExecutableOp) -> tuple:
    """The executable's structure with its own symbol names and SSA name hints left out: for
    each op in order, its name, operands (by definition number), result types, properties,
    attributes, regions and successors. Attributes compare by value (floats by their bits), so
    two executables share a fingerprint exactly when their printed text would match with
    those names blanked; built without cloning or printing, so the pass stays cheap."""
    numbers: dict[object, int] = {}
    key: list[tuple] = []
    for op in executable.walk():
        blank = op is executable or isinstance(op, flow.ExecutableExportOp | func.FuncOp)
        blocks = [block for region in op.regions for block in region.blocks]
        for block in blocks:
            numbers[block] = len(numbers)
            for arg in block.args:
                numbers[arg] = len(numbers)
        key.append(
            (
                op.name,
                tuple(numbers.get(o, -1) for o in op.operands),
                tuple(r.type for r in op.results),
                _named(op.properties, blank),
                _named(op.attributes, blank),
                tuple(len(region.blocks) for region in op.regions),
                tuple(tuple(a.type for a in block.args) for block in blocks),
                tuple(numbers.get(b, -1) for b in op.successors),
            )
        )
        for result in op.results:
            numbers[result] = len(numbers)
    return tuple(key)


def _named(attributes: dict, blank: bool) -> tuple:
    return tuple(sorted((k, v) for k, v in attributes.items() if not (blank and k in _OWN_NAMES)))


def deduplicate(module: ModuleOp) -> None:
    survivors: dict[tuple, flow.ExecutableOp] = {}
    replaced: dict[str, SymbolRefAttr] = {}
    for executable in [o for o in module.body.block.ops if isinstance(o, flow.ExecutableOp)]:
        key = fingerprint(executable)
        if key not in survivors:
            survivors[key] = executable
            continue
        keeper = survivors[key]
        old_exports = [
            o for o in executable.body.block.ops if isinstance(o, flow.ExecutableExportOp)
        ]
        new_exports = [o for o in keeper.body.block.ops if isinstance(o, flow.ExecutableExportOp)]
        for old, new in zip(old_exports, new_exports, strict=True):
            replaced[f"{executable.sym_name.data}::{old.sym_name.data}"] = SymbolRefAttr(
                keeper.sym_name.data, [new.sym_name.data]
            )
        Rewriter.erase_op(executable)
    for dispatch in [o for o in module.walk() if isinstance(o, flow.DispatchOp)]:
        ref = dispatch.entry_point
        key = f"{ref.root_reference.data}::{ref.nested_references.data[0].data}"
        if key in replaced:
            dispatch.entry_points = ArrayAttr([replaced[key]])


@dataclass(frozen=True)
class DeduplicateExecutablesPass(ModulePass):
    name = "iree-flow-deduplicate-executables"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        deduplicate(op)
