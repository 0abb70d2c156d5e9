"""CombineInitializersPass (`iree-util-combine-initializers`): one initializer for the module.

Mirrors IREE's `Dialect/Util/Transforms/CombineInitializers.cpp`, which the Stream stage runs
right after ConvertToStreamPass. ConvertToStreamPass gives every constant global its own
`util.initializer` (upload the value, store the resource); this pass moves the globals those
initializers touch up to where the first initializer was, keeping their order, and puts one
initializer after them that runs the bodies in module order. The point is what follows: all
the module's constants then sit in one block, so ScheduleAllocationPass makes one
`stream.resource.constants` of them and PackConstantsPass lays them all into one
`util.buffer.constant`, one read-only segment of the module file, as IREE's modules carry
their weights.

Only single-block initializers are combined (all ireelab makes); IREE also inlines
multi-block ones and materialises the initial values of other globals into the combined
initializer, which ireelab leaves on the globals (the same values at load time).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.diagnostics import copy_location
from ireelab.dialects import util


def _accessed_globals(initializer: util.InitializerOp) -> list[str]:
    """Globals the initializer loads or stores, in the order it first names them."""
    names: dict[str, None] = {}
    for op in initializer.walk():
        if isinstance(op, util.GlobalLoadOp | util.GlobalStoreOp):
            names.setdefault(op.global_.root_reference.data, None)
    return list(names)


def combine_initializers(module: ModuleOp) -> None:
    initializers = [op for op in module.body.block.ops if isinstance(op, util.InitializerOp)]
    if len(initializers) < 2 or any(len(i.body.blocks) != 1 for i in initializers):
        return
    touched = {name for i in initializers for name in _accessed_globals(i)}
    moved: list[Operation] = [
        op
        for op in module.body.block.ops
        if isinstance(op, util.GlobalOp) and op.sym_name.data in touched
    ]
    anchor: Operation = initializers[0]
    for glob in moved:
        if _is_before(anchor, glob):
            glob.detach()
            Rewriter.insert_op(glob, InsertPoint.before(anchor))
    combined = Block()
    for initializer in initializers:
        body = initializer.body.block
        for op in list(body.ops):
            if isinstance(op, util.ReturnOp):
                continue
            op.detach()
            combined.add_op(op)
    combined.add_op(util.ReturnOp())
    new = util.InitializerOp(Region(combined))
    copy_location(initializers[0], new)
    Rewriter.insert_op(new, InsertPoint.before(anchor))
    for initializer in initializers:
        Rewriter.erase_op(initializer)


def _is_before(a: Operation, b: Operation) -> bool:
    """`a` comes before `b` in their block."""
    return a.parent_block().get_operation_index(a) < b.parent_block().get_operation_index(b)


@dataclass(frozen=True)
class CombineInitializersPass(ModulePass):
    """Merges the module's initializers into one, after the globals they initialise."""

    name = "iree-util-combine-initializers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        combine_initializers(op)
