"""The blocks of a module's host code: the bodies of its functions and initializers, not
those of its executables, and the bodies of the host `scf.for` / `scf.if` / `scf.while`
in them (each a block of host code of its own, as IREE's passes treat the regions of a
`RegionBranchOpInterface` op). Stream passes that lower host ops walk these."""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue

from ireelab.dialects import stream


def _with_nested(block: Block) -> list[Block]:
    blocks = [block]
    for op in block.ops:
        if isinstance(op, scf.ForOp | scf.IfOp | scf.WhileOp):
            for region in op.regions:
                for inner in region.blocks:
                    blocks += _with_nested(inner)
    return blocks


def host_blocks(module: ModuleOp) -> list[Block]:
    blocks = []
    for child in module.body.block.ops:
        if isinstance(child, stream.ExecutableOp):
            continue
        for region in child.regions:
            for block in region.blocks:
                blocks += _with_nested(block)
    return blocks


def used_values(op: Operation) -> set[SSAValue]:
    """The values `op` uses: its operands and, for an op with regions, the values defined
    outside that its regions use."""
    used = set(op.operands)
    if not op.regions:
        return used
    inner = [o for region in op.regions for o in region.walk()]
    defined = {r for o in inner for r in o.results}
    defined |= {a for region in op.regions for b in region.blocks for a in b.args}
    for o in inner:
        used |= {v for v in o.operands if v not in defined}
    return used
