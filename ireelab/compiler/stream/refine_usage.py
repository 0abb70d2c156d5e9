"""RefineUsagePass: give every `!stream.resource<*>` its lifetime.

Mirrors IREE's `iree-stream-refine-usage` (Stream/Transforms/RefineUsage.cpp, which runs a
dataflow analysis of how each resource is used). After ConvertToStreamPass every resource is
`<*>`, with casts at the program boundary. Here a resource that crosses the boundary (it comes
from a `stream.tensor.import` or goes to a `stream.tensor.export`) becomes `external`; every
other resource lives only inside one invocation and becomes `transient` (ScheduleAllocationPass
later packs transients into one slab). The boundary casts are then identities and vanish.
A copy of a `constant` resource (a large constant's global, see ConvertToStreamPass) that
nothing writes in place is only read, so it keeps the `constant` lifetime; the second
ElideAsyncCopiesPass then drops the copy and dispatches read the constant itself. Variable
lifetimes (mutable globals, parameters) are not produced by ireelab's front end.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ireelab.compiler.stream.loop_carried import linked_values
from ireelab.compiler.stream.tied_storage import tied_chain, tied_root, written_in_place
from ireelab.dialects import stream

EXTERNAL = stream.ResourceType("external")
TRANSIENT = stream.ResourceType("transient")
CONSTANT = stream.ResourceType("constant")
UNKNOWN = stream.ResourceType()


def _storage_group(value: SSAValue) -> list[SSAValue]:
    """`value`, every result tied to its storage (updates, copies, in-place dispatches), the
    value it is tied to, and, through host loops, every value carried in the same slot
    (`loop_carried`): these must all have one lifetime."""
    group: list[SSAValue] = []
    work = [value]
    while work:
        current = work.pop()
        for member in tied_chain(tied_root(current)):
            if member in group:
                continue
            group.append(member)
            work += [v for v in linked_values(member) if v not in group]
    return group


def _crosses_boundary(group: list[SSAValue]) -> bool:
    """Does the storage of the group reach the program boundary?"""
    return any(_at_boundary(v) for v in group)


def _at_boundary(value: SSAValue) -> bool:
    owner = value.owner
    if isinstance(owner, stream.AsyncCastOp) and owner.source.type == EXTERNAL:
        return True
    return any(
        isinstance(use.operation, stream.AsyncCastOp) and use.operation.result.type == EXTERNAL
        for use in value.uses
    )


def _read_only_copy_of_constant(value: SSAValue) -> bool:
    owner = value.owner
    if not isinstance(owner, stream.AsyncCloneOp) or owner.source.type != CONSTANT:
        return False
    return not written_in_place(value)


def _live(value: SSAValue) -> bool:
    """False for a value an earlier refinement already replaced."""
    if isinstance(value, OpResult):
        return value.op.results[value.index] is value
    if isinstance(value, BlockArgument):
        return value.block.args[value.index] is value
    return True


def _refine(value: SSAValue) -> None:
    """`value` is a result or block argument of type `<*>`; values carried with it by a
    host loop get the same lifetime."""
    if value.type != UNKNOWN or not _live(value):
        return
    group = _storage_group(value)
    if _crosses_boundary(group):
        lifetime = EXTERNAL
    elif len(group) == 1 and _read_only_copy_of_constant(value):
        lifetime = CONSTANT
    else:
        lifetime = TRANSIENT
    carried = [v for v in group if v is value or len(linked_values(v)) > 1]
    for member in [value, *[v for v in carried if v is not value]]:
        if member.type == UNKNOWN:
            Rewriter.replace_value_with_new_type(member, lifetime)


def _unknown_values(module: ModuleOp) -> list[SSAValue]:
    values: list[SSAValue] = []
    for op in module.walk():
        values.extend(r for r in op.results if r.type == UNKNOWN)
        for region in op.regions:
            for block in region.blocks:
                values.extend(a for a in block.args if a.type == UNKNOWN)
    return values


def _identity_casts(module: ModuleOp) -> list[Operation]:
    return [
        op
        for op in module.walk()
        if isinstance(op, stream.AsyncCastOp) and op.source.type == op.result.type
    ]


@dataclass(frozen=True)
class RefineUsagePass(ModulePass):
    """Assigns external/transient lifetimes and removes the now-identity casts."""

    name = "iree-stream-refine-usage"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for value in _unknown_values(op):
            _refine(value)
        for cast in _identity_casts(op):
            cast.result.replace_all_uses_with(cast.source)
            Rewriter.erase_op(cast)
