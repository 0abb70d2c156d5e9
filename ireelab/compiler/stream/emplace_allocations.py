"""EmplaceAllocationsPass: let a dispatch write straight into the range an update copies to.

Mirrors IREE's `iree-stream-emplace-allocations` (Stream/Transforms/EmplaceAllocations.cpp):
when a dispatch result is only used to overwrite a range of another resource,

    %d = stream.async.dispatch @ex::@fn(%a[%c0 to %c32 for %c32]) : (...) -> !stream.resource<*>{%c32}
    %u = stream.async.update %d, %t[%c0 to %c32] : !stream.resource<*>{%c32} -> %t as !stream.resource<*>{%c80}

the target range becomes one more operand of the dispatch and its result is tied to it, so
the dispatch writes in place and the copy disappears:

    %u = stream.async.dispatch @ex::@fn(%a[%c0 to %c32 for %c32], %t[%c0 to %c32 for %c32])
           : (!stream.resource<*>{%c32}, !stream.resource<*>{%c80}) -> %t{%c80}

(a `tensor.concat` on the outer dimension of a computed tensor). The dispatch moves down to
the update if the target is defined after it. ireelab emplaces single-result dispatches (the
appended operand then binds where the result did); other updates stay copies.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.stream.tied_storage import tied_root
from ireelab.dialects import stream


def _emplaceable(update: stream.AsyncUpdateOp) -> stream.AsyncDispatchOp | None:
    dispatch = update.update.owner
    if not isinstance(dispatch, stream.AsyncDispatchOp) or not update.update.has_one_use():
        return None
    if len(dispatch.outputs) != 1 or dispatch.tied()[0] >= 0:
        return None
    if dispatch.parent_block() is not update.parent_block():
        return None
    target = tied_root(update.target)
    if any(tied_root(v) is target for v in dispatch.resource_operands):
        return None  # the dispatch reads the storage it would write
    return dispatch


def emplace(update: stream.AsyncUpdateOp, dispatch: stream.AsyncDispatchOp) -> None:
    """Replace `update` by `dispatch` writing into the update's target range."""
    ranges = [(offset, end, length) for _, _, offset, end, length in dispatch.resource_ranges()]
    new = stream.AsyncDispatchOp(
        dispatch.entry_point,
        [*dispatch.resource_operands, update.target],
        [*dispatch.resource_operand_sizes, update.target_size],
        [*ranges, (update.target_offset, update.target_end, update.update_size)],
        [update.result.type],
        [update.target_size],
        dispatch.affinity,
        list(dispatch.workload),
        [len(dispatch.resource_operands)],
    )
    new.attributes.update(dispatch.attributes)
    Rewriter.insert_op(new, InsertPoint.before(update))
    update.result.replace_all_uses_with(new.outputs[0])
    Rewriter.erase_op(update)
    Rewriter.erase_op(dispatch)


def _updates(module: ModuleOp) -> list[stream.AsyncUpdateOp]:
    return [op for op in module.walk() if isinstance(op, stream.AsyncUpdateOp)]


@dataclass(frozen=True)
class EmplaceAllocationsPass(ModulePass):
    """Ties a dispatch result to the update range that consumes it."""

    name = "iree-stream-emplace-allocations"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for update in _updates(op):
            dispatch = _emplaceable(update)
            if dispatch is not None:
                emplace(update, dispatch)
