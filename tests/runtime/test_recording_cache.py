"""One-shot command buffers made through the `hal` module collect a key and a binding table,
and replay the recording of that key (`runtime/hal/recording_cache.py`): dispatches, fills,
copies and barriers on the buffers of each execution, a new recording whenever anything but
the buffers differs, and ordinary recording for what the key cannot describe."""

from __future__ import annotations

import numpy as np
import pytest
from scale_executable import float_buffer, floats

from ireelab.runtime.errors import HALError
from ireelab.runtime.hal.command_buffer import ONE_SHOT


def _run(hal, scale, source, target, factor, *, fill=None, copy=None, rows=None):
    """Record (one-shot) and execute: an optional fill of `fill`, a barrier, `target =
    source * factor`, a barrier, an optional copy `copy = (source, target)`."""
    rows = source.length // 16 if rows is None else rows
    command_buffer = hal.command_buffer_create(hal.device, ONE_SHOT, 0, -1, 0)
    if fill is not None:
        hal.command_buffer_fill_buffer(command_buffer, fill, 0, fill.length, 0, 0, 4, 0)
        hal.command_buffer_execution_barrier(command_buffer, 0, 0, 0)
    bindings = [(0, 0, source, 0, 16 * rows), (1, 0, target, 0, 16 * rows)]
    hal.command_buffer_dispatch(command_buffer, scale, 0, rows, 1, 1, 0, [factor], bindings)
    if copy is not None:
        hal.command_buffer_execution_barrier(command_buffer, 0, 0, 0)
        copy_source, copy_target = copy
        hal.command_buffer_copy_buffer(
            command_buffer, 0, 0, copy_source, 0, copy_target, 0, copy_source.length, 0
        )
    hal.command_buffer_finalize(command_buffer)
    hal.device_queue_execute(hal.device, -1, None, None, command_buffer, 0)
    return command_buffer


def test_replay_binds_each_executions_buffers(hal, scale):
    outputs = []
    for values in ([1, 2, 3, 4, 5, 6, 7, 8], [-1, 0, 1, 2, 3, 4, 5, 6], [9] * 8):
        source, target = float_buffer(hal, values), float_buffer(hal, [0] * 8)
        _run(hal, scale, source, target, 3)
        outputs.append((target, 3 * np.asarray(values, np.float32)))
    for target, expect in outputs:
        np.testing.assert_array_equal(floats(target), expect)
    cache = hal.recordings
    assert (cache.misses, cache.hits, len(cache.recordings)) == (1, 2, 1)


def test_constants_workgroups_and_lengths_are_in_the_key(hal, scale):
    source, target = float_buffer(hal, range(12)), float_buffer(hal, [0] * 12)
    _run(hal, scale, source, target, 2, rows=2)  # 2 rows of 3
    np.testing.assert_array_equal(floats(target), [0, 2, 4, 6, 8, 10, 12, 14, 0, 0, 0, 0])
    _run(hal, scale, source, target, 5, rows=2)  # another push constant
    _run(hal, scale, source, target, 5, rows=3)  # another workgroup count and length
    np.testing.assert_array_equal(floats(target), 5 * np.arange(12, dtype=np.float32))
    _run(hal, scale, source, target, 2, rows=2)  # the first again
    assert (hal.recordings.misses, hal.recordings.hits) == (3, 1)


def test_fills_copies_and_barriers_replay_in_order(hal, scale):
    results = []
    for values in ([1, 2, 3, 4], [5, 6, 7, 8]):
        source, target, copied = (
            float_buffer(hal, values),
            float_buffer(hal, [0] * 4),
            float_buffer(hal, [7] * 4),
        )
        zeroed = float_buffer(hal, [1] * 4)
        _run(hal, scale, source, target, -2, fill=zeroed, copy=(target, copied))
        results.append((zeroed, target, copied, -2 * np.asarray(values, np.float32)))
    for zeroed, target, copied, expect in results:
        np.testing.assert_array_equal(floats(zeroed), [0, 0, 0, 0])
        np.testing.assert_array_equal(floats(target), expect)
        np.testing.assert_array_equal(floats(copied), expect)
    (recording,) = hal.recordings.recordings.values()
    assert [[c.name for c in s] for s in recording.sections] == [["fill"], ["scale"], ["copy"]]
    assert (hal.recordings.misses, hal.recordings.hits) == (1, 1)


