"""The `hal` module: Python implementations of the `hal.*` functions a program imports
(IREE's `runtime/src/iree/modules/hal/module.c`).

`HALModule(device).functions` maps each import name (`hal.command_buffer.dispatch`) to a
callable taking the VM's arguments in order: i32/i64 as ints, refs as runtime objects (None for
null), `!vm.buffer` as bytes, and each variadic segment as a list (of tuples for tuple
segments). A call returns None, one value, or a tuple for several results.
"""

from __future__ import annotations

import operator
from collections.abc import Callable

import numpy as np

from ireelab.runtime.errors import HALError
from ireelab.runtime.hal.buffer import Buffer
from ireelab.runtime.hal.buffer_view import DIM_LIMIT, BufferView, check_dims
from ireelab.runtime.hal.command_buffer import (
    ONE_SHOT,
    BufferRef,
    CommandBuffer,
    Copy,
    Dispatch,
    Fill,
    replaying,
)
from ireelab.runtime.hal.device import Device
from ireelab.runtime.hal.executable import Executable, create_executable
from ireelab.runtime.hal.recording_cache import BARRIER, RecordingCache, materialize
from ireelab.runtime.hal.semaphore import Fence, Semaphore, all_reached
from ireelab.runtime.hal.trace_recorder import CURRENT
from ireelab.schemas import hal_element_types as element_types


def _text(data: bytes | None) -> str:
    return bytes(data or b"").decode("utf-8", "replace")


def _shape_text(shape) -> str:
    return "x".join(str(d) for d in shape)


def _type_text(code: int) -> str:
    return element_types.CODE_TO_MLIR.get(code, "?") + f" ({code:08X})"


def _explain_view_mismatch(view, name: str, element_type: int, encoding: int, expected) -> None:
    """Raise IREE's message for the first way `view` differs from what was asserted."""
    if view is None:
        raise HALError(f"{name} is null; expected a buffer view", code="INVALID_ARGUMENT")
    if not isinstance(view, BufferView):
        raise HALError(f"{name} is not a buffer view", code="INVALID_ARGUMENT")
    actual = view.shape
    if len(expected) != len(actual):
        raise HALError(
            f"{name} shape rank mismatch; expected {len(expected)} but have {len(actual)}; "
            f"expected shape `{_shape_text(expected)}`, actual shape `{_shape_text(actual)}`",
            code="INVALID_ARGUMENT",
        )
    for dim, (want, have) in enumerate(zip(expected, actual, strict=True)):
        if want != have:
            raise HALError(
                f"{name} shape dimension {dim} mismatch; expected {want} but have {have}; "
                f"expected shape `{_shape_text(expected)}`, actual shape "
                f"`{_shape_text(actual)}`",
                code="INVALID_ARGUMENT",
            )
    if not element_types.same_element_type(element_type, view.element_type):
        raise HALError(
            f"{name} element type mismatch; expected {_type_text(element_type)} but have "
            f"{_type_text(view.element_type)}",
            code="INVALID_ARGUMENT",
        )
    if encoding != view.encoding_type:
        raise HALError(f"{name} encoding mismatch", code="INVALID_ARGUMENT")


_BOUND_BUFFER = operator.itemgetter(2)
_FIRST = operator.itemgetter(0)
_BOUND_LENGTH = operator.itemgetter(4)
_TABLE_ENTRY = operator.itemgetter(2, 3, 4)
"""Of a dispatch's binding `(ordinal, slot, buffer, offset, length)`: what a collecting
command buffer's key and binding table take (`recording_cache`)."""


def _require(value, what: str):
    if value is None:
        raise HALError(f"{what} is null", code="INVALID_ARGUMENT")
    return value


