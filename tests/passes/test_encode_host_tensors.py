"""EncodeHostTensorsPass (iree-stream-encode-host-tensors): sizes in bytes, async ops."""

from __future__ import annotations

import pytest
from _stream_ir import flow_reference, parse, print_ir, run

from ireelab.compiler.stream.convert_to_stream import ConvertToStreamPass
from ireelab.compiler.stream.encode_host_tensors import EncodeHostTensorsPass
from ireelab.diagnostics import CompileError


def test_sizes_and_dispatch_ranges():
    # tensor sizes become byte constants; tensor.dispatch becomes async.dispatch with ranges
    module = run(flow_reference("a0_matmul_tiny"), ConvertToStreamPass(), EncodeHostTensorsPass())
    text = print_ir(module)
    assert "stream.tensor.sizeof" not in text and "stream.tensor.dispatch" not in text
    assert "%c32 = arith.constant 32 : index" in text  # 2x4xf32 and 4x2xf32
    assert "%c16 = arith.constant 16 : index" in text  # 2x2xf32
    assert (
        "stream.async.dispatch on(#hal.device.affinity<@__device_0>) "
        "@matmul_dispatch_0::@matmul_dispatch_0_matmul_2x2x4_f32("
    ) in text
    assert "[%c0 to %c32 for %c32]" in text
    assert "-> !stream.resource<*>{%c16}" in text


def test_clone_is_encoded():
    # the reshape clones become byte-level async clones
    module = run(flow_reference("l_two_results"), ConvertToStreamPass(), EncodeHostTensorsPass())
    text = print_ir(module)
    assert text.count("stream.async.clone") == 3
    assert "stream.async.clone on(#hal.device.affinity<@__device_0>)" in text


def test_i1_elements_take_a_byte():
    # i1 is stored one per byte (IREE packs it only under #iree_encoding.packed_storage)
    module = parse(
        """
builtin.module {
  func.func @f() -> index {
    %0 = stream.tensor.sizeof tensor<3x5xi1> : index
    func.return %0 : index
  }
}
"""
    )
    assert "arith.constant 15 : index" in print_ir(run(module, EncodeHostTensorsPass()))


def test_i4_and_i2_elements_are_packed():
    # IREE's stream.tensor.sizeof of a 2- or 4-bit type: count * bits / 8 bytes
    module = parse(
        """
builtin.module {
  func.func @f() -> (index, index, index) {
    %0 = stream.tensor.sizeof tensor<3x6xi4> : index
    %1 = stream.tensor.sizeof tensor<8xi2> : index
    %2 = stream.tensor.sizeof tensor<10xf4E2M1FN> : index
    func.return %0, %1, %2 : index, index, index
  }
}
"""
    )
    text = print_ir(run(module, EncodeHostTensorsPass()))
    for size in (9, 2, 5):
        assert f"arith.constant {size} : index" in text


def test_packed_elements_that_do_not_fill_whole_bytes_are_refused():
    module = parse(
        """
builtin.module {
  func.func @f() -> index {
    %0 = stream.tensor.sizeof tensor<3xi4> : index
    func.return %0 : index
  }
}
"""
    )
    with pytest.raises(CompileError, match="tensor<3xi4> is stored packed and its elements"):
        run(module, EncodeHostTensorsPass())


def test_dynamic_sizeof_is_computed_on_the_host():
    # a `?` size multiplies the static bytes at run time: tensor<?x4xf32>{%n} is %n * 16
    module = parse(
        """
builtin.module {
  func.func @f(%n: index) -> index {
    %0 = stream.tensor.sizeof tensor<?x4xf32>{%n} : index
    func.return %0 : index
  }
}
"""
    )
    text = print_ir(run(module, EncodeHostTensorsPass()))
    assert "stream.tensor.sizeof" not in text
    assert "%c16 = arith.constant 16 : index" in text
    assert "%0 = arith.muli %n, %c16 : index" in text
    assert "func.return %0 : index" in text
