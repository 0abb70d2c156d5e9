"""FuseDispatchBindingsPass: bind whole resources and pass byte offsets as operands.

Mirrors IREE's `iree-stream-fuse-dispatch-bindings` (Stream/Transforms/FuseDispatchBindings.cpp)
as it behaves with IREE's defaults on the reference programs. After ScheduleAllocationPass a
dispatch binds sub-ranges of slabs (`wo %slab[%c1048576 for %c1048576]`). Here every binding
is rebased to the whole resource (`[%c0 for %slab_size]`) and the range's offset becomes an
`index` operand of the dispatch; inside the dispatch function a matching argument is added
to the `stream.binding.subspan` offset. As in IREE, the function's arguments are then the
bindings, their offsets, and the dispatch's other operands (scalars), in that order. That way one executable serves every placement, and
bindings of the same resource could share one slot. (IREE also merges read-only bindings of
the same resource at every site into one binding; that merge is not modelled.)

The binding arguments are also annotated `{stream.alignment = 64 : index}` (IREE's
AnnotateDispatchArgumentsPass, which runs right after): ScheduleAllocationPass places every
slice at a multiple of 64 bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Block, BlockArgument, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.stream.alloc_constants import host_block, zero_in
from ireelab.compiler.stream.dispatch_sites import (
    annotate_alignment,
    dispatch_sites,
    set_function_type,
)
from ireelab.compiler.stream.index_constants import constant_value
from ireelab.compiler.stream.schedule_allocation import ALIGNMENT
from ireelab.dialects import stream


def _rebase_site(site: stream.CmdDispatchOp, zero: SSAValue) -> None:
    bindings = site.bindings()
    offsets = [b[3] for b in bindings]
    rebased = [(access, res, size, zero, size) for access, res, size, _off, _len in bindings]
    new = stream.CmdDispatchOp(
        site.entry_point, [*offsets, *site.uniform_operands], rebased, list(site.workload)
    )
    Rewriter.replace_op(site, new)


def _bindings_first(fn: func.FuncOp) -> list[BlockArgument]:
    """Move the binding arguments ahead of the operands (IREE's new signature is bindings,
    then their offsets, then the original operands), keeping their relative order."""
    block: Block = fn.body.block
    old = [a for a in block.args if isinstance(a.type, stream.BindingType)]
    moved = []
    for position, arg in enumerate(old):
        new = block.insert_arg(arg.type, position)
        new.name_hint = arg.name_hint
        arg.replace_all_uses_with(new)
        block.erase_arg(arg)
        moved.append(new)
    set_function_type(fn)
    return moved


def _offset_function(fn: func.FuncOp) -> None:
    block: Block = fn.body.block
    bindings = _bindings_first(fn)
    offsets = [block.insert_arg(IndexType(), len(bindings) + i) for i in range(len(bindings))]
    set_function_type(fn)
    for binding, offset in zip(bindings, offsets, strict=True):
        for use in list(binding.uses):
            subspan = use.operation
            if not isinstance(subspan, stream.BindingSubspanOp):
                continue
            if constant_value(subspan.byte_offset) == 0:
                subspan.operands[1] = offset
                continue
            add = arith.AddiOp(subspan.byte_offset, offset)
            Rewriter.insert_op(add, InsertPoint.before(subspan))
            subspan.operands[1] = add.result
    annotate_alignment(fn, ALIGNMENT)


@dataclass(frozen=True)
class FuseDispatchBindingsPass(ModulePass):
    """Rebases dispatch bindings to whole resources, passing offsets as operands."""

    name = "iree-stream-fuse-dispatch-bindings"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # One `arith.constant 0 : index` per host block, looked up once: `zero_in` scans the
        # block's ops, and doing it per site made an N-layer model's rebasing N x N.
        zeros: dict[Block, SSAValue] = {}
        for fn, sites in dispatch_sites(op):
            for site in sites:
                block = host_block(site)
                if block not in zeros:
                    zeros[block] = zero_in(site)
                _rebase_site(site, zeros[block])
            _offset_function(fn)
