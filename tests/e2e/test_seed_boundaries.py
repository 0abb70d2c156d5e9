"""The seven IR boundaries of the founding note, checked on its matmul.

Each check names what the note shows at that boundary; the IR is ireelab's own trace of the
compile (the IR after the named pass, or at the `--compile-to` phase).
"""

from __future__ import annotations

import re

import pytest

import ireelab


@pytest.fixture(scope="module")
def seed(reference_dir):
    source = (reference_dir / "programs" / "a0_matmul_tiny.mlir").read_text()
    return ireelab.compile(source, compile_to="vm")


def after(mod, pass_name: str) -> str:
    records = mod.trace.find(pass_name)
    assert records, f"{pass_name} did not run"
    return records[-1].ir


def test_1_input_to_abi(seed):
    ir = after(seed, "WrapEntryPointsPass")
    assert re.search(
        r"util\.func public @matmul\(%\w+: !hal\.buffer_view, %\w+: !hal\.buffer_view\) -> !hal\.buffer_view",
        ir,
    )
    assert 'hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<2x4xf32>' in ir
    assert re.search(
        r'hal\.tensor\.export %\w+ "output0" : tensor<2x2xf32> -> !hal\.buffer_view', ir
    )
    assert "util.call @_matmul" in ir


def test_2_flow_dispatch_partitioning(seed):
    region = after(seed, "FormDispatchRegionsPass")
    assert "flow.dispatch.region" in region
    assert re.search(r"flow\.dispatch\.region[^\n]*\{[^}]*linalg\.matmul", region, re.S)
    flow = after(seed, "DeduplicateExecutablesPass")
    assert "flow.executable private @matmul_dispatch_0" in flow
    assert "flow.executable.export public @matmul_dispatch_0_matmul_2x2x4_f32" in flow
    assert "iree_tensor_ext.dispatch.tensor.load" in flow
    assert "iree_tensor_ext.dispatch.tensor.store" in flow
    assert re.search(
        r"flow\.dispatch @matmul_dispatch_0::@matmul_dispatch_0_matmul_2x2x4_f32\(", flow
    )


def test_3_flow_to_stream(seed):
    ir = after(seed, "ConvertToStreamPass")
    assert "stream.executable private @matmul_dispatch_0" in ir
    assert "!stream.binding" in ir
    assert "stream.tensor.dispatch" in ir
    assert "#hal.device.affinity<@__device_0>" in ir
    assert "stream.tensor.import" in ir and "!stream.resource<external>" in ir


def test_4_stream_async_scheduling(seed):
    ir = after(seed, "ScheduleExecutionPass")
    assert re.search(r"stream\.async\.execute on\(#hal\.device\.affinity<@__device_0>\)", ir)
    assert re.search(
        r"stream\.async\.dispatch @matmul_dispatch_0::@matmul_dispatch_0_matmul_2x2x4_f32", ir
    )
    assert "} => !stream.timepoint" in ir
    assert "stream.timepoint.await" in ir


def test_5_codegen(seed):
    ir = after(seed, "ConvertToNumbaPass")
    assert "ireelab.numba.source" in ir
    assert "hal.executable.variant public @numba_python" in ir


def test_6_stream_to_hal(seed):
    sources = after(seed, "MaterializeInterfacesPass")
    assert "hal.executable private @matmul_dispatch_0" in sources
    assert re.search(
        r"hal\.executable\.export public @matmul_dispatch_0_matmul_2x2x4_f32 ordinal\(0\) layout\(#hal\.pipeline\.layout<",
        sources,
    )
    assert sources.count("#hal.pipeline.binding<storage_buffer") >= 3
    assert "hal.interface.binding.subspan" in sources
    hal = after(seed, "ConvertToHALPass")
    assert "hal.command_buffer.dispatch" in hal
    assert "hal.fence.await" in hal
    assert "hal.device.queue.execute" in hal


def test_7_vm_module(seed):
    ir = seed.ir()
    assert "vm.module" in ir
    for name in ("hal.command_buffer.dispatch", "hal.fence.await", "hal.buffer_view.create"):
        assert re.search(rf"vm\.import private @{re.escape(name)}\b", ir), name
    assert "vm.export" in ir


def test_follow_the_matmul_through_the_stages(seed):
    followed = seed.follow("linalg.matmul")
    assert followed.match.export == "matmul_dispatch_0_matmul_2x2x4_f32"
    assert {"flow", "stream"} <= set(followed.stages)
