"""PropagateTimepointsPass through host `scf.if` and `scf.while`: a resource crossing a
region boundary takes the timepoint it is ready at along with it.

Mirrors the region-branch part of IREE's `iree-stream-propagate-timepoints`
(PropagateTimepoints.cpp, `expandRegion` and the branch/yield expansion), as
`loop_timepoints.py` does for `scf.for`. IREE runs it on the CFG; ireelab's host control flow
is still structured here (SCFToControlFlowPass lowers it later), so the same rule is applied
to each region boundary:

- `scf.if`: each branch yields a resource with the timepoint of the execution that made it
  (the awaited resource itself, not the await), the `if` gets a `!stream.timepoint` result
  after the resource's size, and the host awaits that timepoint after the `if`, where the
  value is used. So a branch no longer blocks the host: iree-compile's
  `cf.br ^bb3(%result_0, %7 : !stream.resource<external>, !stream.timepoint)`.
- `scf.while`: the carried resources take a timepoint each into the `before` region, through
  `scf.condition` into the `after` region and the results, and back through its `scf.yield`.
  In each region the resource argument is used through a `stream.timepoint.await` on its
  timepoint argument, so the executes that capture it wait on that timepoint instead
  (`propagate`) and the await goes (ElideTimepointsPass), as in iree-compile's
  `^bb1(%6: !stream.resource<external>, %7: !stream.timepoint)` loop header; the loop's exit
  awaits the result's timepoint.

Resources whose timepoints are the same on every edge (one execution made both) share one
timepoint, as IREE's canonicalizer leaves them.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import scf
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.dialects import stream


def ready(value: SSAValue, before: Operation) -> tuple[SSAValue, SSAValue]:
    """(value to carry, timepoint it is ready at) for a value entering or leaving a region:
    an awaited resource itself and the await's timepoint, else an immediate timepoint."""
    owner = value.owner
    if isinstance(owner, stream.TimepointAwaitOp):
        return owner.resource_operands[value.index], owner.await_timepoint
    immediate = stream.TimepointImmediateOp()
    Rewriter.insert_op(immediate, InsertPoint.before(before))
    return value, immediate.result_timepoint


def resource_slots(values: Sequence[SSAValue]) -> list[int]:
    return [i for i, v in enumerate(values) if isinstance(v.type, stream.ResourceType)]


def layout(count: int, slots: list[int], keys: list[tuple]) -> list[tuple[str, int]]:
    """The values in order: each old one, and after a resource's size (the value after it)
    its timepoint, unless an earlier resource has the same timepoints (`keys`) and shares it."""
    entries: list[tuple[str, int]] = []
    seen: list[tuple] = []
    for index in range(count):
        entries.append(("old", index))
        if index - 1 in slots:
            k = slots.index(index - 1)
            if keys[k] not in seen:
                seen.append(keys[k])
                entries.append(("timepoint", k))
    return entries


def _shared(keys: list[tuple]) -> dict[int, int]:
    return {k: next(j for j, key in enumerate(keys) if key == keys[k]) for k in range(len(keys))}


def _expand_operands(
    terminator: Operation, values: list[SSAValue], slots: list[int], entries
) -> list[SSAValue]:
    """`values` (a terminator's) with each resource ready and its timepoint in place."""
    values = list(values)
    timepoints = []
    for slot in slots:
        values[slot], timepoint = ready(values[slot], terminator)
        timepoints.append(timepoint)
    return [values[i] if kind == "old" else timepoints[i] for kind, i in entries]


def expand_block(
    block: Block, slots: list[int], entries, shared: dict[int, int], skip: int = 0
) -> None:
    """Add the timepoint arguments (after the first `skip`, a loop's induction variable)
    and use each resource argument through an await on its timepoint (the executes
    capturing it then wait on the timepoint instead)."""
    position = {entry: i + skip for i, entry in enumerate(entries)}
    for i, (kind, _) in enumerate(entries):
        if kind == "timepoint":
            block.insert_arg(stream.TimepointType(), i + skip)
    for k, slot in enumerate(slots):
        arg = block.args[position[("old", slot)]]
        size = block.args[position[("old", slot + 1)]]
        timepoint = block.args[position[("timepoint", shared[k])]]
        awaited = stream.TimepointAwaitOp(timepoint, [arg], [size])
        Rewriter.insert_op(awaited, InsertPoint.at_start(block))
        arg.replace_uses_with_if(awaited.outputs[0], lambda use, a=awaited: use.operation is not a)