class HALModule:
    """The hal module instance of one context: bound to the device the context runs on."""

    def __init__(self, device: Device):
        self.device = device
        self.recordings = RecordingCache()
        """The recordings of this context's one-shot command buffers (`recording_cache`)."""
        self.functions: dict[str, Callable] = {
            f"hal.{name}": getattr(self, attr) for name, attr in _IMPORTS.items()
        }

    # ---- allocator / buffer -------------------------------------------------------------
    def allocator_allocate(self, allocator, queue_affinity, memory_types, usage, size):
        return _require(allocator, "allocator").allocate(memory_types, usage, size)

    def allocator_import(
        self, allocator, try_, queue_affinity, memory_types, usage, source, offset, length
    ):
        """The module's constant bytes as a buffer, wrapped, not copied: the local devices
        read host memory directly (IREE's heap allocator imports host allocations too)."""
        _require(allocator, "allocator")
        size = len(_require(source, "import source"))
        if offset < 0 or length < 0 or offset + length > size:
            raise HALError(
                f"import range [{offset}, {offset + length}) is outside the "
                f"{size}-byte source buffer",
                code="OUT_OF_RANGE",
            )
        storage = np.frombuffer(source, dtype=np.uint8, count=length, offset=offset)
        return Buffer(storage, 0, length, memory_types, usage, allocator)

    def buffer_assert(self, buffer, message, allocator, minimum_length, memory_types, usage):
        if buffer is None:
            raise HALError(f"{_text(message)} buffer is null", code="INVALID_ARGUMENT")
        if buffer.length < minimum_length:
            raise HALError(
                f"{_text(message)} buffer byte length {buffer.length} less than expected "
                f"minimum {minimum_length}",
                code="INVALID_ARGUMENT",
            )

    def buffer_subspan(self, buffer, offset, length):
        return _require(buffer, "buffer").subspan(offset, length)

    def buffer_length(self, buffer):
        return _require(buffer, "buffer").length

    def buffer_load(self, buffer, offset, length):
        raw = _require(buffer, "buffer").bytes(offset, length)
        return int.from_bytes(raw.tobytes(), "little", signed=True)

    def buffer_store(self, value, buffer, offset, length):
        raw = _require(buffer, "buffer").bytes(offset, length)
        raw[:] = list((value & ((1 << (8 * length)) - 1)).to_bytes(length, "little"))

    # ---- buffer view --------------------------------------------------------------------
    def buffer_view_create(self, buffer, offset, length, element_type, encoding, shape):
        if buffer is None:
            _require(buffer, "buffer")
        for dim in shape:  # `check_dims`, inlined: a `?` function makes its results' views
            if not 0 <= dim <= DIM_LIMIT:
                check_dims(shape)
        return BufferView(buffer.subspan(offset, length), tuple(shape), element_type, encoding)

    def buffer_view_assert(self, view, message, element_type, encoding, shape):
        if (
            type(view) is BufferView
            and view.element_type == element_type
            and view.encoding_type == encoding
            and list(view.shape) == shape
        ):
            return  # the common case, checked in one expression
        _explain_view_mismatch(view, _text(message), element_type, encoding, tuple(shape))

    def buffer_view_buffer(self, view):
        if view is None:
            _require(view, "buffer view")
        return view.buffer

    def buffer_view_element_type(self, view):
        return _require(view, "buffer view").element_type

    def buffer_view_encoding_type(self, view):
        return _require(view, "buffer view").encoding_type

    def buffer_view_rank(self, view):
        return len(_require(view, "buffer view").shape)

    def buffer_view_dim(self, view, index):
        if view is None:  # a `?` function reads every dim on every call: no helper call
            _require(view, "buffer view")
        return view.shape[index]

    def buffer_view_trace(self, key, views):
        for view in views:
            print(f"{_text(key)}: {view!r}")

    # ---- command buffer -----------------------------------------------------------------
    # A one-shot command buffer (a `?` function's) is recorded on every call: it collects the
    # key of its recording and its binding table instead (`recording_cache`), and the null
    # checks of these are written out rather than calling `_require`.
    def command_buffer_create(self, device, modes, categories, queue_affinity, capacity):
        if device is None:
            _require(device, "device")
        command_buffer = CommandBuffer(capacity, modes)
        if modes & ONE_SHOT:
            command_buffer.collected = []
            command_buffer.table = []
        return command_buffer

    def command_buffer_finalize(self, command_buffer):
        if command_buffer is None:
            _require(command_buffer, "command buffer")
        if command_buffer.collected is not None:
            self.recordings.finalize(command_buffer)
        else:
            command_buffer.finalize()

    def command_buffer_begin_debug_group(self, command_buffer, label):
        _require(command_buffer, "command buffer")

    def command_buffer_end_debug_group(self, command_buffer):
        _require(command_buffer, "command buffer")

    def command_buffer_execution_barrier(self, command_buffer, source, target, flags):
        if command_buffer is None:
            _require(command_buffer, "command buffer")
        collected = command_buffer.collected
        if collected is not None:
            if collected and collected[-1] is not BARRIER:  # as `execution_barrier`: no empty
                collected.append(BARRIER)  # sections
            return
        command_buffer.execution_barrier()

    def command_buffer_fill_buffer(
        self, command_buffer, target, offset, length, slot, pattern, pattern_length, flags
    ):
        _require(command_buffer, "command buffer")
        if command_buffer.collected is not None:
            if target is not None:
                command_buffer.table.append((target, offset, length))
                command_buffer.collected.append(("fill", pattern, pattern_length, length))
                return
            materialize(command_buffer)  # a slot of the caller's binding table
        ref = BufferRef(target, slot, offset, length)
        command_buffer.fill(Fill(ref, pattern, pattern_length))

    def command_buffer_copy_buffer(
        self, command_buffer, source_slot, target_slot, source, source_offset, target,
        target_offset, length, flags,
    ):  # fmt: skip
        _require(command_buffer, "command buffer")
        if command_buffer.collected is not None:
            if source is not None and target is not None:
                command_buffer.table += [
                    (source, source_offset, length),
                    (target, target_offset, length),
                ]
                command_buffer.collected.append(("copy", length))
                return
            materialize(command_buffer)
        copy = Copy(
            BufferRef(source, source_slot, source_offset, length),
            BufferRef(target, target_slot, target_offset, length),
        )
        command_buffer.copy(copy)

    def command_buffer_dispatch(
        self, command_buffer, executable, function_id, x, y, z, flags, constants, bindings
    ):
        if executable is None:
            raise HALError("executable is null", code="INVALID_ARGUMENT")
        if command_buffer is None:
            _require(command_buffer, "command buffer")
        collected = command_buffer.collected
        if collected is not None:
            if not 0 <= function_id < len(executable.functions):
                check_dispatch(executable, function_id)  # raises
            if None not in map(_BOUND_BUFFER, bindings):  # else a slot of the caller's table
                command_buffer.table += map(_TABLE_ENTRY, bindings)
                lengths = tuple(map(_BOUND_LENGTH, bindings))
                collected.append((executable, function_id, x, y, z, tuple(constants), lengths))
                return
            materialize(command_buffer)
        refs = tuple([BufferRef(b, slot, offset, n) for _, slot, b, offset, n in bindings])
        command_buffer.dispatch(
            Dispatch(executable, function_id, (x, y, z), tuple(constants), refs)
        )

    def command_buffer_record(self, capacity, modes, key, table, slots, may_be_null=True):
        """The one-shot command buffer a straight run of `create`, `dispatch`es, barriers and
        `finalize` records, the run fused by the VM translator into this one call
        (`vm.fused_commands`): `key` is the run's recording key as the separate calls collect
        it (per dispatch `(executable, ordinal, x, y, z, constants, binding lengths)`, each
        checked where the dispatch stood, `check_dispatch`; BARRIER per section ended), as a
        tuple; `table` every dispatch's bindings in order as `(buffer, offset, length)`, and
        `slots` their `(ordinal, slot)`. A binding naming a slot of a caller's table (a null
        buffer) makes the separate calls record it after all; `may_be_null` False: the
        translator knows every buffer of `table` is not null (`NONNULL_RESULTS`)."""
        if may_be_null and None in map(_FIRST, table):
            return self._record_each(capacity, modes, key, table, slots)
        recordings = self.recordings
        recording = recordings.recordings.get(key)
        if recording is not None:  # recorded before: nothing to collect into
            recordings.hits += 1
            return replaying(capacity, modes, recording, table)
        command_buffer = CommandBuffer(capacity, modes)
        command_buffer.collected = key
        command_buffer.table = list(table)
        recordings.finalize(command_buffer)
        return command_buffer

    def _record_each(self, capacity, modes, key, table, slots):
        """`command_buffer_record` through the separate calls it stands for."""
        command_buffer = self.command_buffer_create(self.device, modes, 0, -1, capacity)
        bindings = [(*slot, *entry) for slot, entry in zip(slots, table, strict=True)]
        start = 0
        for entry in key:
            if entry is BARRIER:
                self.command_buffer_execution_barrier(command_buffer, 0, 0, 0)
                continue
            executable, ordinal, x, y, z, constants, lengths = entry
            bound, start = bindings[start : start + len(lengths)], start + len(lengths)
            self.command_buffer_dispatch(
                command_buffer, executable, ordinal, x, y, z, 0, list(constants), bound
            )
        self.command_buffer_finalize(command_buffer)
        return command_buffer

    # ---- device ---------------------------------------------------------------------------
    def device_allocator(self, device):
        if device is None:
            _require(device, "device")
        return device.allocator

    def device_query_i64(self, device, category, key):
        return _require(device, "device").query_i64(_text(category), _text(key))

    def device_queue_alloca(
        self, device, affinity, wait, signal, pool, memory_types, usage, size, flags
    ):
        if device is None:
            _require(device, "device")
        return device.queue_alloca(wait, signal, memory_types, usage, size)

    def device_queue_dealloca(self, device, affinity, wait, signal, buffer, flags):
        # The allocator's pool takes the block back once nothing refers to it; the queue
        # only orders the signal after the wait.
        _require(device, "device").queue_barrier(wait, signal)

    def device_queue_barrier(self, device, affinity, wait, signal, flags):
        _require(device, "device").queue_barrier(wait, signal)

    def device_queue_execute(self, device, affinity, wait, signal, command_buffer, flags):
        table = None if command_buffer is None else command_buffer.table
        if device is None:  # every call of a `?` function executes: no helper call
            _require(device, "device")
        device.queue_execute(wait, signal, command_buffer, table or [])

    def device_queue_execute_indirect(
        self, device, affinity, wait, signal, command_buffer, flags, table
    ):
        for entry in table:
            if entry[0] is None:
                raise HALError("binding table buffer is null", code="INVALID_ARGUMENT")
        if device is None:
            _require(device, "device")
        if command_buffer is not None and command_buffer.table is not None:
            table = command_buffer.table  # collected: its bindings name no caller's slots
        device.queue_execute(wait, signal, command_buffer, table)

    def device_queue_flush(self, device, affinity):
        _require(device, "device")

    def devices_count(self):
        return 1

    def devices_get(self, index):
        if index != 0:
            raise HALError(f"device ordinal {index} out of range (1 device)", "OUT_OF_RANGE")
        return self.device

    # ---- executable -----------------------------------------------------------------------
    def executable_create(self, device, affinity, executable_format, data, constants):
        _require(device, "device")
        return create_executable(_text(executable_format), bytes(data or b""))

    def executable_lookup_function(self, executable, name):
        if executable is None:
            _require(executable, "executable")
        if type(name) is bytes:  # a rodata name, looked up before: `lookup_data`'s cache
            ordinal = executable.looked_up.get(name)
            if ordinal is not None:
                return ordinal
        return executable.lookup_data(name if type(name) is bytes else bytes(name or b""))

    # ---- fences ---------------------------------------------------------------------------
    def fence_create(self, device, flags):
        return Fence([(Semaphore(0), 1)])  # `Fence.new()`, inlined

    def fence_join(self, flags, fences):
        timepoints = [tp for fence in fences if fence is not None for tp in fence.timepoints]
        return Fence(timepoints)

    def fence_query(self, fence):
        if fence is None or fence.is_reached():
            return 0
        return 10 if fence.failure() is not None else 4

    def fence_signal(self, fence):
        _require(fence, "fence").signal()

    def fence_fail(self, fence, status):
        _require(fence, "fence").fail(HALError(f"fence failed with status {status}"))

    def fence_await(self, timeout_millis, flags, fences):
        timeout = None if timeout_millis < 0 else timeout_millis / 1000.0
        recorder = CURRENT.get()
        if recorder is None:
            if all_reached(fences):  # signalled already (local-sync, a call run on the caller)
                return 0
            return 0 if self.device.wait_fences(fences, timeout) else 4  # 4: DEADLINE_EXCEEDED
        start = recorder.now()
        try:
            reached = self.device.wait_fences(fences, timeout)
        finally:
            end = recorder.now()
            recorder.complete("hal.fence.await", "wait", start, end)
        for fence in fences:
            if reached and fence is not None and fence.timepoints:
                recorder.fence_wait(fence, end - 0.001, enclosing=True)
        return 0 if reached else 4


