"""A block's straight run of one-shot `create`, `dispatch`, `execution_barrier`, `finalize`
translated as one `hal` call (`runtime/vm/fused_commands.py`): the same results and the same
errors, at the same point, as the separate import calls, and the separate calls wherever the
run cannot be fused."""

from __future__ import annotations

import numpy as np
import pytest
from scale_executable import float_buffer, floats

from ireelab.runtime.errors import HALError
from ireelab.runtime.hal.buffer_view import BufferView
from ireelab.runtime.hal.module import INLINE_CALLS, NONNULL_RESULTS, HALModule, check_dispatch
from ireelab.runtime.vm.decoder import DecodedFunction, Instruction
from ireelab.runtime.vm.interpreter import link_functions
from ireelab.schemas.vm_opcodes import BANK_SHIFT, IMPORT_BIT

NAMES = [
    "hal.command_buffer.create",
    "hal.command_buffer.dispatch",
    "hal.command_buffer.execution_barrier",
    "hal.command_buffer.finalize",
    "hal.executable.lookup.function",
    "hal.buffer_view.buffer",
]


def ref(n: int) -> int:
    return (2 << BANK_SHIFT) | n


def _record(
    modes_register: int | None = None, lookup: bool = False, views: bool = False
) -> DecodedFunction:
    """record(device, executable, source, target, ordinal, rows, factor[, modes]) -> the
    finalized command buffer of one `target = source * factor` dispatch and a barrier.
    Registers: i32 0-2 ordinal, rows, factor; ref 0-3 the ref arguments, ref 4 the command
    buffer; `modes_register` (an argument) instead of the constant one-shot mode; `lookup`:
    the ordinal argument replaced by the executable's lookup of rodata 0 (ref 5); `views`:
    source and target are buffer views, their buffers read with `hal.buffer_view.buffer`."""
    modes = 3 if modes_register is None else modes_register
    scalar = (-1, 1)
    found = [
        Instruction("const.ref.rodata", (ref(5), 0)),
        Instruction("call", (IMPORT_BIT | 4, (ref(1), ref(5)), (0,))),
    ]
    buffers = [Instruction("call", (IMPORT_BIT | 5, (ref(r),), (ref(r),))) for r in (2, 3)]
    body = [
        *(found if lookup else []),
        *(buffers if views else []),
        Instruction("const.i32", (3, 1)),  # ONE_SHOT
        Instruction("const.i32.zero", (4,)),
        Instruction("const.i32", (7, 16)),
        Instruction("const.i32", (8, 1)),
        Instruction("mul.i32", (6, 1, 7)),  # the bindings' length: rows * 16
        Instruction("call", (IMPORT_BIT | 0, (ref(0), modes, 4, 4, 4), (ref(4),))),
        Instruction("mul.i32", (5, 1, 8)),  # between create and dispatch: runs in place
        Instruction(
            "call.variadic",
            (
                IMPORT_BIT | 1,
                (scalar,) * 7 + ((1, 1), (2, 5)),
                (ref(4), ref(1), 0, 5, 8, 8, 4, 2) + (4, 4, ref(2), 4, 6) + (8, 4, ref(3), 4, 6),
                (),
            ),
        ),
        Instruction("call", (IMPORT_BIT | 2, (ref(4), 4, 4, 4), ())),
        Instruction("call", (IMPORT_BIT | 3, (ref(4),), ())),
        Instruction("return", ((ref(4),),)),
    ]
    arguments = (ref(0), ref(1), ref(2), ref(3), 0, 1, 2)
    if modes_register is not None:
        arguments += (modes_register,)
    return DecodedFunction("record", (10, 0, 6), arguments, [body])


def _link(hal: HALModule, fused: bool, function: DecodedFunction | None = None, rodata=()):
    imports = [hal.functions[name] for name in NAMES]
    globals_ = {"i32": [], "i64": [], "ref": []}
    pair = (hal.command_buffer_record, check_dispatch) if fused else None
    (linked,) = link_functions(
        [function or _record()],
        imports,
        NAMES,
        globals_,
        list(rodata),
        {},
        pair,
        INLINE_CALLS,
        NONNULL_RESULTS,
    )
    return linked


def _names(run, value) -> list[str]:
    """The generated names bound to `value` in the namespace of a linked function."""
    return [name for name, bound in run.run.__globals__.items() if bound == value]


