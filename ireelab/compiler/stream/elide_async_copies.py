"""ElideAsyncCopiesPass: drop `stream.async.clone`s nobody needs.

Mirrors IREE's `iree-stream-elide-async-copies` (Stream/Transforms/ElideAsyncCopies.cpp).
Async values have value semantics, so ConvertToStreamPass clones conservatively (every
`flow.tensor.reshape` became a clone). A clone is only needed when one side is later written
in place while the other is still read; in ireelab's async IR the only in-place writers are
the ops tied to a target (`stream.async.update`, `stream.async.copy`). A clone whose source
and result are never such a target is replaced by its source. (IREE's analysis also proves
clones safe when the in-place write is the source's last use; that refinement is missing.)
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ireelab.dialects import stream

_IN_PLACE = (stream.AsyncUpdateOp, stream.AsyncCopyOp)


def _written_in_place(value: SSAValue) -> bool:
    return any(
        (isinstance(use.operation, _IN_PLACE) and use.operation.target is value)
        or _tied_dispatch_operand(use.operation, value)
        for use in value.uses
    )


def _tied_dispatch_operand(op, value: SSAValue) -> bool:
    """A dispatch whose result is tied to `value` writes it in place."""
    if not isinstance(op, stream.AsyncDispatchOp):
        return False
    return any(t >= 0 and op.resource_operands[t] is value for t in op.tied())


def _elidable(clone: stream.AsyncCloneOp) -> bool:
    if clone.source.type != clone.result.type:
        return False
    return not (_written_in_place(clone.source) or _written_in_place(clone.result))


@dataclass(frozen=True)
class ElideAsyncCopiesPass(ModulePass):
    """Replaces clones that no in-place write can observe with their source."""

    name = "iree-stream-elide-async-copies"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for clone in [o for o in op.walk() if isinstance(o, stream.AsyncCloneOp)]:
            if _elidable(clone):
                clone.result.replace_all_uses_with(clone.source)
                Rewriter.erase_op(clone)