_IMPORTS = {
    name: name.replace(".", "_")
    for name in (
        "allocator.allocate",
        "allocator.import",
        "buffer.assert",
        "buffer.subspan",
        "buffer.length",
        "buffer.load",
        "buffer.store",
        "buffer_view.create",
        "buffer_view.assert",
        "buffer_view.buffer",
        "buffer_view.element_type",
        "buffer_view.encoding_type",
        "buffer_view.rank",
        "buffer_view.dim",
        "buffer_view.trace",
        "command_buffer.create",
        "command_buffer.finalize",
        "command_buffer.begin_debug_group",
        "command_buffer.end_debug_group",
        "command_buffer.execution_barrier",
        "command_buffer.fill_buffer",
        "command_buffer.copy_buffer",
        "command_buffer.dispatch",
        "device.allocator",
        "device.query.i64",
        "device.queue.alloca",
        "device.queue.dealloca",
        "device.queue.barrier",
        "device.queue.execute",
        "device.queue.execute.indirect",
        "device.queue.flush",
        "devices.count",
        "devices.get",
        "executable.create",
        "executable.lookup.function",
        "fence.create",
        "fence.join",
        "fence.query",
        "fence.signal",
        "fence.fail",
        "fence.await",
    )
}
"""Import name (without `hal.`) -> method name."""


