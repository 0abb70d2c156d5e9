"""ElideAsyncCopiesPass: drop `stream.async.clone`s nobody needs.

Mirrors IREE's `iree-stream-elide-async-copies` (Stream/Transforms/ElideAsyncCopies.cpp).
Async values have value semantics, so ConvertToStreamPass clones conservatively (every
`flow.tensor.reshape` became a clone). A clone is only needed when one side is later written
in place while the other is still read; in ireelab's async IR the in-place writers are the
ops tied to a target (`stream.async.update`, `stream.async.copy`, a dispatch with a tied
result; see `tied_storage`). A clone is replaced by its source when neither side is written
in place, or when the clone is the only user of a source made in this function (the source
is dead after it, so they may share storage; IREE's analysis proves this from last uses in
general, ireelab only for the single-use case).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ireelab.compiler.stream.tied_storage import written_in_place
from ireelab.dialects import stream

_FRESH = (
    stream.AsyncDispatchOp,
    stream.AsyncSplatOp,
    stream.AsyncAllocaOp,
    stream.AsyncSliceOp,
    stream.AsyncUpdateOp,
    stream.AsyncCopyOp,
    stream.AsyncFillOp,
    stream.AsyncCloneOp,
)
"""Producers of storage made inside this function (not an argument, import or constant)."""


def _source_dies_here(clone: stream.AsyncCloneOp) -> bool:
    """The clone is the last reader of a source made in this function: nobody can observe the
    source again, so the clone may take its storage (IREE's last-use analysis, for the case
    where the clone is the source's only use)."""
    source = clone.source
    return isinstance(source.owner, _FRESH) and source.has_one_use()


def _elidable(clone: stream.AsyncCloneOp) -> bool:
    if clone.source.type != clone.result.type:
        return False
    if _source_dies_here(clone):
        return True
    return not (written_in_place(clone.source) or written_in_place(clone.result))


@dataclass(frozen=True)
class ElideAsyncCopiesPass(ModulePass):
    """Replaces clones that no in-place write can observe with their source."""

    name = "iree-stream-elide-async-copies"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for clone in [o for o in op.walk() if isinstance(o, stream.AsyncCloneOp)]:
            if _elidable(clone):
                clone.result.replace_all_uses_with(clone.source)
                Rewriter.erase_op(clone)
