"""Dead-code elimination of a region after each canonicalizer round, by a worklist.

Mirrors MLIR's `simplifyRegions` dead-code step (`eraseUnreachableBlocks` and
`runRegionDCE` in `RegionUtils.cpp`) as xDSL's `region_dce`, which the canonicalizer's
pattern walker calls after every round; this computes the same live set and erases the same
ops and blocks. xDSL finds the live set by sweeping every reachable op until a sweep marks
nothing new: at least two full sweeps, each asking every op not yet live whether it would be
trivially dead. Here one sweep in xDSL's order (users before producers, nested ops before
the op holding them) marks an op live when a user already is, asking only the others, and a
user found live later (a use before its definition in block order) revives the producers
already swept through a worklist. The rule is xDSL's: an op reached from its region's
entry block is live if it would not be trivially dead, or if a live op uses one of its
results; ops in blocks the entry does not reach are never live (their blocks go).
"""

from __future__ import annotations

from xdsl.ir import Operation, OpResult, Region
from xdsl.ir.post_order import PostOrderIterator
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.transforms.dead_code_elimination import LiveSet, would_be_trivially_dead


def region_dce(region: Region, listener: PatternRewriterListener | None = None) -> bool:
    """xDSL's `region_dce` (same signature, same answer): erase the dead ops and unreached
    blocks of `region`; True if anything was erased."""
    live_set = LiveSet(changed=False)
    live = live_set._live_ops
    visited: set[Operation] = set()

    def revive(op: Operation) -> None:
        """`op` is live: so are the producers of its operands already visited (and theirs);
        those not visited yet see a live user when they are."""
        work = [op]
        while work:
            for operand in work.pop().operands:
                if isinstance(operand, OpResult):
                    producer = operand.op
                    if producer in visited and producer not in live:
                        live.add(producer)
                        work.append(producer)

    def sweep(region: Region) -> None:
        first = region.first_block
        if first is None:
            return
        for block in PostOrderIterator(first):
            for op in reversed(block.ops):  # users before producers, nested ops first
                for nested in op.regions:
                    sweep(nested)
                visited.add(op)
                used = any(use.operation in live for r in op.results for use in r.uses)
                if used or not would_be_trivially_dead(op):
                    live.add(op)
                    revive(op)

    sweep(region)
    live_set.delete_dead(region, listener)
    return live_set.changed
