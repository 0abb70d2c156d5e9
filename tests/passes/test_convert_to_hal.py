"""ConvertToHALPass (iree-hal-conversion) on IREE's stream output, after interfaces and codegen.

Inputs are the reference `*.stream.mlir` files run through MaterializeInterfacesPass with the
export count regions made constant (what codegen does). Checks: the host ops of IREE's
`a0_matmul_tiny.hal.mlir`, barriers between serial dispatches and none inside a concurrent
block, fences chained from allocation to execution to the final wait, subviews exported at
their offsets, and located errors where codegen has not run.
"""

from __future__ import annotations

import re

import pytest
from reference_paths import REFERENCE
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.rewriter import Rewriter

from ireelab.compiler.context import make_context
from ireelab.compiler.hal.convert_to_hal import ConvertToHALPass
from ireelab.compiler.hal.materialize_interfaces import MaterializeInterfacesPass
from ireelab.compiler.source import parse_source
from ireelab.diagnostics import CompileError
from ireelab.dialects import hal
from ireelab.dialects import iree_tensor_ext as ite

IR = REFERENCE / "iree-3.13-ir"


def _prepare(name: str, counts: tuple[int, int, int] | None = (4, 1, 1)):
    module = parse_source((IR / name).read_text(), name)
    MaterializeInterfacesPass().apply(make_context(), module)
    if counts is not None:
        for op in list(module.walk()):
            if isinstance(op, ite.DispatchWorkgroupCountFromSliceOp):
                consts = [arith.ConstantOp(IntegerAttr(c, IndexType())) for c in counts]
                Rewriter.replace_op(op, consts, [c.result for c in consts])
    return module


def _convert(name: str, indirect: bool = True) -> str:
    module = _prepare(name)
    ConvertToHALPass(indirect_command_buffers=indirect).apply(make_context(), module)
    module.verify()
    return str(module)


def _assert_in_order(text: str, steps: list[str]) -> None:
    position = 0
    for step in steps:
        match = re.compile(step).search(text, position)
        assert match, step
        position = match.end()


def _host(text: str, fn: str) -> str:
    return text[text.index(f"util.func public @{fn}(") :]


def test_matmul_host_code_uses_irees_hal_ops():
    text = _convert("a0_matmul_tiny.stream.mlir", indirect=False)
    host = _host(text, "matmul")
    # --iree-hal-indirect-command-buffers=false: a one-shot command buffer per call, in the
    # order of IREE's host code
    steps = [
        r"%__device = util\.global\.load immutable @__device_0 : !hal\.device",
        r"hal\.buffer_view\.assert<%arg0 : !hal\.buffer_view> message\(\"input0\"\)",
        r"%buffer = hal\.buffer_view\.buffer<%arg0 : !hal\.buffer_view> : !hal\.buffer",
        r"hal\.buffer\.assert<%buffer : !hal\.buffer> message\(\"tensor\"\) allocator\(%allocator : !hal\.allocator\) minimum_length\(%c32\) type\(DeviceVisible\)",
        r"%(\w+) = hal\.fence\.create device\(%__device : !hal\.device\) flags\(\"None\"\) : !hal\.fence",
        r"%transient_buffer = hal\.device\.queue\.alloca<%__device : !hal\.device> affinity\(%c-1_i64\) wait\(%\w+\) signal\(%fence\) pool\(%c0_i64\) type\(%memory_type\) usage\(%buffer_usage\) flags\(\"None\"\) : !hal\.buffer\{%c16\}",
        r"%cmd = hal\.command_buffer\.create device\(%__device : !hal\.device\) mode\(\"OneShot\|AllowInlineExecution\"\) categories\(\"Transfer\|Dispatch\"\)",
        r"%function_id = hal\.executable\.lookup\.function target\(%\w+ : !hal\.executable\) function\(@matmul_dispatch_0::@embedded_elf_x86_64::@matmul_dispatch_0_matmul_2x2x4_f32\) : i64",
        r"hal\.command_buffer\.dispatch<%cmd : !hal\.command_buffer> target\(%\w+ : !hal\.executable\)\[%function_id\] workgroups\(\[%c4, %c1, %c1\]\) bindings\(\[",
        r"\(%buffer : !hal\.buffer\)\[%c0\w*, %c32\]",
        r"\(%transient_buffer : !hal\.buffer\)\[%c0\w*, %c16\]",
        r"hal\.command_buffer\.execution_barrier<%cmd : !hal\.command_buffer> source\(\"Dispatch\|Transfer\|CommandRetire\"\) target\(\"CommandIssue\|Dispatch\|Transfer\"\)",
        r"hal\.command_buffer\.finalize<%cmd : !hal\.command_buffer>",
        r"hal\.device\.queue\.execute<%__device : !hal\.device> affinity\(%c-1_i64\) wait\(%fence\) signal\(%(\w+)\) commands\(%cmd\)",
        r"%status = hal\.fence\.await until\(\[%\w+\]\) timeout_millis\(%c-1_i32\) flags\(\"None\"\) : i32",
        r"util\.status\.check_ok %status, \"failed to wait on timepoint\"",
        r"%view = hal\.buffer_view\.create buffer\(%transient_buffer : !hal\.buffer\)\[%c0\w*, %c16\] shape\(\[%c2, %c2\]\)",
        r"util\.return %view : !hal\.buffer_view",
    ]
    _assert_in_order(host, steps)
    assert "stream." not in text