def test_the_run_is_one_call_in_the_source(hal):
    """Fused: one call of `command_buffer_record`, none of dispatch, barrier or finalize
    (create's import stays, called only for a null device)."""
    fused, separate = _link(hal, fused=True), _link(hal, fused=False)
    (record,) = _names(fused, hal.command_buffer_record)
    assert fused.source.count(f"{record}(") == 1
    for name in NAMES[1:4]:
        assert _names(fused, hal.functions[name]) == []
        (called,) = _names(separate, hal.functions[name])
        assert f"{called}(" in separate.source
    assert _names(separate, hal.command_buffer_record) == []


@pytest.mark.parametrize("rows", [1, 3, 7])
def test_results_and_replays_match_the_separate_calls(hal, scale, rows):
    """The same product either way; the second size records, a repeat of a size replays."""
    fused, separate = _link(hal, fused=True), _link(hal, fused=False)
    for run in (fused, separate, fused, fused):
        source = float_buffer(hal, np.arange(4 * rows))
        target = float_buffer(hal, np.zeros(4 * rows))
        (command_buffer,) = run(hal.device, scale, source, target, 0, rows, 3)
        assert command_buffer.finalized and len(command_buffer.table) == 2
        hal.device_queue_execute(hal.device, -1, None, None, command_buffer, 0)
        np.testing.assert_array_equal(floats(target), np.arange(4 * rows) * 3)
    assert (hal.recordings.misses, hal.recordings.hits) == (1, 3)
    other = float_buffer(hal, np.ones(4 * (rows + 1)))
    fused(hal.device, scale, other, other, 0, rows + 1, 2)
    assert (hal.recordings.misses, hal.recordings.hits) == (2, 3)


def test_a_replayed_run_is_the_command_buffer_the_miss_made(hal, scale):
    """On a hit the run's command buffer is made without collecting into it: every field is
    what the miss's finalized one holds (sharing the recording's sections), and recording
    into it raises the finalized error either way."""
    fused = _link(hal, fused=True)
    made = []
    for values in ([1, 2, 3, 4], [5, 6, 7, 8]):
        source, target = float_buffer(hal, values), float_buffer(hal, np.zeros(4))
        (command_buffer,) = fused(hal.device, scale, source, target, 0, 1, 3)
        hal.device_queue_execute(hal.device, -1, None, None, command_buffer, 0)
        np.testing.assert_array_equal(floats(target), np.array(values) * 3)
        made.append(command_buffer)
    assert (hal.recordings.misses, hal.recordings.hits) == (1, 1)
    miss, hit = made
    for field in ("binding_capacity", "reusable", "finalized", "tiles", "_units", "collected"):
        assert getattr(hit, field) == getattr(miss, field), field
    assert hit.sections is miss.sections and hit.table != miss.table
    for command_buffer in made:
        with pytest.raises(HALError, match="command buffer is finalized"):
            hal.command_buffer_execution_barrier(command_buffer, 0, 0, 0)


@pytest.mark.parametrize(
    ("device", "executable", "ordinal", "message"),
    [
        ("device", None, 0, "executable is null"),
        ("device", "scale", 1, "dispatch function ordinal 1 is out of range"),
        ("device", "scale", -1, "dispatch function ordinal -1 is out of range"),
        (None, None, 5, "device is null"),  # create's error comes first, as it ran first
    ],
)
def test_errors_are_the_separate_calls_errors(hal, scale, device, executable, ordinal, message):
    buffer = float_buffer(hal, np.zeros(4))
    errors = []
    for fused in (True, False):
        run = _link(hal, fused)
        with pytest.raises(HALError, match=message) as err:
            run(
                hal.device if device else None,
                scale if executable else None,
                buffer,
                buffer,
                ordinal,
                1,
                2,
            )
        errors.append(str(err.value))
    assert errors[0] == errors[1]


def test_a_caller_table_binding_records_normally(hal, scale):
    """A null source buffer names slot 0 of the caller's binding table: the separate calls
    record the command buffer (no collected table), and it runs with the caller's table."""
    target = float_buffer(hal, np.zeros(4))
    (command_buffer,) = _link(hal, fused=True)(hal.device, scale, None, target, 0, 1, 5)
    assert command_buffer.finalized and command_buffer.table is None
    (dispatch,) = command_buffer.sections[0]
    assert [ref.buffer for ref in dispatch.bindings] == [None, target]
    table = [(float_buffer(hal, [1, 2, 3, 4]), 0, 16)]
    hal.device_queue_execute_indirect(hal.device, -1, None, None, command_buffer, 0, table)
    np.testing.assert_array_equal(floats(target), [5, 10, 15, 20])
    assert (hal.recordings.misses, hal.recordings.hits) == (0, 0)


