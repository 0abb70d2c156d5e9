"""Where a resource value's byte size lives, whatever op produced it.

IREE's stream ops carry the size of every resource beside it (`!stream.resource<*>{%size}`);
its `SizeAwareOpInterface` answers "what is the size of this value". This is that query for
the ops ireelab's Stream stage produces, shared by the scheduling and allocation passes.
"""

from __future__ import annotations

from xdsl.ir import BlockArgument, SSAValue

from ireelab.compiler.stream.loop_carried import carried_size
from ireelab.diagnostics import CompileError
from ireelab.dialects import stream


def _region_arg_size(arg: BlockArgument) -> SSAValue:
    carried = carried_size(arg)
    if carried is not None:
        return carried
    owner = arg.block.parent_op()
    sizes = getattr(owner, "resource_operand_sizes", None)
    if sizes is None:
        raise CompileError.at(
            owner, f"cannot tell the size of a region argument of {owner.name}", "stream"
        )
    return sizes[arg.index]


def size_of(value: SSAValue) -> SSAValue:
    """The index value holding the byte size of resource `value`."""
    if isinstance(value, BlockArgument):
        return _region_arg_size(value)
    op = value.owner
    index = value.index
    carried = carried_size(value)
    if carried is not None:
        return carried
    match op:
        case stream.TensorImportOp():
            return op.result_size
        case stream.AsyncDispatchOp():
            return op.result_sizes[index]
        case stream.AsyncExecuteOp() | stream.AsyncConcurrentOp():
            return op.result_sizes[index]
        case stream.TimepointAwaitOp():
            return op.resource_operand_sizes[index]
        case stream.AsyncCloneOp() | stream.AsyncCastOp() | stream.AsyncTransferOp():
            return op.result_size
        case stream.AsyncSplatOp() | stream.AsyncSliceOp():
            return op.result_size
        case stream.AsyncAllocaOp() | stream.ResourceAllocaOp():
            return op.storage_size
        case stream.AsyncUpdateOp() | stream.AsyncCopyOp() | stream.AsyncFillOp():
            return op.target_size
        case stream.ResourceSubviewOp():
            return op.result_size
    recorded = _size_recorded_by_a_user(value)
    if recorded is not None:
        return recorded
    raise CompileError.at(op, f"cannot tell the size of a resource made by {op.name}", "stream")


def _size_recorded_by_a_user(value: SSAValue) -> SSAValue | None:
    """A resource loaded from a global carries no size; its users record it beside it (as
    IREE's `SizeAwareOpInterface` queries look at users too)."""
    for use in value.uses:
        user = use.operation
        if isinstance(user, stream.AsyncDispatchOp):
            for operand, size, *_ in user.resource_ranges():
                if operand is value:
                    return size
        elif isinstance(
            user,
            stream.AsyncCloneOp
            | stream.AsyncTransferOp
            | stream.AsyncCastOp
            | stream.AsyncSliceOp
            | stream.TensorExportOp,
        ):
            if user.source is value:
                return user.source_size
        elif isinstance(user, stream.AsyncUpdateOp) and user.update is value:
            return user.update_size
    return None
