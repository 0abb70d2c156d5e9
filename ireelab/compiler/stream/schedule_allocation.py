"""ScheduleAllocationPass: allocate memory for execute regions and lower them to commands.

Mirrors IREE's `iree-stream-schedule-allocation` (Stream/Transforms/ScheduleAllocation.cpp)
together with the slice layout IREE's `iree-stream-layout-slices` computes for the
`stream.resource.pack` it emits. For every `stream.async.execute`:

- results the host awaits are placed in one queue-ordered allocation per lifetime
  (`stream.resource.alloca uninitialized ... : !stream.resource<external>{%total}`), laid out
  back to back (64-byte aligned); the host gets them back with `stream.resource.subview`;
- every other value produced inside is transient: all of them are packed into one transient
  slab. Each gets the lifetime [producer, last user] in the region's order (a concurrent block
  counts as one step); slices are placed largest first at the lowest aligned offset not used
  by a slice whose lifetime overlaps, so buffers that are never live at the same time share
  memory. The slab is deallocated (`stream.resource.dealloca`) after the region;
- the region becomes `stream.cmd.execute ... await(<inputs and allocations>) => with(...)`:
  `stream.async.dispatch` -> `stream.cmd.dispatch` with `ro`/`wo` bindings at the byte ranges
  of the layout, `stream.async.concurrent` -> `stream.cmd.concurrent`, clones, slices and updates ->
  `stream.cmd.copy` (an update writes into its target's place: tied results share storage),
  splats and fills -> `stream.cmd.fill`, a transfer into `staging` -> `stream.cmd.copy` then
  `stream.cmd.flush` of the copied range;
- the host's `stream.timepoint.await` now waits on the execution (or on the dealloca after it);
  a host `stream.async.load` of the awaited staging resource becomes `stream.resource.load`.

Constants (`stream.async.constant`, in the initializers ConvertToStreamPass made for large
constant globals) become one `stream.resource.constants` per block, ready at its timepoint,
which the initializer awaits (`stream.timepoint.await sync`) before storing the resources.
IREE's ScheduleExecutionPass first wraps them in an execute region and this pass hoists them
back out of it, leaving an empty `stream.cmd.execute once` that the canonicalizer deletes;
ireelab's scheduling leaves constants outside execute regions, so that round trip is skipped.

A slab with a slice sized at run time (a `?` dimension) is laid out as IREE lays it out: the
slab's slices are listed in a `stream.resource.pack` (lifetimes and sizes) whose results size
the `stream.resource.alloca` and place every slice; LayoutSlicesPass then lowers the pack to
host arithmetic (`util.align`, `arith.addi`), so each call computes its own offsets. The
transients of a region stay in one slab; results of one type share one slab when there are
several (each live for the whole region), and a lone result gets its own allocation. Slabs
with only constant sizes are laid out here directly, to the constants LayoutSlicesPass would
compute for them. A slice or update at a byte offset the host computes (a `?` concat's running
sum) adds it to its slice's place in the slab; fills' offsets must be constants.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.stream.host_blocks import host_blocks
from ireelab.compiler.stream.host_elements import lower_host_loads
from ireelab.compiler.stream.index_constants import IndexConstants, constant_value
from ireelab.compiler.stream.layout_slices import ALIGNMENT as ALIGNMENT
from ireelab.compiler.stream.layout_slices import Slice, pack_back_to_back, pack_slices
from ireelab.compiler.stream.tied_storage import tied_operand
from ireelab.diagnostics import CompileError
from ireelab.dialects import stream

STAGE = "stream"
STAGING = stream.ResourceType("staging")


def _size(value: SSAValue) -> int | SSAValue:
    """A resource size: its number when constant, else the host value computing it."""
    found = constant_value(value)
    return value if found is None else found


def _is_whole(s: Slice, total: int | SSAValue) -> bool:
    """Whether a slice is its whole slab (its storage needs no subview)."""
    if isinstance(s.size, int) and isinstance(total, int):
        return s.size == total
    return s.size is total


def _index(constants: IndexConstants, size: int | SSAValue) -> SSAValue:
    return constants.get(size) if isinstance(size, int) else size


def _static(op: Operation, value: SSAValue) -> int:
    found = constant_value(value)
    if found is None:
        raise CompileError.at(op, "dynamic resource sizes are not supported yet", STAGE)
    return found


# ---- the execute region, flattened into steps ------------------------------------------------


def _steps(block: Block) -> list[Operation]:
    """Top-level ops of the region (a concurrent block is one step)."""
    return [op for op in block.ops if not isinstance(op, stream.YieldOp)]


def _members(step: Operation) -> list[Operation]:
    if isinstance(step, stream.AsyncConcurrentOp):
        return [op for op in step.body.block.ops if not isinstance(op, stream.YieldOp)]
    return [step]


def _resolve(value: SSAValue) -> SSAValue:
    """Follow concurrent-region arguments and yields to the value they stand for."""
    while True:
        owner = value.owner
        if isinstance(owner, Block):
            parent = owner.parent_op()
            if isinstance(parent, stream.AsyncConcurrentOp):
                value = parent.resource_operands[value.index]
                continue
            return value
        if isinstance(owner, stream.AsyncConcurrentOp):
            value = owner.body.block.last_op.operands[value.index]
            continue
        source = tied_operand(value)
        if source is not None:
            # A tied result is its operand's storage, updated in place.
            value = source
            continue
        return value


@dataclass
class _Plan:
    """Where every resource of one execute region lives."""

    inputs: list[SSAValue] = field(default_factory=list)
    """captured outer resources, in order of first use."""
    slices: dict[SSAValue, tuple[str, Slice]] = field(default_factory=dict)
    """produced value -> (slab key, slice)."""
    slabs: dict[str, tuple[Attribute, int | SSAValue]] = field(default_factory=dict)
    """slab key -> (resource type, total size); a packed slab's total is set when its
    `stream.resource.pack` is made."""
    packed: dict[str, list[Slice]] = field(default_factory=dict)
    """slab key -> its slices, for slabs laid out at run time by a `stream.resource.pack`."""

    def add_slab(self, key: str, ty: Attribute, group: list[Slice], layout) -> None:
        """A slab for `group`: laid out now when every size is constant, by a pack when
        not. A lone result is its own allocation (IREE packs a lone transient too)."""
        self.slices.update({s.value: (key, s) for s in group})
        if len(group) == 1 and not _is_transient(key):
            self.slabs[key] = (ty, group[0].size)
            return
        if all(isinstance(s.size, int) for s in group):
            self.slabs[key] = (ty, layout(group))
            return
        self.slabs[key] = (ty, 0)
        self.packed[key] = group


def plan_region(execute: stream.AsyncExecuteOp) -> _Plan:
    block = execute.body.block
    yielded = [_resolve(v) for v in block.last_op.resource_operands]
    plan = _Plan()
    transients: list[Slice] = []
    results: dict[Attribute, list[Slice]] = {}
    last_use: dict[SSAValue, int] = {}
    produced: list[tuple[SSAValue, int]] = []
    for step_index, step in enumerate(_steps(block)):
        for op in _members(step):
            for operand in op.operands:
                if not isinstance(operand.type, stream.ResourceType):
                    continue
                source = _resolve(operand)
                last_use[source] = step_index
                if source.owner is block and source not in plan.inputs:
                    plan.inputs.append(source)
            for result in op.results:
                if _resolve(result) is result:
                    produced.append((result, step_index))
    for value, start in produced:
        size = _size(_result_size(value))
        if value in yielded:
            # Results are all live until the host has them (IREE's lifetime [0, 0] each).
            results.setdefault(value.type, []).append(Slice(value, size))
        else:
            transients.append(Slice(value, size, start, last_use.get(value, start)))
    for ty, group in results.items():
        plan.add_slab(f"result:{ty}", ty, group, pack_back_to_back)
    if transients:
        plan.add_slab("transient", stream.ResourceType("transient"), transients, pack_slices)
    return plan


def _pack(plan: _Plan, key: str, constants: IndexConstants, affinity, before) -> None:
    """The `stream.resource.pack` of a slab with slices sized at run time: its results are the
    slab's total size and each slice's offset (LayoutSlicesPass computes them)."""
    group = plan.packed[key]
    sizes = [_index(constants, s.size) for s in group]
    pack = stream.ResourcePackOp(sizes, [(s.start, s.end) for s in group], affinity)
    Rewriter.insert_op(pack, before)
    for s, offset in zip(group, pack.packed_offsets, strict=True):
        s.offset = offset
    plan.slabs[key] = (plan.slabs[key][0], pack.total_length)


def _result_size(value: SSAValue) -> SSAValue:
    op = value.owner
    match op:
        case stream.AsyncDispatchOp():
            return op.result_sizes[value.index]
        case (
            stream.AsyncCloneOp()
            | stream.AsyncSplatOp()
            | stream.AsyncSliceOp()
            | stream.AsyncTransferOp()
        ):
            return op.result_size
        case stream.AsyncAllocaOp():
            return op.storage_size
    raise CompileError.at(op, f"'{op.name}' inside an execute region is not supported", STAGE)


# ---- emitting commands -------------------------------------------------------------------------


@dataclass
class _Emitter:
    plan: _Plan
    constants: IndexConstants
    args: dict[str, SSAValue]
    """slab key or input -> the cmd.execute region argument that stands for it."""
    input_args: dict[SSAValue, SSAValue]
    input_sizes: dict[SSAValue, SSAValue]

    host: InsertPoint
    """where host arithmetic on offsets goes (before the `stream.cmd.execute`)."""

    def index(self, value: int | SSAValue) -> SSAValue:
        return _index(self.constants, value)

    def at(self, base: int | SSAValue, offset: int | SSAValue) -> SSAValue:
        """`base + offset` as an index value: a run-time base (a slab laid out on the host) or
        offset (a slice at a position computed on the host) gets an `arith.addi`."""
        if isinstance(base, int) and isinstance(offset, int):
            return self.index(base + offset)
        if isinstance(offset, int) and offset == 0:
            return self.index(base)
        if isinstance(base, int) and base == 0:
            return self.index(offset)
        add = arith.AddiOp(self.index(base), self.index(offset))
        Rewriter.insert_op(add, self.host)
        return add.result

    def binding(self, op: Operation, value: SSAValue) -> tuple[SSAValue, SSAValue, int | SSAValue]:
        """(region argument, its size, byte offset of `value` in it)."""
        source = _resolve(value)
        if source in self.input_args:
            return self.input_args[source], self.input_sizes[source], 0
        key, s = self.plan.slices[source]
        return self.args[key], self.index(self.plan.slabs[key][1]), s.offset

    def range(self, op: Operation, value: SSAValue, offset: SSAValue, length: SSAValue):
        arg, size, base = self.binding(op, value)
        return arg, size, self.at(base, _size(offset)), length

    def dispatch(self, op: stream.AsyncDispatchOp) -> stream.CmdDispatchOp:
        bindings = []
        uniform = [v for v in op.resource_operands if not isinstance(v.type, stream.ResourceType)]
        tied = {op.resource_operands[t] for t in op.tied() if t >= 0}
        for value, _size, offset, _end, length in op.resource_ranges():
            arg, size, start, length = self.range(op, value, offset, length)
            access = stream.Access.READ_WRITE if value in tied else stream.Access.READ
            bindings.append((access, arg, size, start, length))
        for result, length, t in zip(op.outputs, op.result_sizes, op.tied(), strict=True):
            if t >= 0:
                continue
            arg, size, base = self.binding(op, result)
            bindings.append((stream.Access.WRITE, arg, size, self.index(base), length))
        return stream.CmdDispatchOp(op.entry_point, uniform, bindings, list(op.workload))

    def clone(self, op: stream.AsyncCloneOp) -> stream.CmdCopyOp:
        src, src_size, src_off = self.binding(op, op.source)
        dst, dst_size, dst_off = self.binding(op, op.result)
        return stream.CmdCopyOp(
            src, src_size, self.index(src_off), dst, dst_size, self.index(dst_off), op.result_size
        )

    def copy(
        self,
        op: Operation,
        source: SSAValue,
        source_offset: int | SSAValue,
        target: SSAValue,
        target_offset: int | SSAValue,
        length: SSAValue,
    ) -> stream.CmdCopyOp:
        """`stream.cmd.copy` of `length` bytes between two values' places (plus offsets)."""
        src, src_size, src_base = self.binding(op, source)
        dst, dst_size, dst_base = self.binding(op, target)
        return stream.CmdCopyOp(
            src,
            src_size,
            self.at(src_base, source_offset),
            dst,
            dst_size,
            self.at(dst_base, target_offset),
            length,
        )

    def slice(self, op: stream.AsyncSliceOp) -> stream.CmdCopyOp:
        offset = _size(op.source_offset)
        return self.copy(op, op.source, offset, op.result, 0, op.result_size)

    def update(self, op: stream.AsyncUpdateOp) -> stream.CmdCopyOp:
        offset = _size(op.target_offset)
        return self.copy(op, op.update, 0, op.target, offset, op.update_size)

    def splat(self, op: stream.AsyncSplatOp) -> stream.CmdFillOp:
        dst, dst_size, dst_off = self.binding(op, op.result)
        return stream.CmdFillOp(op.value, dst, dst_size, self.index(dst_off), op.result_size)

    def transfer(self, op: stream.AsyncTransferOp) -> list[Operation]:
        """A transfer on one device copies; into `staging` the copied range is then flushed
        so the host sees it (IREE's ScheduleAllocation)."""
        copy = self.copy(op, op.source, 0, op.result, 0, op.result_size)
        if op.result.type != STAGING:
            return [copy]
        flush = stream.CmdFlushOp(copy.target, copy.target_size, copy.target_offset, copy.length)
        return [copy, flush]

    def fill(self, op: stream.AsyncFillOp) -> stream.CmdFillOp:
        offset = _size(op.target_offset)  # a run-time index's byte offset (host_elements)
        dst, dst_size, dst_off = self.binding(op, op.target)
        return stream.CmdFillOp(op.value, dst, dst_size, self.at(dst_off, offset), op.target_length)

    def convert(self, op: Operation) -> Operation | list[Operation] | None:
        match op:
            case stream.AsyncTransferOp():
                return self.transfer(op)
            case stream.AsyncFillOp():
                return self.fill(op)
            case stream.AsyncDispatchOp():
                return self.dispatch(op)
            case stream.AsyncCloneOp():
                return self.clone(op)
            case stream.AsyncSplatOp():
                return self.splat(op)
            case stream.AsyncSliceOp():
                return self.slice(op)
            case stream.AsyncUpdateOp():
                return self.update(op)
            case stream.AsyncAllocaOp():
                return None
            case stream.AsyncConcurrentOp():
                body = Block()
                for member in _members(op):
                    _add(body, self.convert(member))
                return stream.CmdConcurrentOp(Region(body))
        raise CompileError.at(op, f"'{op.name}' cannot be scheduled into commands yet", STAGE)


