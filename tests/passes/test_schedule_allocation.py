"""ScheduleAllocationPass (iree-stream-schedule-allocation)."""

from __future__ import annotations

import re

from _stream_ir import flow_reference, print_ir, run_stream_stage

from ireelab.compiler.stream.schedule_allocation import Slice, pack_slices


def test_packing_reuses_memory_of_dead_slices():
    # three 1 MiB buffers each live for two steps: the third reuses the first's bytes
    slices = [Slice(None, 1 << 20, 0, 1), Slice(None, 1 << 20, 1, 2), Slice(None, 1 << 20, 2, 3)]
    assert pack_slices(slices) == 2 << 20
    assert [s.offset for s in slices] == [0, 1 << 20, 0]


def test_packing_aligns_offsets():
    # a 100-byte slice next to a live one starts at the next 64-byte boundary
    slices = [Slice(None, 100, 0, 1), Slice(None, 100, 0, 1)]
    assert pack_slices(slices) == 228
    assert sorted(s.offset for s in slices) == [0, 128]


def test_mlp3_transients_share_one_slab():
    # two hidden activations in a 2 MiB transient slab, result in its own external allocation
    text = print_ir(run_stream_stage(flow_reference("d_mlp3"), until="ScheduleAllocationPass"))
    host = text[text.index("util.func public") :]
    assert (
        "stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<external>{%c262144}"
        in host
    )
    assert (
        "stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<transient>{%c2097152}"
        in host
    )
    assert re.search(
        r"wo %\w+\[%c1048576 for %c1048576\] : !stream\.resource<transient>\{%c2097152\}", host
    )
    assert re.search(
        r"stream\.resource\.dealloca on\(#hal\.device\.affinity<@__device_0>\) await\(%\w+\) => %result_1",
        host,
    )
    assert "stream.async" not in host


def test_two_results_share_one_external_allocation():
    # both outputs live in one 2 MiB allocation; the host sees them as subviews
    text = print_ir(
        run_stream_stage(flow_reference("l_two_results"), until="ScheduleAllocationPass")
    )
    assert "!stream.resource<external>{%c2097152} => !stream.timepoint" in text
    assert "stream.cmd.concurrent {" in text
    assert re.search(
        r"stream\.resource\.subview %\w+\[%c1048576\] : !stream\.resource<external>\{%c2097152\} -> !stream\.resource<external>\{%c1048576\}",
        text,
    )