def test_a_mode_read_at_run_time_keeps_the_separate_calls(hal, scale):
    """The mode in a register the translator cannot read: the run is written as calls."""
    run = _link(hal, fused=True, function=_record(modes_register=9))
    assert ".append(" not in run.source
    source, target = float_buffer(hal, [1, 2, 3, 4]), float_buffer(hal, np.zeros(4))
    (command_buffer,) = run(hal.device, scale, source, target, 0, 1, 2, 1)
    hal.device_queue_execute(hal.device, -1, None, None, command_buffer, 0)
    np.testing.assert_array_equal(floats(target), [2, 4, 6, 8])


def test_executable_lookup_is_the_same_from_its_cache(hal, scale):
    """`hal.executable.lookup.function` by rodata bytes, by a memoryview, and again from the
    executable's cache of names found: one ordinal; a missing name the same error each time."""
    name = scale.names[0].encode()
    first = hal.executable_lookup_function(scale, name)
    assert first == 0 and scale.looked_up == {name: 0}
    assert hal.executable_lookup_function(scale, name) == first
    assert hal.executable_lookup_function(scale, memoryview(name)) == first
    for _ in range(2):
        with pytest.raises(HALError, match="executable has no export named 'missing'"):
            hal.executable_lookup_function(scale, b"missing")
    with pytest.raises(HALError, match="executable is null"):
        hal.executable_lookup_function(None, name)


def test_executing_on_a_null_device_is_the_located_error(hal, scale):
    buffer = float_buffer(hal, np.zeros(4))
    (command_buffer,) = _link(hal, fused=True)(hal.device, scale, buffer, buffer, 0, 1, 2)
    with pytest.raises(HALError, match="device is null"):
        hal.device_queue_execute(None, -1, None, None, command_buffer, 0)


@pytest.mark.parametrize("name", [b"scale", b"missing"])
def test_an_ordinal_the_block_looked_up_is_not_checked_again(hal, scale, name):
    """The dispatch's ordinal is what `hal.executable.lookup.function` (inlined: a rodata
    name) returned for the same executable: the lookup raised for anything else, so the
    fused run writes no check of it; results and errors are the separate calls'."""
    function = _record(lookup=True)
    fused = _link(hal, fused=True, function=function, rodata=[name])
    separate = _link(hal, fused=False, function=function, rodata=[name])
    assert _names(fused, check_dispatch) == [] and ".looked_up.get(" in fused.source
    assert _names(_link(hal, fused=True), check_dispatch) != []  # an argument: checked
    outcomes = []
    for run in (fused, separate):
        source, target = float_buffer(hal, [1, 2, 3, 4]), float_buffer(hal, np.zeros(4))
        try:
            (command_buffer,) = run(hal.device, scale, source, target, 7, 1, 2)
        except HALError as err:
            outcomes.append(str(err))
            continue
        hal.device_queue_execute(hal.device, -1, None, None, command_buffer, 0)
        outcomes.append(floats(target).tolist())
    assert outcomes[0] == outcomes[1]
    expected = [2, 4, 6, 8] if name == b"scale" else "executable has no export named 'missing'"
    assert expected in outcomes[0] if isinstance(outcomes[0], str) else outcomes[0] == expected
    with pytest.raises(HALError, match="executable is null"):
        fused(hal.device, None, source, target, 7, 1, 2)


def test_buffers_of_views_are_known_not_null(hal, scale):
    """Every binding's buffer is what `hal.buffer_view.buffer` returned (`NONNULL_RESULTS`):
    the record call says so and skips looking for a caller's table slot; buffers passed in
    (maybe null: a slot) keep the look. Both give the separate calls' results."""
    fused = _link(hal, fused=True, function=_record(views=True))
    (record,) = _names(fused, hal.command_buffer_record)
    assert fused.source.count(f"{record}(") == 1 and ", False)" in fused.source
    assert ", False)" not in _link(hal, fused=True).source
    separate = _link(hal, fused=False, function=_record(views=True))
    for run in (fused, separate):
        source, target = float_buffer(hal, [1, 2, 3, 4]), float_buffer(hal, np.zeros(4))
        views = [BufferView(b, (4,), 0x21000020) for b in (source, target)]
        (command_buffer,) = run(hal.device, scale, *views, 0, 1, 3)
        hal.device_queue_execute(hal.device, -1, None, None, command_buffer, 0)
        np.testing.assert_array_equal(floats(target), [3, 6, 9, 12])
