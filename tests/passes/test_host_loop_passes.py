"""The Stream passes on a host `scf.for` carrying a tensor (tests/dynamic/programs/
host_loop_rows.mlir at the flow phase): ConvertToStreamPass's structural expansion,
RefineUsagePass's one lifetime per carried slot, PropagateTimepointsPass's carried
timepoint and SCFToControlFlowPass's blocks, each checked on what the pass changes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _stream_ir import parse, print_ir, run, stream_steps

import ireelab
from ireelab.compiler.stream.convert_to_stream import ConvertToStreamPass
from ireelab.compiler.stream.scf_to_control_flow import SCFToControlFlowPass

PROGRAM = Path(__file__).parents[1] / "dynamic" / "programs" / "host_loop_rows.mlir"


@pytest.fixture(scope="module")
def flow_text() -> str:
    return ireelab.compile(str(PROGRAM), compile_to="flow").ir()


def _until(flow_text: str, last: str):
    """The flow-phase program after the stream steps up to pass `last` (its class name)."""
    module = parse(flow_text)
    for step in stream_steps():
        run(module, step.make())
        if step.ref.endswith(":" + last):
            return module
    raise AssertionError(last)


def _host(module) -> str:
    text = print_ir(module)
    return text[text.index("util.func public @rows") :]


def test_a_carried_tensor_becomes_a_resource_and_its_size(flow_text):
    host = _host(run(parse(flow_text), ConvertToStreamPass()))
    loop = re.search(r"scf\.for %\w+ = .* iter_args\((.*)\) -> \((.*)\) \{", host)
    assert loop, host
    assert loop.group(2) == "!stream.resource<*>, index"
    assert re.search(r"scf\.yield %\w+, %\w+ : !stream\.resource<\*>, index", host)
    assert "tensor<2x4xf32>)" not in loop.group(0)


def test_every_value_of_the_slot_gets_one_lifetime(flow_text):
    # the loop's result is exported: the alloca it starts from, the block argument, the
    # copy each iteration writes and the result are all external
    host = _host(_until(flow_text, "RefineUsagePass"))
    loop = re.search(r"scf\.for .* -> \((.*)\) \{", host).group(1)
    assert loop == "!stream.resource<external>, index"
    assert "!stream.resource<transient>" not in host


def test_the_loop_carries_its_timepoint(flow_text):
    host = _host(_until(flow_text, "PropagateTimepointsPass"))
    loop = re.search(r"scf\.for .* -> \((.*)\) \{", host).group(1)
    assert loop == "!stream.resource<external>, index, !stream.timepoint"
    body = host[host.index("scf.for") : host.index("scf.yield")]
    assert re.search(r"stream\.async\.execute .* await\(%\w+\) =>", body)


def test_the_loop_becomes_a_header_a_body_and_an_exit(flow_text):
    module = _until(flow_text, "ScheduleAllocationPass")
    host = _host(run(module, SCFToControlFlowPass()))
    assert "scf.for" not in host
    header = re.search(r"^\s*\^bb1\(([^)]*)\):", host, re.M).group(1)
    types = [a.split(": ")[1] for a in header.split(", ")]
    assert types == ["index", "!stream.resource<external>", "index", "!stream.timepoint"]
    assert re.search(r"arith\.cmpi slt, %\w+, %c2 : index\n\s*cf\.cond_br %\w+, \^bb2, \^bb3", host)
    assert re.search(r"cf\.br \^bb1\(%\w+, %\w+, %\w+, %\w+ : index, ", host)