def _add(block: Block, converted: Operation | list[Operation] | None) -> None:
    if converted is None:
        return
    block.add_ops(converted if isinstance(converted, list) else [converted])


def _await_op(execute: stream.AsyncExecuteOp) -> stream.TimepointAwaitOp | None:
    for use in execute.result_timepoint.uses:
        if isinstance(use.operation, stream.TimepointAwaitOp):
            return use.operation
    return None


def allocate(execute: stream.AsyncExecuteOp, constants: IndexConstants) -> None:
    plan = plan_region(execute)
    affinity = execute.affinity
    captured = dict(zip(execute.body.block.args, execute.resource_operands, strict=True))
    captured_sizes = dict(zip(execute.body.block.args, execute.resource_operand_sizes, strict=True))
    before = InsertPoint.before(execute)

    allocas: dict[str, stream.ResourceAllocaOp] = {}
    keys = [k for k in plan.slabs if not _is_transient(k)] + [
        k for k in plan.slabs if _is_transient(k)
    ]
    for key in keys:
        if key in plan.packed:
            _pack(plan, key, constants, affinity, before)
        ty, total = plan.slabs[key]
        alloca = stream.ResourceAllocaOp(ty, _index(constants, total), affinity)
        alloca.result.name_hint = "result"
        alloca.result_timepoint.name_hint = "result_timepoint"
        Rewriter.insert_op(alloca, before)
        allocas[key] = alloca

    waits = [execute.await_timepoint] if execute.await_timepoint is not None else []
    waits += [a.result_timepoint for a in allocas.values()]
    wait: SSAValue | None = waits[0] if waits else None
    if len(waits) > 1:
        join = stream.TimepointJoinOp(waits)
        Rewriter.insert_op(join, before)
        wait = join.result_timepoint

    operands = [captured[v] for v in plan.inputs] + [allocas[k].result for k in keys]
    sizes = [captured_sizes[v] for v in plan.inputs] + [
        _index(constants, plan.slabs[k][1]) for k in keys
    ]
    block = Block(arg_types=[v.type for v in operands])
    emitter = _Emitter(
        plan,
        constants,
        {k: block.args[len(plan.inputs) + i] for i, k in enumerate(keys)},
        {v: block.args[i] for i, v in enumerate(plan.inputs)},
        {v: sizes[i] for i, v in enumerate(plan.inputs)},
        before,
    )
    for step in _steps(execute.body.block):
        _add(block, emitter.convert(step))
    cmd = stream.CmdExecuteOp(operands, sizes, Region(block), affinity, wait)
    Rewriter.insert_op(cmd, before)

    done = cmd.result_timepoint
    for key in [k for k in keys if _is_transient(k)]:
        slab = allocas[key]
        dealloca = stream.ResourceDeallocaOp(slab.result, slab.storage_size, affinity, done)
        Rewriter.insert_op(dealloca, before)
        done = dealloca.result_timepoint
    _rewrite_host_await(execute, plan, allocas, keys, done, constants)
    _rewrite_device_uses(execute, plan, allocas, done, constants)
    Rewriter.erase_op(execute)


