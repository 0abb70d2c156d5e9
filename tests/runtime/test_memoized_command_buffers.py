"""Memoized command buffers at run time: the module's initializer records each reusable
command buffer once, and every call replays it with `hal.device.queue.execute.indirect`,
its buffers bound through the binding table. Results are compared with numpy (exactly for
the 2x4x2 matmul's four-term sums here, f32 rounding of at most 1e-6 relative elsewhere)."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from reference_paths import REFERENCE

import ireelab
from ireelab.runtime.errors import HALError
from ireelab.runtime.hal import module as hal_module
from ireelab.runtime.hal.command_buffer import CommandBuffer
from ireelab.tools.compile import main as compile_tool

MATMUL = (REFERENCE / "programs" / "a0_matmul_tiny.mlir").read_text()

WEIGHTS = np.arange(1024, dtype=np.float32) / 64
WEIGHTED = """
func.func @scale_add(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %w = arith.constant dense<[WEIGHTS]> : tensor<1024xf32>
  %0 = tensor.empty() : tensor<1024xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %w : tensor<1024xf32>, tensor<1024xf32>) outs(%0 : tensor<1024xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %2 = arith.mulf %a, %b : f32
    %3 = arith.addf %2, %a : f32
    linalg.yield %3 : f32
  } -> tensor<1024xf32>
  return %1 : tensor<1024xf32>
}
""".replace("WEIGHTS", ", ".join(f"{w:.6e}" for w in WEIGHTS))


@pytest.fixture
def recordings(monkeypatch):
    """Counts `hal.command_buffer.create` and `hal.device.queue.execute.indirect` calls of
    contexts created while the fixture is active."""
    counts = {"create": 0, "indirect": 0}
    create = hal_module.HALModule.command_buffer_create
    indirect = hal_module.HALModule.device_queue_execute_indirect

    @functools.wraps(create)
    def counting_create(self, *args):
        counts["create"] += 1
        return create(self, *args)

    @functools.wraps(indirect)
    def counting_indirect(self, *args):
        counts["indirect"] += 1
        return indirect(self, *args)

    monkeypatch.setattr(hal_module.HALModule, "command_buffer_create", counting_create)
    monkeypatch.setattr(hal_module.HALModule, "device_queue_execute_indirect", counting_indirect)
    return counts


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_one_recording_serves_every_call(recordings, device):
    module = ireelab.compile(MATMUL)
    rng = np.random.default_rng(1)
    for _ in range(50):
        # new inputs each call: the bound buffers change, the recording does not
        a = rng.standard_normal((2, 4)).astype(np.float32)
        b = rng.standard_normal((4, 2)).astype(np.float32)
        np.testing.assert_allclose(module.matmul(a, b, device=device), a @ b, rtol=1e-6)
    assert recordings["create"] == 1
    assert recordings["indirect"] == 50


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_replay_reads_the_buffers_of_this_call(device):
    # The same input arrays rewritten in place, and fresh arrays at other addresses, between
    # calls: every result is the product of what the arrays held at that call.
    module = ireelab.compile(MATMUL)
    a = np.ones((2, 4), np.float32)
    b = np.ones((4, 2), np.float32)
    results = []
    for k in range(1, 4):
        a[:] = k
        results.append(module.matmul(a, b, device=device))
        fresh = np.full((2, 4), 10.0 * k, np.float32)
        results.append(module.matmul(fresh, b, device=device))
    expected = [np.full((2, 2), 4.0 * v, np.float32) for k in (1, 2, 3) for v in (k, 10 * k)]
    for got, want in zip(results, expected, strict=True):
        np.testing.assert_array_equal(got, want)
    # results are separate arrays (the transient of each call), not one reused buffer
    assert len({r.ctypes.data for r in results}) == len(results)


def test_constant_operand_stays_bound_directly(recordings):
    module = ireelab.compile(WEIGHTED)
    hal_ir = module.trace.find("OutlineMemoizeRegionsPass")[0].ir
    apply = hal_ir[hal_ir.index("@__scale_add_memoize_apply") :]
    apply = apply[: apply.index("util.return")]
    # the weight's buffer global is loaded by the initializer and bound directly
    assert "(%c0 : index)" in apply and ": !hal.buffer)" in apply
    x = np.linspace(-1, 1, 1024, dtype=np.float32)
    for shift in (0.0, 1.0, -3.0):
        y = x + np.float32(shift)
        np.testing.assert_allclose(module.scale_add(y), y * WEIGHTS + y, rtol=1e-6, atol=1e-6)
    assert recordings["create"] == 1


def test_memoized_functions_in_the_hal_trace():
    module = ireelab.compile(MATMUL)
    after_conversion = module.trace.find("ConvertToHALPass")[0].ir
    assert "hal.device.memoize<" in after_conversion
    outlined = module.trace.find("OutlineMemoizeRegionsPass")[0].ir
    assert "hal.device.memoize" not in outlined
    for name in ("@__matmul_memoize_apply", "@__matmul_memoize_result_0_device_0"):
        assert name in outlined
    assert "util.call @__matmul_memoize_lookup" in outlined


@pytest.mark.parametrize("entry", [(8, 32), (0, 16)], ids=["offset", "length"])
def test_replay_checks_each_binding_against_its_table_slot(entry):
    # The recorded dispatch reads 32 bytes from slot 0: a table entry or buffer leaving fewer is an
    # OUT_OF_RANGE error (on the kept argument block's path, after a first good call).
    module = ireelab.compile(MATMUL)
    a, b = np.ones((2, 4), np.float32), np.ones((4, 2), np.float32)
    module.matmul(a, b, device="local-sync")
    context = module.loaded.context("local-sync")
    device, _executable, recorded = context.globals["ref"]
    assert isinstance(recorded, CommandBuffer) and recorded.reusable
    hal = context.hal.functions
    buffers = [hal["hal.allocator.allocate"](device.allocator, -1, 0, 0, n) for n in (32, 32, 16)]
    offset, length = entry
    table = [(buffers[0], offset, length), (buffers[1], 0, 32), (buffers[2], 0, 16)]
    signal = hal["hal.fence.create"](device, 0)
    hal["hal.device.queue.execute.indirect"](device, -1, None, signal, recorded, 0, table)
    with pytest.raises(HALError, match="OUT_OF_RANGE.*(exceeds table slot 0|outside the buffer)"):
        hal["hal.fence.await"](-1, 0, [signal])


@pytest.mark.parametrize("flag", ["true", "false"])
def test_indirect_command_buffers_flag(tmp_path, capsys, flag):
    # IREE's --iree-hal-indirect-command-buffers: on (the default) records in a memoize
    # region; off records a one-shot command buffer per call. The header is IREE's either way.
    source = tmp_path / "matmul.mlir"
    source.write_text(MATMUL)
    argv = [
        str(source),
        "-o",
        str(tmp_path / "m.ilvm"),
        "--mlir-print-ir-after=iree-hal-conversion",
    ]
    assert compile_tool([*argv, f"--iree-hal-indirect-command-buffers={flag}"]) == 0
    dump = capsys.readouterr().err
    assert "IR Dump After ConvertToHALPass: iree-hal-conversion //----- //" in dump
    assert ("hal.device.memoize<" in dump) == (flag == "true")
    assert ('mode("OneShot|AllowInlineExecution")' in dump) == (flag == "false")
    module = ireelab.load(str(tmp_path / "m.ilvm"))
    a, b = np.ones((2, 4), np.float32), np.full((4, 2), 2, np.float32)
    np.testing.assert_array_equal(module.matmul(a, b), a @ b)