def test_a_short_buffer_fails_a_replay_as_it_fails_a_recording(hal, scale):
    source, target = float_buffer(hal, range(8)), float_buffer(hal, [0] * 8)
    _run(hal, scale, source, target, 1)
    short = float_buffer(hal, range(4))  # 16 bytes where the dispatch binds 32
    with pytest.raises(HALError, match=r"OUT_OF_RANGE.*outside the buffer's 16 bytes"):
        _run(hal, scale, short, target, 1, rows=2)
    assert hal.recordings.hits == 1


def test_a_binding_table_slot_records_normally(hal, scale):
    """A dispatch binding a slot of the caller's table (after one that binds buffers): what
    was collected becomes ordinary commands, and the caller's table is used."""
    first_source, first_target = float_buffer(hal, range(4)), float_buffer(hal, [0] * 4)
    slotted, slotted_target = float_buffer(hal, [1, 1, 2, 2]), float_buffer(hal, [0] * 4)
    command_buffer = hal.command_buffer_create(hal.device, ONE_SHOT, 0, -1, 1)
    direct = [(0, 0, first_source, 0, 16), (1, 0, first_target, 0, 16)]
    hal.command_buffer_dispatch(command_buffer, scale, 0, 1, 1, 1, 0, [4], direct)
    indirect = [(0, 0, None, 0, 16), (1, 0, slotted_target, 0, 16)]
    hal.command_buffer_dispatch(command_buffer, scale, 0, 1, 1, 1, 0, [10], indirect)
    hal.command_buffer_finalize(command_buffer)
    assert command_buffer.table is None
    assert [ref.buffer for ref in command_buffer.sections[0][0].bindings] == [
        first_source,
        first_target,
    ]
    table = [(slotted, 0, 16)]
    hal.device_queue_execute_indirect(hal.device, -1, None, None, command_buffer, 0, table)
    np.testing.assert_array_equal(floats(first_target), [0, 4, 8, 12])
    np.testing.assert_array_equal(floats(slotted_target), [10, 10, 20, 20])
    assert (hal.recordings.misses, hal.recordings.hits) == (0, 0)


def test_a_fill_of_a_table_slot_records_normally(hal):
    target = float_buffer(hal, [3] * 4)
    command_buffer = hal.command_buffer_create(hal.device, ONE_SHOT, 0, -1, 1)
    hal.command_buffer_fill_buffer(command_buffer, None, 4, 8, 0, 0, 4, 0)
    hal.command_buffer_finalize(command_buffer)
    hal.device_queue_execute_indirect(
        hal.device, -1, None, None, command_buffer, 0, [(target, 0, 16)]
    )
    np.testing.assert_array_equal(floats(target), [3, 0, 0, 3])


def test_recording_after_finalize_is_refused(hal, scale):
    source, target = float_buffer(hal, range(4)), float_buffer(hal, [0] * 4)
    command_buffer = _run(hal, scale, source, target, 1)
    bindings = [(0, 0, source, 0, 16), (1, 0, target, 0, 16)]
    with pytest.raises(HALError, match="finalized"):
        hal.command_buffer_dispatch(command_buffer, scale, 0, 1, 1, 1, 0, [1], bindings)
    with pytest.raises(HALError, match="finalized"):
        hal.command_buffer_execution_barrier(command_buffer, 0, 0, 0)
    with pytest.raises(HALError, match="out of range"):
        fresh = hal.command_buffer_create(hal.device, ONE_SHOT, 0, -1, 0)
        hal.command_buffer_dispatch(fresh, scale, 1, 1, 1, 1, 0, [1], bindings)
