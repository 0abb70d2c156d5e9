"""`import_dump`: the real IREE's dump of the founding note's matmul as an ireelab Trace."""

from __future__ import annotations

import time

import pytest
from iree_support import REFERENCE, read_data

from ireelab.compiler.trace import PassRecord, Trace
from ireelab.diagnostics import CompileError
from ireelab.iree import import_dump
from ireelab.iree.ir_summary import summarize_dispatches, summarize_schedule

REFERENCE_PASSES = REFERENCE / "iree-3.13-tiny-matmul-passes.txt"


def reference_pass_names() -> list[str]:
    lines = REFERENCE_PASSES.read_text().splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("# unique passes")) + 1
    end = next(k for k, line in enumerate(lines) if line.startswith("# execution counts"))
    return [line.strip() for line in lines[start:end] if line.strip()]


def test_every_execution_is_a_record_of_ireelabs_trace_type(tiny_trace: Trace) -> None:
    assert isinstance(tiny_trace, Trace) and len(tiny_trace) == 742
    assert all(isinstance(r, PassRecord) for r in tiny_trace)
    assert [r.index for r in tiny_trace] == list(range(742))
    names = list(dict.fromkeys(r.name for r in tiny_trace))
    assert names == reference_pass_names()  # the 241 distinct passes, in first-run order


def test_records_carry_flags_and_find_works_by_flag(tiny_trace: Trace) -> None:
    (stream,) = tiny_trace.find("iree-stream-conversion")
    assert stream.name == "ConvertToStreamPass" and stream.stage == "stream"
    assert (
        stream.header()
        == "// -----// IR Dump After ConvertToStreamPass: iree-stream-conversion //----- //"
    )
    wrap = tiny_trace.find("WrapEntryPointsPass")[0]
    assert wrap.flag == "iree-abi-wrap-entry-points{invocation-model=sync}"


def test_every_record_holds_the_whole_module(tiny_trace: Trace) -> None:
    # Function passes printed only the function; the trace holds the module around it.
    for record in tiny_trace:
        body = [line for line in record.ir.splitlines() if not line.startswith(("#", "!"))]
        assert body[0].startswith("module"), record.name
        assert body[-1] == "}", record.name
    cse = [r for r in tiny_trace.find("cse") if r.stage == "flow"][0]
    assert "util.global private @__device_0" in cse.ir and "util.func public @matmul" in cse.ir


def test_changed_flags_follow_the_ir(tiny_trace: Trace) -> None:
    for k in range(1, len(tiny_trace)):
        record = tiny_trace[k]
        assert record.changed == (record.ir != tiny_trace[k - 1].ir)
    assert tiny_trace.find("WrapEntryPointsPass")[0].changed
    assert tiny_trace.find("FormDispatchRegionsPass")[0].changed


def test_flow_and_stream_ends_match_the_reference_facts(tiny_trace: Trace, reference_json) -> None:
    facts = reference_json["a0_matmul_tiny"]
    flow = summarize_dispatches(tiny_trace.stage("flow")[-1].ir)
    assert list(flow.exports) == facts["exports"]
    assert flow.contents() == facts["dispatch_contents"]
    schedule = summarize_schedule(tiny_trace.stage("stream")[-1].ir)
    assert schedule.__dict__ == facts["stream"]


def test_source_becomes_the_input_ir(tiny_dump: str) -> None:
    source = (REFERENCE / "programs" / "a0_matmul_tiny.mlir").read_text()
    trace = import_dump(tiny_dump, source=source)
    assert trace.input_ir == source and trace.ir_before(0) == source


def test_a_30000_line_dump_loads_in_seconds(tiny_dump: str) -> None:
    assert tiny_dump.count("\n") > 30000
    started = time.perf_counter()
    import_dump(tiny_dump)
    assert time.perf_counter() - started < 10.0  # ~0.3 s here; generous for loaded CI machines


def test_a_dump_file_path_is_read(tmp_path, tiny_dump: str) -> None:
    path = tmp_path / "dump.txt"
    path.write_text(tiny_dump)
    assert len(import_dump(path)) == len(import_dump(str(path))) == 742


def test_threaded_dump_of_two_executables() -> None:
    trace = import_dump(read_data("l_two_results.after-all.threaded.txt.xz"))
    order = [r.stage for r in trace]
    assert order == sorted(
        order, key=["input", "device", "flow", "stream", "codegen", "hal", "vm"].index
    )
    flow = summarize_dispatches(trace.stage("flow")[-1].ir)
    assert flow.dispatch_sites == 2
    assert summarize_schedule(trace.stage("stream")[-1].ir).concurrent_blocks == 1


def test_the_stepper_and_the_graphs_open_it(tiny_trace: Trace) -> None:
    pytest.importorskip("ipywidgets")
    from ireelab.notebook.stepper import Stepper
    from ireelab.viz.dispatch_graph import dispatch_graph
    from ireelab.viz.timepoint_graph import timepoint_graph

    stepper = Stepper(tiny_trace)
    stepper.select_stage("stream")
    assert stepper.current.name == "VerifyInputPass"
    assert stepper.jump("ConvertToStreamPass") and stepper.current.name == "ConvertToStreamPass"
    assert "matmul_dispatch_0_matmul_2x2x4_f32" in dispatch_graph(tiny_trace).source
    assert "stream" in timepoint_graph(tiny_trace).source.lower()


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "no '// -----// IR Dump After"),
        ("module {\n}\n", "no '// -----// IR Dump After"),
        (
            "// -----// IR Dump Before CSEPass: cse //----- //\nmodule {\n}\n",
            "only 'IR Dump Before'",
        ),
        ("/no/such/dump.txt", "cannot read the dump"),
    ],
)
def test_bad_input_is_a_compile_error(text: str, message: str) -> None:
    with pytest.raises(CompileError, match=message):
        import_dump(text)
