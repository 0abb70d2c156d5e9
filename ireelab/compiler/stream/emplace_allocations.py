"""EmplaceAllocationsPass: let producers write straight into the resource they update.

Mirrors IREE's `iree-stream-emplace-allocations` (Stream/Transforms/EmplaceAllocations.cpp):
when a dispatch's result is only used to overwrite a range of another resource
(`stream.async.update %r, %target[...]`), IREE ties the dispatch result to that range so the
dispatch writes in place and the copy disappears.

ireelab's ConvertToStreamPass produces no `stream.async.update` (host-side
`tensor.insert_slice` is rejected there) and does not model tied dispatch results, so there is
nothing to emplace: the pass finds the candidates IREE would rewrite and reports them as
unsupported instead of silently leaving a copy behind.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ireelab.diagnostics import CompileError
from ireelab.dialects import stream


def _emplace_candidates(module: ModuleOp) -> list[stream.AsyncUpdateOp]:
    return [
        op
        for op in module.walk()
        if isinstance(op, stream.AsyncUpdateOp)
        and isinstance(op.update.owner, stream.AsyncDispatchOp)
        and op.update.has_one_use()
    ]


@dataclass(frozen=True)
class EmplaceAllocationsPass(ModulePass):
    """Ties dispatch results to the update that consumes them (not modelled: see module doc)."""

    name = "iree-stream-emplace-allocations"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for update in _emplace_candidates(op):
            raise CompileError.at(
                update,
                "writing a dispatch result into part of another tensor in place is not supported yet",
                stage="stream",
            )
