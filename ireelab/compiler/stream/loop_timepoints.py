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
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.stream.branch_timepoints import (
    await_results,
    expand_block,
    ready,
    resource_slots,
)
from ireelab.compiler.stream.branch_timepoints import layout as carried_layout


def _resource_slots(loop: scf.ForOp) -> list[int]:
    return resource_slots(loop.iter_args)


def propagate_through_loop(loop: scf.ForOp) -> None:
    slots = _resource_slots(loop)
    if not slots:
        return
    block = loop.body.block
    yield_op = block.last_op
    assert isinstance(yield_op, scf.YieldOp)
    inits, yielded, pairs = list(loop.iter_args), list(yield_op.arguments), []
    for slot in slots:
        inits[slot], init_timepoint = ready(inits[slot], loop)
        yielded[slot], yielded_timepoint = ready(yielded[slot], yield_op)
        pairs.append((init_timepoint, yielded_timepoint))
    layout = carried_layout(len(loop.iter_args), slots, pairs)
    shared = {k: next(j for j, p in enumerate(pairs) if p == pairs[k]) for k in range(len(slots))}

    def value(entry, olds, pair_index):
        kind, i = entry
        return olds[i] if kind == "old" else pairs[i][pair_index]

    Rewriter.replace_op(yield_op, scf.YieldOp(*[value(e, yielded, 1) for e in layout]))
    expand_block(block, slots, layout, shared, skip=1)  # after the induction variable
    body = Rewriter.move_region_contents_to_new_regions(loop.body)
    new = scf.ForOp(loop.lb, loop.ub, loop.step, [value(e, inits, 0) for e in layout], body)
    Rewriter.insert_op(new, InsertPoint.before(loop))
    await_results(loop, new, slots, layout, shared)
    Rewriter.erase_op(loop)
