"""ConvertToStreamPass (iree-stream-conversion): golden checks on IREE's flow output."""

from __future__ import annotations

import re

import pytest
from _stream_ir import flow_reference, parse, print_ir, run

from ireelab.compiler.stream.convert_to_stream import ConvertToStreamPass
from ireelab.diagnostics import CompileError


def test_executable_takes_bindings():
    # dispatch functions take !stream.binding and recover their tensors with subspans at 0
    text = print_ir(run(flow_reference("a0_matmul_tiny"), ConvertToStreamPass()))
    assert "flow." not in text
    assert "stream.executable private @matmul_dispatch_0 {" in text
    assert re.search(
        r"func\.func @matmul_dispatch_0_matmul_2x2x4_f32\(%\w+: !stream\.binding, %\w+: "
        r"!stream\.binding, %\w+: !stream\.binding\)",
        text,
    )
    assert re.search(
        r"stream\.binding\.subspan %\w+\[%c0\] : !stream\.binding -> "
        r"!iree_tensor_ext\.dispatch\.tensor<writeonly:tensor<2x2xf32>>",
        text,
    )
    assert "stream.return %x, %y, %z : index, index, index" in text


def test_host_code_on_resources():
    # import -> assert + sizeof + import + cast; dispatch -> tensor.dispatch; export -> cast + export
    text = print_ir(run(flow_reference("a0_matmul_tiny"), ConvertToStreamPass()))
    host = text[text.index("util.func public") :]
    order = [
        'hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([',
        "stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<2x4xf32> : index",
        "stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg0 : !hal.buffer_view -> tensor<2x4xf32> in !stream.resource<external>{",
        "stream.async.cast on(#hal.device.affinity<@__device_0>)",
        "stream.tensor.dispatch on(#hal.device.affinity<@__device_0>) @matmul_dispatch_0::@matmul_dispatch_0_matmul_2x2x4_f32(",
        "-> tensor<2x2xf32> in !stream.resource<*>{",
        "-> !stream.resource<external>{",
        "stream.tensor.export on(#hal.device.affinity<@__device_0>)",
    ]
    positions = [host.index(line) for line in order]
    assert positions == sorted(positions)


def test_reshape_becomes_clone():
    # flow.tensor.reshape is a stream.tensor.clone between encodings of the same bytes
    text = print_ir(run(flow_reference("l_two_results"), ConvertToStreamPass()))
    assert re.search(
        r"stream\.tensor\.clone on\(#hal\.device\.affinity<@__device_0>\) %\w+ : "
        r"tensor<512x512xf32> in !stream\.resource<\*>\{%\w+\} -> tensor<262144xf32> in",
        text,
    )
    assert text.count("stream.tensor.dispatch") == 2


def test_unsupported_host_tensor_op_is_located():
    # host arithmetic on tensors is not something the stream stage converts: a located error
    module = parse(
        """
builtin.module {
  util.func public @f(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<4xf32>
    %1 = arith.addf %0, %0 : tensor<4xf32>
    %2 = hal.tensor.export %1 "output0" : tensor<4xf32> -> !hal.buffer_view
    util.return %2 : !hal.buffer_view
  }
}
"""
    )
    with pytest.raises(CompileError, match="'arith.addf' on tensors") as info:
        run(module, ConvertToStreamPass())
    assert info.value.stage == "stream"


def test_host_collapse_shape_is_a_reshape_clone():
    # a host tensor.collapse_shape (IREE would have made it flow.tensor.reshape) becomes a clone
    module = parse(
        """
builtin.module {
  util.func public @f(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<4x8xf32>
    %1 = tensor.collapse_shape %0 [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
    %2 = hal.tensor.export %1 "output0" : tensor<32xf32> -> !hal.buffer_view
    util.return %2 : !hal.buffer_view
  }
}
"""
    )
    text = print_ir(run(module, ConvertToStreamPass()))
    assert "tensor.collapse_shape" not in text
    assert re.search(r"tensor<4x8xf32> in !stream\.resource<\*>\{%\w+\} -> tensor<32xf32> in", text)


ASYNC_HOST = """
builtin.module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.func public @f$async(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %wait: !hal.fence, %signal: !hal.fence) -> (!hal.buffer_view, !hal.buffer_view) {
    %0 = hal.tensor.import wait(%wait) => %arg0 : !hal.buffer_view -> tensor<4xf32>
    %1 = hal.tensor.import wait(%wait) => %arg1 : !hal.buffer_view -> tensor<4xf32>
    %2:2 = hal.tensor.barrier join(%0, %1 : tensor<4xf32>, tensor<4xf32>) => %signal : !hal.fence
    %3 = hal.tensor.export %2#0 : tensor<4xf32> -> !hal.buffer_view
    %4 = hal.tensor.export %2#1 : tensor<4xf32> -> !hal.buffer_view
    util.return %3, %4 : !hal.buffer_view, !hal.buffer_view
  }
}
"""


def test_async_abi_fences_become_timepoints():
    # IREE's coarse-fences ABI: an import waiting on a fence is awaited at the fence's
    # timepoint; a barrier names each source's timepoint, joined, and chains the signal fence
    text = print_ir(run(parse(ASYNC_HOST), ConvertToStreamPass()))
    assert "hal.tensor" not in text
    assert (
        text.count(
            "stream.timepoint.import on(#hal.device.affinity<@__device_0>) %wait : (!hal.fence) => !stream.timepoint"
        )
        == 2
    )  # one per import, as converted; CSE merges them
    assert text.count("stream.timepoint.await") == 2
    assert text.count("stream.timepoint.barrier on(#hal.device.affinity<@__device_0>)") == 2
    assert re.search(r"stream\.timepoint\.join max\(%\w+, %\w+\) => !stream\.timepoint", text)
    assert re.search(
        r"stream\.timepoint\.chain_external on\(#hal\.device\.affinity<@__device_0>\) %\w+ "
        r"=> \(%signal : !hal\.fence\)",
        text,
    )
    assert text.count("stream.tensor.export") == 2
