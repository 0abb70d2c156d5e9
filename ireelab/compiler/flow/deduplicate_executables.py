"""DeduplicateExecutablesPass (`iree-flow-deduplicate-executables`).

Mirrors IREE's Flow/Transforms/DeduplicateExecutables.cpp: executables whose contents are the
same up to symbol names (two same-shape matmuls, say) are merged into the first one; every
`flow.dispatch` is pointed at the survivor's export, and the duplicates are erased.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ireelab.dialects import flow


def fingerprint(executable: flow.ExecutableOp) -> str:
    """The executable's text with its own symbol names and SSA name hints blanked out."""
    clone = executable.clone()
    clone.sym_name = StringAttr("exe")
    for op in clone.walk():
        for value in op.results:
            value.name_hint = None
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    arg.name_hint = None
        if isinstance(op, flow.ExecutableExportOp):
            op.sym_name = StringAttr("entry")
            op.function_ref = SymbolRefAttr("entry")
        elif isinstance(op, func.FuncOp):
            op.sym_name = StringAttr("entry")
    return str(clone)


def deduplicate(module: ModuleOp) -> None:
    survivors: dict[str, flow.ExecutableOp] = {}
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
