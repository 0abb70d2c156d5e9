"""IREE's asynchronous ABI (the torch input's default `$async` entry points on fences, and the
sync wrapper that calls one), parsed, compiled and run. The program is written in the form
`iree-compile --compile-to=input` prints for a torch `relu(x @ w + b)`; it needs no front end."""

from __future__ import annotations

import numpy as np
import pytest

import ireelab
from ireelab.compiler.source import parse_source
from ireelab.diagnostics import RuntimeInputError
from ireelab.iree.availability import INSTALL_HINT, is_available

ASYNC = """
module @module {
  util.func public @main$async(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.buffer_view, %arg3: !hal.fence, %arg4: !hal.fence) -> !hal.buffer_view attributes {inlining_policy = #util.inline.never, iree.abi.model = "coarse-fences", iree.abi.stub} {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = hal.tensor.import wait(%arg3) => %arg0 : !hal.buffer_view -> tensor<4x8xf32>
    %1 = hal.tensor.import wait(%arg3) => %arg1 : !hal.buffer_view -> tensor<8x16xf32>
    %2 = hal.tensor.import wait(%arg3) => %arg2 : !hal.buffer_view -> tensor<16xf32>
    %3 = tensor.empty() : tensor<4x16xf32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %5 = linalg.matmul ins(%0, %1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%4 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%5, %2 : tensor<4x16xf32>, tensor<16xf32>) outs(%3 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %10 = arith.addf %in, %in_0 : f32
      %11 = arith.maximumf %10, %cst : f32
      linalg.yield %11 : f32
    } -> tensor<4x16xf32>
    %8 = hal.tensor.barrier join(%6 : tensor<4x16xf32>) => %arg4 : !hal.fence
    %9 = hal.tensor.export %8 : tensor<4x16xf32> -> !hal.buffer_view
    util.return %9 : !hal.buffer_view
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub} {
    %0 = util.null : !hal.fence
    %c-1_i32 = arith.constant -1 : i32
    %c0 = arith.constant 0 : index
    %device_0 = hal.devices.get %c0 : !hal.device
    %fence = hal.fence.create device(%device_0 : !hal.device) flags("None") : !hal.fence
    %1 = util.call @main$async(%arg0, %arg1, %arg2, %0, %fence) : (!hal.buffer_view, !hal.buffer_view, !hal.buffer_view, !hal.fence, !hal.fence) -> !hal.buffer_view
    %status = hal.fence.await until([%fence]) timeout_millis(%c-1_i32) flags("None") : i32
    util.return %1 : !hal.buffer_view
  }
}
"""

RNG = np.random.default_rng(15)
X = RNG.standard_normal((4, 8)).astype(np.float32)
W = RNG.standard_normal((8, 16)).astype(np.float32)
B = RNG.standard_normal(16).astype(np.float32)
EXPECTED = np.maximum(X @ W + B, 0)


@pytest.fixture(scope="module")
def compiled():
    return ireelab.compile(ASYNC)


def test_wait_and_barrier_clauses_print_back_as_parsed():
    text = str(parse_source(ASYNC))
    assert "hal.tensor.import wait(%arg3) => %arg0 : !hal.buffer_view -> tensor<4x8xf32>" in text
    assert "hal.tensor.barrier join(%6 : tensor<4x16xf32>) => %arg4 : !hal.fence" in text
    assert str(parse_source(text)) == text


def test_stream_imports_the_wait_fence_and_chains_the_signal_fence():
    stream = ireelab.compile(ASYNC, compile_to="stream").ir()
    body = stream.split("@main$async(", 1)[1].split("util.func public @main(", 1)[0]
    # As `iree-compile --compile-to=stream`: the wait fence becomes one timepoint the
    # execution awaits, the signal fence is chained to the execution's timepoint, and the
    # host does not block on the result.
    assert body.count("stream.timepoint.import") == 1
    assert "stream.cmd.execute" in body and "await(" in body
    assert "stream.timepoint.chain_external" in body and "=> (%arg4 : !hal.fence)" in body
    assert "stream.timepoint.await" not in body
    assert "stream.timepoint.barrier" not in body  # folded into the execution's timepoint


def test_hal_signals_the_callers_fence_in_queue_order():
    hal_ir = ireelab.compile(ASYNC, compile_to="hal").ir()
    body = hal_ir.split("@main$async(", 1)[1].split("util.func public @main(", 1)[0]
    assert "hal.device.queue.barrier" in body and "signal(%arg4)" in body
    assert "hal.fence.await" not in body  # only the sync wrapper waits


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_the_sync_wrapper_runs_the_async_entry(compiled, device):
    assert compiled.functions[:2] == ["main$async", "main"]
    result = compiled.main(X, W, B, device=device)
    np.testing.assert_allclose(result, EXPECTED, rtol=1e-5, atol=1e-5)


def test_calling_the_async_entry_without_fences_is_iree_s_argument_error(compiled):
    with pytest.raises(RuntimeInputError, match="expected 5 arguments but passed 3"):
        compiled.invoke("main$async", X, W, B)


@pytest.mark.iree
@pytest.mark.skipif(not is_available(), reason=INSTALL_HINT)
def test_matches_the_real_iree():
    real = ireelab.iree.compile(ASYNC, trace=False, keep=())
    np.testing.assert_allclose(real.main(X, W, B), EXPECTED, rtol=1e-5, atol=1e-5)


def test_the_summary_offers_the_sync_wrapper_with_its_tensor_types(compiled):
    from ireelab.notebook.summary import summarize

    summary = summarize("model", compiled)
    assert [s.name for s in summary.signatures] == ["main"]  # not main$async
    types = [a.type for a in summary.signatures[0].arguments]
    assert types == ["tensor<4x8xf32>", "tensor<8x16xf32>", "tensor<16xf32>"]


@pytest.mark.iree
@pytest.mark.skipif(not is_available(), reason=INSTALL_HINT)
@pytest.mark.parametrize("phase", ["flow", "stream", "hal"])
def test_iree_s_async_output_parses_and_prints_back(phase):
    # what `iree-compile --compile-to=<phase>` prints for this program (timepoint imports,
    # chained fences, queue barriers) reads in ireelab's dialects unchanged
    text = ireelab.iree.compile(ASYNC, compile_to=phase, trace=False, keep=()).ir()
    module = parse_source(text, f"<iree {phase}>")
    printed = str(module)
    assert str(parse_source(printed, f"<ireelab {phase}>")) == printed
    if phase == "stream":
        assert "stream.timepoint.import" in printed and "stream.timepoint.chain_external" in printed