def check_dispatch(executable, function_id) -> None:
    """Raise what `command_buffer.dispatch` of a one-shot command buffer raises for
    `executable` and `function_id` (null, or an export ordinal out of range), if anything."""
    if executable is None:
        raise HALError("executable is null", code="INVALID_ARGUMENT")
    if not 0 <= function_id < len(executable.functions):
        raise HALError(f"dispatch function ordinal {function_id} is out of range")


def import_method(name: str) -> str | None:
    """The `HALModule` method implementing import `name` (`hal.fence.await`), or None."""
    return _IMPORTS.get(name[4:]) if name.startswith("hal.") else None


RESULT_RANGES = {"hal.buffer_view.dim": (0, DIM_LIMIT)}
"""Import name -> the range of its integer result, which the translated VM code may rely on
(`vm.value_ranges`): every buffer view's dims are in `[0, DIM_LIMIT]`."""

INLINE_CALLS = {
    "hal.buffer_view.dim": ("{call} if {a0} is None else {a0}.shape[{a1}]", ()),
    "hal.executable.lookup.function": (
        "{call} if {a0} is None or (w := {a0}.looked_up.get({a1})) is None else w",
        (1,),
    ),
}
"""Import name -> (expression, arguments that must be rodata): what the translated VM code may
write in place of a call of the import (`vm.translate`), its result the import's for every
operand. `{call}` is the call itself, taken where the import must raise or do more than read
(a null operand, a name not looked up yet); `{aN}` the N-th argument. A `?` function reads its
dims and looks its exports up on every call; each is a read of what the import reads."""

NONNULL_RESULTS = frozenset(
    {"hal.buffer_view.buffer", "hal.buffer.subspan", "hal.allocator.allocate",
     "hal.device.queue.alloca"}
)  # fmt: skip
"""Imports whose one result is never null when they return (a view always has its buffer;
the others make one), which the translated VM code may rely on (`vm.translate`)."""

EXPORTED_TYPES = (Buffer, BufferView, CommandBuffer, Device, Executable, Fence)
