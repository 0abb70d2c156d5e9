"""Dispatch sites and the dispatch functions they call.

IREE's dispatch-interface passes (FuseDispatchBindings, PackDispatchOperands,
FoldUniformOperands) rewrite both sides of a dispatch at once: every `stream.cmd.dispatch`
of an export and the `func.func` inside its `stream.executable`. This finds the pairs.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    ModuleOp,
)

from ireelab.diagnostics import CompileError
from ireelab.dialects import stream


def _function(module: ModuleOp, exe_name: str, export_name: str) -> func.FuncOp:
    for exe in module.body.block.ops:
        if not isinstance(exe, stream.ExecutableOp) or exe.sym_name.data != exe_name:
            continue
        target = export_name
        for op in exe.body.block.ops:
            if isinstance(op, stream.ExecutableExportOp) and op.sym_name.data == export_name:
                target = op.function_ref.root_reference.data
        for op in exe.walk():
            if isinstance(op, func.FuncOp) and op.sym_name.data == target:
                return op
    raise CompileError(f"dispatch of @{exe_name}::@{export_name}: no such dispatch function")


def dispatch_sites(module: ModuleOp) -> list[tuple[func.FuncOp, list[stream.CmdDispatchOp]]]:
    """Each dispatch function with all the `stream.cmd.dispatch` ops that call it."""
    groups: dict[tuple[str, str], list[stream.CmdDispatchOp]] = {}
    for op in module.walk():
        if isinstance(op, stream.CmdDispatchOp):
            ref = op.entry_point
            key = (ref.root_reference.data, ref.nested_references.data[0].data)
            groups.setdefault(key, []).append(op)
    return [(_function(module, *key), sites) for key, sites in groups.items()]


def set_function_type(fn: func.FuncOp) -> None:
    fn.function_type = FunctionType.from_lists(
        [a.type for a in fn.body.block.args], list(fn.function_type.outputs.data)
    )


def annotate_alignment(fn: func.FuncOp, alignment: int) -> None:
    """`{stream.alignment = N : index}` on every binding argument (IREE's
    AnnotateDispatchArgumentsPass records what the allocator guarantees)."""
    attrs = []
    for arg in fn.body.block.args:
        if isinstance(arg.type, stream.BindingType):
            attrs.append(DictionaryAttr({"stream.alignment": IntegerAttr(alignment, IndexType())}))
        else:
            attrs.append(DictionaryAttr({}))
    fn.arg_attrs = ArrayAttr(attrs)
