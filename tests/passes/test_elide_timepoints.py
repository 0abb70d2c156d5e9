"""ElideTimepointsPass (iree-stream-elide-timepoints)."""

from __future__ import annotations

from _stream_ir import flow_reference, parse, print_ir, run, run_stream_stage

from ireelab.compiler.stream.elide_timepoints import ElideTimepointsPass


def test_immediate_inputs_leave_only_allocation_waits():
    # after elision mlp3 waits only on its two allocations, as IREE's output does
    text = print_ir(run_stream_stage(flow_reference("d_mlp3"), until="ElideTimepointsPass"))
    assert "stream.timepoint.immediate" not in text
    assert (
        "stream.timepoint.join max(%result_timepoint, %result_timepoint_1) => !stream.timepoint"
        in text
    )


IR = """
builtin.module {
  func.func @f(%r: !stream.resource<external>, %n: index) -> !stream.resource<external> {
    %t = stream.timepoint.immediate => !stream.timepoint
    %x = stream.timepoint.await %t => %r : !stream.resource<external>{%n}
    %a, %at = stream.resource.alloca uninitialized await(%t) => !stream.resource<transient>{%n} => !stream.timepoint
    func.return %x : !stream.resource<external>
  }
}
"""


def test_waits_on_immediate_disappear():
    # a host await and an alloca wait on an immediate timepoint: both drop the wait
    text = print_ir(run(parse(IR), ElideTimepointsPass()))
    assert "stream.timepoint" not in text.replace("=> !stream.timepoint", "")
    assert "func.return %r" in text
    assert "stream.resource.alloca uninitialized : !stream.resource<transient>{%n}" in text


ASYNC_RESULT = """
builtin.module {
  func.func @f(%r: !stream.resource<external>, %n: index, %t: !stream.timepoint, %fence: !hal.fence) -> !stream.resource<external> {
    %x = stream.timepoint.await %t => %r : !stream.resource<external>{%n}
    %y, %yt = stream.timepoint.barrier %x : !stream.resource<external>{%n} => !stream.timepoint
    stream.timepoint.chain_external %yt => (%fence : !hal.fence)
    func.return %y : !stream.resource<external>
  }
}
"""


def test_a_barrier_on_an_awaited_resource_is_the_awaited_timepoint():
    # IREE's async ABI: the result is signalled through the caller's fence, so the host await
    # goes, and the fence is chained to the execution's own timepoint
    text = print_ir(run(parse(ASYNC_RESULT), ElideTimepointsPass()))
    assert "stream.timepoint.await" not in text and "stream.timepoint.barrier" not in text
    assert "stream.timepoint.chain_external %t => (%fence : !hal.fence)" in text
    assert "func.return %r" in text


def test_an_await_nothing_reads_is_dropped():
    ir = ASYNC_RESULT.replace("func.return %y", "func.return %r")
    text = print_ir(run(parse(ir), ElideTimepointsPass()))
    assert "stream.timepoint.await" not in text
