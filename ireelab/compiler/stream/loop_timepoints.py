"""PropagateTimepointsPass through host `scf.for` loops: each carried resource gets the
timepoint it is ready at carried beside it.

Mirrors the region part of IREE's `iree-stream-propagate-timepoints`
(PropagateTimepoints.cpp, `expandRegion` / `expandTimepointOps`): a loop that carries a
resource also carries a `!stream.timepoint` for it (placed in its `iter_args` after the
resource and size pair ConvertToStreamPass made), so the host never waits inside the loop:

- the initial timepoint is that of the `stream.timepoint.await` the initial value comes
  from (the loop then takes the awaited resource itself), or `stream.timepoint.immediate`;
- in the body the resource argument is used through a `stream.timepoint.await` on the
  timepoint argument; the executes that capture it then wait on that timepoint instead
  (`propagate`), and the await goes (ElideTimepointsPass drops it unused);
- the body yields the resource and the timepoint of the execute that made it;
- the timepoint follows the resource and its size; resources made by one execution (the
  same initial and yielded timepoints) share one, as IREE's canonicalizer leaves them;
- after the loop, the result is awaited on the carried timepoint where the host uses it.

So iteration i+1's execution waits on iteration i's on the device queue, as in IREE's
`^bb1(%i: index, %r: !stream.resource<external>, %tp: !stream.timepoint)` loop header.
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.dialects import stream


def _ready(value: SSAValue, before: Operation) -> tuple[SSAValue, SSAValue]:
    """(value to carry, timepoint it is ready at) for a value entering or leaving a loop."""
    owner = value.owner
    if isinstance(owner, stream.TimepointAwaitOp):
        return owner.resource_operands[value.index], owner.await_timepoint
    immediate = stream.TimepointImmediateOp()
    Rewriter.insert_op(immediate, InsertPoint.before(before))
    return value, immediate.result_timepoint


def _resource_slots(loop: scf.ForOp) -> list[int]:
    return [i for i, v in enumerate(loop.iter_args) if isinstance(v.type, stream.ResourceType)]


def _layout(loop: scf.ForOp, slots: list[int], pairs: list[tuple]) -> list[tuple[str, int]]:
    """The new carried values in order: each old one, and after a resource's size its
    timepoint - unless an earlier resource has the same initial and yielded timepoints (one
    execution made both), which it then shares, as IREE's canonicalizer folds them."""
    layout: list[tuple[str, int]] = []
    seen: list[tuple] = []
    for index in range(len(loop.iter_args)):
        layout.append(("old", index))
        if index - 1 in slots:
            k = slots.index(index - 1)
            if pairs[k] not in seen:
                seen.append(pairs[k])
                layout.append(("timepoint", k))
    return layout


def propagate_through_loop(loop: scf.ForOp) -> None:
    slots = _resource_slots(loop)
    if not slots:
        return
    block = loop.body.block
    yield_op = block.last_op
    assert isinstance(yield_op, scf.YieldOp)
    inits, yielded, pairs = list(loop.iter_args), list(yield_op.arguments), []
    for slot in slots:
        inits[slot], init_timepoint = _ready(inits[slot], loop)
        yielded[slot], yielded_timepoint = _ready(yielded[slot], yield_op)
        pairs.append((init_timepoint, yielded_timepoint))
    layout = _layout(loop, slots, pairs)
    shared = {k: next(j for j, p in enumerate(pairs) if p == pairs[k]) for k in range(len(slots))}
    position = {entry: i for i, entry in enumerate(layout)}

    def value(entry, olds, pair_index):
        kind, i = entry
        return olds[i] if kind == "old" else pairs[i][pair_index]

    Rewriter.replace_op(yield_op, scf.YieldOp(*[value(e, yielded, 1) for e in layout]))
    for i, (kind, _) in enumerate(layout):
        if kind == "timepoint":
            block.insert_arg(stream.TimepointType(), i + 1)
    for k, slot in enumerate(slots):
        arg = block.args[position[("old", slot)] + 1]
        size = block.args[position[("old", slot + 1)] + 1]
        timepoint = block.args[position[("timepoint", shared[k])] + 1]
        awaited = stream.TimepointAwaitOp(timepoint, [arg], [size])
        Rewriter.insert_op(awaited, InsertPoint.at_start(block))
        arg.replace_uses_with_if(awaited.outputs[0], lambda use, a=awaited: use.operation is not a)
    body = Rewriter.move_region_contents_to_new_regions(loop.body)
    new = scf.ForOp(loop.lb, loop.ub, loop.step, [value(e, inits, 0) for e in layout], body)
    Rewriter.insert_op(new, InsertPoint.before(loop))
    after = {}
    for k, slot in enumerate(slots):
        after[slot] = stream.TimepointAwaitOp(
            new.results[position[("timepoint", shared[k])]],
            [new.results[position[("old", slot)]]],
            [new.results[position[("old", slot + 1)]]],
        )
    Rewriter.insert_op(list(after.values()), InsertPoint.after(loop))
    for index, old in enumerate(loop.results):
        if index in after:
            old.replace_all_uses_with(after[index].outputs[0])
        else:
            old.replace_all_uses_with(new.results[position[("old", index)]])
    Rewriter.erase_op(loop)
