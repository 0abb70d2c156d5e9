"""The blocks of a module's host code: the bodies of its functions and initializers, not
those of its executables. Stream passes that lower host ops walk these."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block

from ireelab.dialects import stream


def host_blocks(module: ModuleOp) -> list[Block]:
    blocks = []
    for child in module.body.block.ops:
        if isinstance(child, stream.ExecutableOp):
            continue
        for region in child.regions:
            blocks.extend(region.blocks)
    return blocks
