"""Large dense constants end to end: outlined by the Flow stage, uploaded once by the module's
initializer as read-only data the runtime wraps without copying, bound directly by the
dispatches that read them. Results against numpy eager and, where installed, the real IREE
(`references`); tolerance 1e-5 (f32 matmuls of exact 1/64 multiples)."""

from __future__ import annotations

import re

import numpy as np
import programs as P
import pytest
from constants_support import compiled

import ireelab
from ireelab.eager import evaluate
from ireelab.iree import compile as iree_compile
from ireelab.iree.availability import is_available
from ireelab.runtime.errors import HALError
from ireelab.runtime.hal.allocator import Allocator
from ireelab.runtime.hal.module import HALModule

RNG = np.random.default_rng(7)


def _input(*shape: int) -> np.ndarray:
    return RNG.integers(-64, 64, size=shape).astype(np.float32) / 16


TWO_USES = f"""
func.func @two(%a: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {{
  %w = arith.constant {P.dense(P.weights((64, 64), 11))} : tensor<64x64xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.matmul ins(%a, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = arith.subf %a, %w : tensor<64x64xf32>
  return %m, %s : tensor<64x64xf32>, tensor<64x64xf32>
}}
"""
"""One 16 KiB weight read by a matmul dispatch and by an elementwise dispatch."""


def test_matmul_with_a_64x64_weight(references) -> None:
    # 16 KiB weight outlined, mapped from rodata; bias (256 B) cloned into the dispatch
    source = P.matmul_bias(4, 64, 64)
    references(source, "mlp", _input(4, 64))


def test_large_bias(references) -> None:
    # a 2 KiB bias broadcast along the rows
    references(P.bias_add(8, 512, seed=3), "bias", _input(8, 512))


def test_constant_used_by_two_dispatches() -> None:
    # both dispatches bind the same constant resource; both results match numpy and IREE
    a = _input(64, 64)
    got = compiled(TWO_USES).invoke("two", a)
    expected = evaluate(TWO_USES, "two", a)
    theirs = iree_compile(TWO_USES, trace=False).invoke("two", a) if is_available() else expected
    for mine, numpy_value, iree_value in zip(got, expected, theirs, strict=True):
        np.testing.assert_allclose(mine, numpy_value, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(mine, iree_value, rtol=1e-5, atol=1e-5)
    stream = ireelab.compile(TWO_USES, compile_to="stream").ir()
    assert stream.count("util.buffer.constant") == 1
    host = stream[stream.index("util.func public @two") :]
    bindings = re.findall(r"ro %\w+\[%c0 for %c16384\] : !stream.resource<constant>", host)
    assert len(bindings) == 2


def test_weight_and_large_bias_share_one_buffer(references) -> None:
    # 32 KiB weight and 512 B bias: one initializer (CombineInitializersPass) packs both into
    # one 33280-byte buffer, as IREE 3.13 does; each global holds its subview (IREE goes on to
    # fuse the globals into one, see pipeline.py)
    source = P.matmul_bias(4, 64, 128, relu=False)
    references(source, "mlp", _input(4, 64))
    stream = ireelab.compile(source, compile_to="stream").ir()
    assert stream.count("util.initializer") == 1
    assert stream.count("#util.composite<") == 1
    assert "#util.composite<33280xi8, [" in stream
    assert stream.count("stream.resource.try_map") == 1
    assert re.search(
        r"stream\.resource\.subview %result\[%c32768\] .* -> !stream\.resource<constant>\{%c512\}",
        stream,
    )


def test_final_stream_ir_matches_iree_shape() -> None:
    # the initializer maps the packed bytes; the host binds the global load directly
    stream = ireelab.compile(P.matmul_bias(4, 64, 64), compile_to="stream").ir()
    init = stream[stream.index("util.initializer {\n    %c0") :]
    init = init[: init.index("util.return")]
    assert re.search(
        r"%buffer_cst = util.buffer.constant <alignment = 64> : !util.buffer = "
        r"#util.composite<16384xi8, \[\n    dense<\"0x[0-9A-F]+\"> : tensor<64x64xf32>,\n\]>",
        init,
    )
    assert (
        "%did_map, %result = stream.resource.try_map on(#hal.device.affinity<@__device_0>) "
        "%buffer_cst[%c0] : !util.buffer -> i1, !stream.resource<constant>{%c16384}"
    ) in init
    assert "util.global.store %result, @__constant_tensor_64x64xf32" in init
    host = stream[stream.index("util.func public @mlp") :]
    assert (
        "%__constant_tensor_64x64xf32 = util.global.load immutable @__constant_tensor_64x64xf32"
        " : !stream.resource<constant>"
    ) in host
    assert re.search(
        r"%__constant_tensor_64x64xf32 as %\w+: !stream.resource<constant>\{%c16384\}", host
    )
    assert "stream.async" not in host and "__size" not in stream


def test_vm_module_holds_the_weight_once_as_rodata(tmp_path) -> None:
    # one 64-byte aligned rodata of 16 KiB; the saved module runs after loading
    source = P.matmul_bias(4, 64, 64)
    vm_text = ireelab.compile(source, compile_to="vm").ir()
    assert vm_text.count("vm.rodata private @_const <alignment = 64> #util.composite<16384xi8") == 1
    assert "vm.call @hal.allocator.import(" in vm_text
    path = tmp_path / "mlp.ilvm"
    compiled(source).save(str(path))
    a = _input(4, 64)
    np.testing.assert_allclose(
        ireelab.load(str(path)).invoke("mlp", a), compiled(source).invoke("mlp", a), rtol=0
    )


def test_local_task_device_reads_the_mapped_constant() -> None:
    # the multi-threaded device binds the same read-only memory
    source = P.bias_add(8, 512, seed=3)
    a = _input(8, 512)
    sync = compiled(source).invoke("bias", a)
    task = compiled(source).invoke("bias", a, device="local-task")
    np.testing.assert_array_equal(sync, task)


def test_allocator_import_wraps_the_bytes_without_copying() -> None:
    # the buffer views the rodata object itself, read-only
    hal = HALModule.__new__(HALModule)
    data = bytes(range(256))
    buffer = hal.allocator_import(Allocator("local-sync"), 1, -1, 0x30, 0x80C03, data, 64, 128)
    view = buffer.bytes()
    assert len(view) == 128 and view[0] == 64 and view[-1] == 191
    assert not view.flags.writeable
    assert np.shares_memory(view, np.frombuffer(data, np.uint8))


def test_allocator_import_rejects_a_range_outside_the_source() -> None:
    hal = HALModule.__new__(HALModule)
    with pytest.raises(HALError, match="outside the 16-byte source buffer"):
        hal.allocator_import(Allocator("local-sync"), 1, -1, 0x30, 0x80C03, bytes(16), 8, 16)
