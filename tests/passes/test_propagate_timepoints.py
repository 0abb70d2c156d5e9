"""PropagateTimepointsPass (iree-stream-propagate-timepoints)."""

from __future__ import annotations

import re

from _stream_ir import flow_reference, parse, print_ir, run, run_stream_stage

from ireelab.compiler.stream.propagate_timepoints import PropagateTimepointsPass
from ireelab.compiler.stream.schedule_execution import ScheduleExecutionPass


def test_imported_inputs_are_immediately_ready():
    # two imported inputs: two immediate timepoints joined into the region's await
    text = print_ir(
        run_stream_stage(flow_reference("l_two_results"), until="PropagateTimepointsPass")
    )
    assert text.count("stream.timepoint.immediate => !stream.timepoint") == 2
    join = re.search(
        r"(%\w+) = stream\.timepoint\.join max\(%\w+, %\w+\) => !stream\.timepoint", text
    )
    assert join
    assert (
        f"stream.async.execute on(#hal.device.affinity<@__device_0>) await({join.group(1)}) => with("
        in text
    )


CHAIN = """
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


def test_second_region_waits_on_the_first_instead_of_the_host():
    # the second execute captures the first's result directly and awaits its timepoint
    text = print_ir(run(parse(CHAIN), ScheduleExecutionPass(), PropagateTimepointsPass()))
    first = re.search(r"%(\w+), %(\w+) = stream\.async\.execute", text)
    assert first
    result, timepoint = first.groups()
    assert re.search(rf"stream\.async\.execute await\(%{timepoint}\) => with\(%{result} as", text)