def await_results(old: Operation, new: Operation, slots: list[int], entries, shared) -> None:
    """After the op, each resource result is awaited on its timepoint where the host uses it."""
    position = {entry: i for i, entry in enumerate(entries)}
    after: dict[int, stream.TimepointAwaitOp] = {}
    for k, slot in enumerate(slots):
        after[slot] = stream.TimepointAwaitOp(
            new.results[position[("timepoint", shared[k])]],
            [new.results[position[("old", slot)]]],
            [new.results[position[("old", slot + 1)]]],
        )
    Rewriter.insert_op(list(after.values()), InsertPoint.after(old))
    for index, result in enumerate(old.results):
        if index in after:
            result.replace_all_uses_with(after[index].outputs[0])
        else:
            result.replace_all_uses_with(new.results[position[("old", index)]])


def _types(values: Sequence[SSAValue], entries) -> list:
    return [values[i].type if kind == "old" else stream.TimepointType() for kind, i in entries]


def _yield_key(terminator: Operation, slot: int) -> SSAValue:
    """The timepoint a yielded resource is ready at, if an await gives it (else a fresh
    immediate one, which no other resource shares)."""
    owner = terminator.operands[slot].owner
    if isinstance(owner, stream.TimepointAwaitOp):
        return owner.await_timepoint
    return terminator.operands[slot]


def propagate_through_if(op: scf.IfOp) -> None:
    slots = resource_slots(op.results)
    if not slots or not op.false_region.blocks:
        return
    yields = [op.true_region.block.last_op, op.false_region.block.last_op]
    keys = [tuple(_yield_key(y, slot) for y in yields) for slot in slots]
    entries = layout(len(op.results), slots, keys)
    shared = _shared(keys)
    for y in yields:
        operands = _expand_operands(y, list(y.operands), slots, entries)
        Rewriter.replace_op(y, scf.YieldOp(*operands))
    true_region = Rewriter.move_region_contents_to_new_regions(op.true_region)
    false_region = Rewriter.move_region_contents_to_new_regions(op.false_region)
    new = scf.IfOp(op.cond, _types(op.results, entries), true_region, false_region)
    Rewriter.insert_op(new, InsertPoint.before(op))
    await_results(op, new, slots, entries, shared)
    Rewriter.erase_op(op)


def propagate_through_while(op: scf.WhileOp) -> None:
    before, after = op.before_region.block, op.after_region.block
    condition, yield_op = before.last_op, after.last_op
    assert isinstance(condition, scf.ConditionOp) and isinstance(yield_op, scf.YieldOp)
    carried = resource_slots(op.arguments)
    passed = resource_slots(op.results)
    if not carried and not passed:
        return
    # no sharing across a loop: each carried resource has its own timepoint
    carried_entries = layout(len(op.arguments), carried, [(k,) for k in range(len(carried))])
    passed_entries = layout(len(op.results), passed, [(k,) for k in range(len(passed))])
    identity = {k: k for k in range(max(len(carried), len(passed)))}
    # the arguments first: a resource passed straight on is then the await of its argument,
    # which carries the argument's timepoint
    expand_block(before, carried, carried_entries, identity)
    expand_block(after, passed, passed_entries, identity)
    inits = _expand_operands(op, list(op.arguments), carried, carried_entries)
    yielded = _expand_operands(yield_op, list(yield_op.operands), carried, carried_entries)
    Rewriter.replace_op(yield_op, scf.YieldOp(*yielded))
    forwarded = _expand_operands(condition, list(condition.args), passed, passed_entries)
    Rewriter.replace_op(condition, scf.ConditionOp(condition.condition, *forwarded))
    before_region = Rewriter.move_region_contents_to_new_regions(op.before_region)
    after_region = Rewriter.move_region_contents_to_new_regions(op.after_region)
    new = scf.WhileOp(inits, _types(op.results, passed_entries), before_region, after_region)
    Rewriter.insert_op(new, InsertPoint.before(op))
    await_results(op, new, passed, passed_entries, identity)
    Rewriter.erase_op(op)


def propagate_through_branch(op: scf.IfOp | scf.WhileOp) -> None:
    if isinstance(op, scf.IfOp):
        propagate_through_if(op)
    else:
        propagate_through_while(op)