def _is_transient(key: str) -> bool:
    return key.startswith("transient")


def _rewrite_device_uses(
    execute: stream.AsyncExecuteOp,
    plan: _Plan,
    allocas: dict[str, stream.ResourceAllocaOp],
    done: SSAValue,
    constants: IndexConstants,
) -> None:
    """A later execute region may capture this one's results without a host await (it
    awaits this one's timepoint instead; PropagateTimepointsPass leaves that form when host
    work, such as reading an element, splits the device work in two). Those uses now see the
    allocated storage and the timepoint of the commands."""
    execute.result_timepoint.replace_all_uses_with(done)
    captured = dict(zip(execute.body.block.args, execute.resource_operands, strict=True))
    yielded = [_resolve(v) for v in execute.body.block.last_op.resource_operands]
    for output, value in zip(execute.outputs, yielded, strict=True):
        if not output.uses:
            continue
        if value in captured:
            output.replace_all_uses_with(captured[value])
            continue
        key, s = plan.slices[value]
        storage = allocas[key].result
        total = plan.slabs[key][1]
        if not _is_whole(s, total):
            sub = stream.ResourceSubviewOp(
                storage,
                _index(constants, total),
                _index(constants, s.offset),
                _index(constants, s.size),
            )
            Rewriter.insert_op(sub, InsertPoint.before(execute))
            storage = sub.result
        output.replace_all_uses_with(storage)