def test_reusable_execute_is_recorded_in_a_memoize_region_with_binding_slots():
    # IREE's default: the command buffer is recorded inside hal.device.memoize with the
    # call's three buffers as binding-table slots 0-2, and submitted indirectly with them
    host = _host(_convert("a0_matmul_tiny.stream.mlir"), "matmul")
    steps = [
        r"%transient_buffer = hal\.device\.queue\.alloca<",
        r"%(\w+) = hal\.device\.memoize<%__device : !hal\.device> affinity\(%c-1_i64\) -> !hal\.command_buffer \{",
        r"%cmd = hal\.command_buffer\.create device\(%__device : !hal\.device\) mode\(\"None\"\) categories\(\"Transfer\|Dispatch\"\) affinity\(%c-1_i64\) bindings\(%c3\)",
        r"hal\.command_buffer\.dispatch<%cmd : !hal\.command_buffer> target\(%\w+ : !hal\.executable\)\[%function_id\] workgroups\(\[%c4, %c1, %c1\]\) bindings\(\[",
        r"\((%c0\w*) : index\)\[%c0\w*, %c32\]",
        r"\((%c1) : index\)\[%c0\w*, %c32\]",
        r"\((%c2) : index\)\[%c0\w*, %c16\]",
        r"hal\.command_buffer\.finalize<%cmd : !hal\.command_buffer>",
        r"hal\.return %cmd : !hal\.command_buffer",
        r"hal\.device\.queue\.execute\.indirect<%__device : !hal\.device> affinity\(%c-1_i64\) wait\(%fence\) signal\(%\w+\) commands\(%\w+\) bindings\(\[",
        r"\(%buffer : !hal\.buffer\)\[%c0\w*, %c32\]",
        r"\(%buffer_1 : !hal\.buffer\)\[%c0\w*, %c32\]",
        r"\(%transient_buffer : !hal\.buffer\)\[%c0\w*, %c16\]",
        r"%status = hal\.fence\.await until",
    ]
    _assert_in_order(host, steps)
    assert "OneShot" not in host and "hal.device.queue.execute<" not in host


def test_device_and_executable_initializers():
    text = _convert("a0_matmul_tiny.stream.mlir")
    assert "util.global private @__device_0 : !hal.device\n" in text
    assert "%device_count = hal.devices.count : index" in text
    assert 'key("hal.device.id" :: "local*")' in text
    assert "util.global.store %" in text and "@__device_0 : !hal.device" in text
    assert (
        "util.global private @__device_0_executable_0_matmul_dispatch_0 : !hal.executable" in text
    )
    assert re.search(
        r"hal\.executable\.create device\(%\w+ : !hal\.device\) affinity\(%\w+\) target\(@matmul_dispatch_0::@embedded_elf_x86_64\) : !hal\.executable",
        text,
    )
    assert "does not support any variant of executable `matmul_dispatch_0`" in text


def test_dependent_dispatches_get_a_barrier_between_them():
    # two matmuls chained through a transient: dispatch, barrier, dispatch, barrier
    host = _host(_convert("c_two_matmuls_add.stream.mlir"), "two_matmuls_add")
    commands = re.findall(r"hal\.command_buffer\.(dispatch|execution_barrier)", host)
    assert commands == ["dispatch", "execution_barrier", "dispatch", "execution_barrier"]
    # the transient is released on the queue after execution, and the wait covers it
    assert re.search(
        r"hal\.device\.queue\.dealloca<%__device : !hal\.device> affinity\(%c-1_i64\) wait\(%\w+\) signal\(%\w+\) buffer\(%transient_buffer\w* : !hal\.buffer\)",
        host,
    )
    assert "hal.fence.join at([" in host


def test_concurrent_dispatches_have_no_barrier_between_them():
    host = _host(_convert("l_two_results.stream.mlir"), "two_results")
    commands = re.findall(r"hal\.command_buffer\.(dispatch|execution_barrier)", host)
    assert commands == ["dispatch", "dispatch", "execution_barrier"]
    # the two results are subviews of one allocation, exported at their offsets
    views = re.findall(
        r"hal\.buffer_view\.create buffer\(%transient_buffer : !hal\.buffer\)\[(%\w+), %c1048576\]",
        host,
    )
    assert len(views) == 2 and views[0] != views[1]


def test_count_region_must_be_resolved_by_codegen():
    module = _prepare("a0_matmul_tiny.stream.mlir", counts=None)
    with pytest.raises(CompileError, match="not computed yet"):
        ConvertToHALPass().apply(make_context(), module)


def test_dispatch_counts_come_from_the_export():
    module = _prepare("a0_matmul_tiny.stream.mlir", counts=(2, 3, 1))
    ConvertToHALPass().apply(make_context(), module)
    dispatch = next(op for op in module.walk() if isinstance(op, hal.CommandBufferDispatchOp))
    assert [v.owner.value.value.data for v in dispatch.workgroup_count] == [2, 3, 1]


def test_imported_fences_and_chained_fences():
    # a timepoint imported from a fence is that fence; chaining a fence to a timepoint is a
    # queue barrier that waits on the timepoint's fence and signals the chained one
    text = """
builtin.module {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"numba-cpu", "numba-python", {native_vector_size = 64 : i64, target_triple = "x86_64-unknown-linux"}>]> : !hal.device
  util.func public @f(%wait: !hal.fence, %signal: !hal.fence) {
    %t = stream.timepoint.import on(#hal.device.affinity<@__device_0>) %wait : (!hal.fence) => !stream.timepoint
    stream.timepoint.chain_external on(#hal.device.affinity<@__device_0>) %t => (%signal : !hal.fence)
    util.return
  }
}
"""
    module = parse_source(text)
    ConvertToHALPass().apply(make_context(), module)
    module.verify()
    host = _host(str(module), "f")
    assert "stream." not in host
    assert re.search(
        r"hal\.device\.queue\.barrier<%\w+ : !hal\.device> affinity\(%[\w-]+\) wait\(%wait\) "
        r'signal\(%signal\) flags\("None"\)',
        host,
    )
