"""ScheduleExecutionPass (iree-stream-schedule-execution)."""

from __future__ import annotations

import re

from _stream_ir import flow_reference, parse, print_ir, run, run_stream_stage

from ireelab.compiler.stream.schedule_execution import ScheduleExecutionPass


def test_dispatches_in_one_execute_region_awaited_before_export():
    # all three mlp3 dispatches run in one execute region; the host awaits its one result
    text = print_ir(run_stream_stage(flow_reference("d_mlp3"), until="ScheduleExecutionPass"))
    host = text[text.index("util.func public") :]
    assert host.count("stream.async.execute") == 1
    execute = re.search(
        r"stream\.async\.execute on\(#hal\.device\.affinity<@__device_0>\) with\(", host
    )
    assert execute
    region = host[execute.start() : host.index("} => !stream.timepoint")]
    assert region.count("stream.async.dispatch @mlp3_dispatch_") == 3
    assert "on(#hal" not in region[region.index("{") :]  # affinity moves to the region
    assert re.search(r"stream\.yield %\w+ : !stream\.resource<external>\{%c262144\}", region)
    assert host.index("stream.timepoint.await") < host.index("stream.tensor.export")


CYCLE = """
builtin.module {
  func.func @f(%bv: !hal.buffer_view) -> !stream.resource<external> {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %r = stream.tensor.import %bv : !hal.buffer_view -> tensor<16xf32> in !stream.resource<external>{%c64}
    %a = stream.async.dispatch @ex::@fn(%r[%c0 to %c64 for %c64]) : (!stream.resource<external>{%c64}) -> !stream.resource<external>{%c64}
    %s = stream.resource.size %a : !stream.resource<external>
    %b = stream.async.dispatch @ex::@fn(%a[%c0 to %c64 for %c64], %s) : (!stream.resource<external>{%c64}, index) -> !stream.resource<external>{%c64}
    func.return %b : !stream.resource<external>
  }
}
"""


def test_host_work_between_dispatches_splits_the_partition():
    # the second dispatch needs a host value computed from the first: two execute regions
    text = print_ir(run(parse(CYCLE), ScheduleExecutionPass()))
    assert text.count("stream.async.execute") == 2
    assert text.count("stream.timepoint.await") == 2
    assert text.index("stream.resource.size") < text.rindex("stream.async.execute")