def _rewrite_host_await(
    execute: stream.AsyncExecuteOp,
    plan: _Plan,
    allocas: dict[str, stream.ResourceAllocaOp],
    keys: list[str],
    done: SSAValue,
    constants: IndexConstants,
) -> None:
    old = _await_op(execute)
    yielded = [_resolve(v) for v in execute.body.block.last_op.resource_operands]
    if old is None:
        if any(r.uses for r in execute.outputs):
            raise CompileError.at(execute, "execute results are used without an await", STAGE)
        return
    result_keys = [k for k in keys if not _is_transient(k)]
    slabs = [allocas[k].result for k in result_keys]
    slab_sizes = [allocas[k].storage_size for k in result_keys]
    # A result written in place into a captured resource (a fill of an input) is that input.
    captured = dict(zip(execute.body.block.args, execute.resource_operands, strict=True))
    captured_sizes = dict(zip(execute.body.block.args, execute.resource_operand_sizes, strict=True))
    tied_inputs = list(dict.fromkeys(v for v in yielded if v in captured))
    new = stream.TimepointAwaitOp(
        done,
        slabs + [captured[v] for v in tied_inputs],
        slab_sizes + [captured_sizes[v] for v in tied_inputs],
    )
    Rewriter.insert_op(new, InsertPoint.before(old))
    awaited = dict(zip(result_keys, new.outputs[: len(slabs)], strict=True))
    awaited_inputs = dict(zip(tied_inputs, new.outputs[len(slabs) :], strict=True))
    anchor: Operation = new
    for index, value in enumerate(yielded):
        if value in awaited_inputs:
            old.outputs[index].replace_all_uses_with(awaited_inputs[value])
            continue
        key, s = plan.slices[value]
        total = plan.slabs[key][1]
        replacement = awaited[key]
        if not _is_whole(s, total):
            sub = stream.ResourceSubviewOp(
                replacement,
                _index(constants, total),
                _index(constants, s.offset),
                _index(constants, s.size),
            )
            Rewriter.insert_op(sub, InsertPoint.after(anchor))
            anchor = sub
            replacement = sub.result
        old.outputs[index].replace_all_uses_with(replacement)
    Rewriter.erase_op(old)


def allocate_constants(block: Block) -> None:
    """Every `stream.async.constant` of `block` -> one `stream.resource.constants` + await."""
    constants = [op for op in block.ops if isinstance(op, stream.AsyncConstantOp)]
    if not constants:
        return
    first = constants[0]
    values = stream.ResourceConstantsOp(
        [op.value for op in constants],
        [op.result.type for op in constants],
        [op.result_size for op in constants],
        first.affinity,
    )
    ready = stream.TimepointAwaitOp(
        values.result_timepoint, list(values.outputs), list(values.result_sizes)
    )
    ready.sync = UnitAttr()
    Rewriter.insert_op([values, ready], InsertPoint.before(first))
    for op, value in zip(constants, ready.outputs, strict=True):
        Rewriter.replace_op(op, [], [value])


@dataclass(frozen=True)
class ScheduleAllocationPass(ModulePass):
    """Allocates results, transients and constants; lowers execute regions to commands."""

    name = "iree-stream-schedule-allocation"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for block in host_blocks(op):
            allocate_constants(block)
            constants = IndexConstants(block)
            for execute in [o for o in block.ops if isinstance(o, stream.AsyncExecuteOp)]:
                allocate(execute, constants)
            lower_host_loads(list(block.ops))
