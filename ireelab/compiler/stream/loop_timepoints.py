"""PropagateTimepointsPass through host `scf.for` loops: each carried resource gets the
timepoint it is ready at carried beside it.

Mirrors the region part of IREE's `iree-stream-propagate-timepoints`
(PropagateTimepoints.cpp, `expandRegion` / `expandTimepointOps`): a loop that carries a
resource also carries a `!stream.timepoint` for it (appended to its `iter_args`, after the
resource and size pairs ConvertToStreamPass made), so the host never waits inside the loop:

- the initial timepoint is that of the `stream.timepoint.await` the initial value comes
  from (the loop then takes the awaited resource itself), or `stream.timepoint.immediate`;
- in the body the resource argument is used through a `stream.timepoint.await` on the
  timepoint argument; the executes that capture it then wait on that timepoint instead
  (`propagate`), and the await goes (ElideTimepointsPass drops it unused);
- the body yields the resource and the timepoint of the execute that made it;
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


def propagate_through_loop(loop: scf.ForOp) -> None:
    slots = _resource_slots(loop)
    if not slots:
        return
    block = loop.body.block
    yield_op = block.last_op
    assert isinstance(yield_op, scf.YieldOp)
    inits, init_timepoints = list(loop.iter_args), []
    for slot in slots:
        inits[slot], timepoint = _ready(inits[slot], loop)
        init_timepoints.append(timepoint)
    yielded, yielded_timepoints = list(yield_op.arguments), []
    for slot in slots:
        yielded[slot], timepoint = _ready(yielded[slot], yield_op)
        yielded_timepoints.append(timepoint)
    Rewriter.replace_op(yield_op, scf.YieldOp(*yielded, *yielded_timepoints))
    for slot in slots:
        arg = block.args[slot + 1]
        timepoint = block.insert_arg(stream.TimepointType(), len(block.args))
        awaited = stream.TimepointAwaitOp(timepoint, [arg], [block.args[slot + 2]])
        Rewriter.insert_op(awaited, InsertPoint.at_start(block))
        arg.replace_uses_with_if(awaited.outputs[0], lambda use, a=awaited: use.operation is not a)
    body = Rewriter.move_region_contents_to_new_regions(loop.body)
    new = scf.ForOp(loop.lb, loop.ub, loop.step, [*inits, *init_timepoints], body)
    Rewriter.insert_op(new, InsertPoint.before(loop))
    carried = len(loop.results)
    after = []
    for k, slot in enumerate(slots):
        size = new.results[slot + 1]
        awaited = stream.TimepointAwaitOp(new.results[carried + k], [new.results[slot]], [size])
        after.append(awaited)
    Rewriter.insert_op(after, InsertPoint.after(loop))
    for index, old in enumerate(loop.results):
        if index in slots:
            old.replace_all_uses_with(after[slots.index(index)].outputs[0])
        else:
            old.replace_all_uses_with(new.results[index])
    Rewriter.erase_op(loop)
