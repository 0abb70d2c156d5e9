"""PackConstantsPass (`iree-stream-pack-constants`): constant resources become module bytes.

Mirrors IREE's `Stream/Transforms/PackConstants.cpp`. It runs after ScheduleAllocationPass on
every `stream.resource.constants`: the values are laid end to end, each padded to the
resource alignment (64 bytes) with `dense<0> : vector<Nxi8>`, into one

    %buffer_cst = util.buffer.constant <alignment = 64> : !util.buffer = #util.composite<Nxi8, [...]>

that the module carries as read-only data, and the constant resource is that memory itself:

    %did_map, %result = stream.resource.try_map on(...) %buffer_cst[%c0] : !util.buffer -> i1, !stream.resource<constant>{%cN}

with one `stream.resource.subview` per value when several share the buffer. The constants are
ready at once (`stream.timepoint.immediate`).

Only the mapping path is modelled. IREE also emits the path for devices that cannot map host
memory (`%did_map` false: `stream.resource.alloc`, then `stream.file.constant` +
`stream.file.read` upload the bytes, joined by `cf.cond_br`); ireelab's CPU runtime always
maps them, so `%did_map` is left unused. IREE's split of very large constants over several
buffers (the device's maximum allocation size) is not modelled either.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    ModuleOp,
    VectorType,
    i8,
)
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.stream.alloc_constants import constant_in
from ireelab.compiler.stream.index_constants import constant_value
from ireelab.diagnostics import CompileError
from ireelab.dialects import builtin_resources, stream, util

STAGE = "stream"
ALIGNMENT = 64
"""Byte alignment of each constant in the buffer and of the buffer itself."""


def _padding(length: int) -> Attribute:
    return DenseIntOrFPElementsAttr.from_list(VectorType(i8, [length]), [0])


def pack_layout(sizes: list[int]) -> tuple[list[int], int]:
    """Offsets of values of `sizes` bytes laid end to end, each padded to ALIGNMENT; total."""
    offsets, end = [], 0
    for size in sizes:
        offsets.append(end)
        end += (size + ALIGNMENT - 1) // ALIGNMENT * ALIGNMENT
    return offsets, end


def _static_sizes(op: stream.ResourceConstantsOp) -> list[int]:
    sizes = []
    for size in op.result_sizes:
        value = constant_value(size)
        if value is None:
            raise CompileError.at(op, "constants of dynamic size are not supported", STAGE)
        sizes.append(value)
    return sizes


def _composite(op: stream.ResourceConstantsOp, sizes: list[int], total: int) -> util.CompositeAttr:
    entries: list[Attribute] = []
    for value, size in zip(op.values.data, sizes, strict=True):
        if builtin_resources.elements(value) is None:
            raise CompileError.at(op, f"cannot pack the constant {value} into bytes", STAGE)
        if len(util.dense_bytes(value)) != size:
            raise CompileError.at(op, f"constant {value.type} does not hold {size} bytes", STAGE)
        entries.append(value)
        padding = -size % ALIGNMENT
        if padding:
            entries.append(_padding(padding))
    return util.CompositeAttr(total, entries)


def pack_constants(op: stream.ResourceConstantsOp) -> None:
    sizes = _static_sizes(op)
    offsets, total = pack_layout(sizes)
    buffer = util.BufferConstantOp(_composite(op, sizes, total), alignment=ALIGNMENT)
    total_size = constant_in(op, total)
    mapped = stream.ResourceTryMapOp(
        buffer.result,
        constant_in(op, 0),
        stream.ResourceType("constant"),
        total_size,
        op.affinity,
    )
    ready = stream.TimepointImmediateOp()
    new_ops = [buffer, mapped, ready]
    values = []
    for output, offset, size in zip(op.outputs, offsets, op.result_sizes, strict=True):
        if len(op.outputs) == 1:
            values.append(mapped.result)
            break
        view = stream.ResourceSubviewOp(mapped.result, total_size, constant_in(op, offset), size)
        new_ops.append(view)
        values.append(view.result)
        view.result.name_hint = output.name_hint
    Rewriter.insert_op(new_ops, InsertPoint.before(op))
    Rewriter.replace_op(op, [], [*values, ready.result_timepoint])


@dataclass(frozen=True)
class PackConstantsPass(ModulePass):
    """Packs `stream.resource.constants` into a module buffer mapped as the resource."""

    name = "iree-stream-pack-constants"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for constants in [o for o in op.walk() if isinstance(o, stream.ResourceConstantsOp)]:
            pack_constants(constants)
