"""Weights as importers bring them: `dense_resource` blobs with their `dialect_resources`
section, and immutable `util.global`s with initial values (ml_program globals after IREE's
input conversion). They go where `iree-compile` puts them: constants of at most 256 bytes are
cloned into the dispatches that read them, larger ones become `__constant_*` globals packed
into one `util.buffer.constant` of the module. Results against numpy at rtol 1e-5 (f32 sums of
exact multiples of 1/64), and against the real IREE in test_imported_models_iree.py."""

from __future__ import annotations

import re

import numpy as np
import programs as P
import pytest
from constants_support import compiled

import ireelab
from ireelab.diagnostics import CompileError

RNG = np.random.default_rng(5)


def _input(*shape: int) -> np.ndarray:
    return (RNG.integers(-64, 64, size=shape) / 16).astype(np.float32)


def _host(ir: str, name: str) -> str:
    return ir[ir.index(f"util.func public @{name}") :]


LINEAR, W, B = P.torch_linear_relu(4, 16, 8)
"""A torch-shaped Linear(16, 8) + ReLU: a 512-byte weight and a 32-byte bias."""


def test_torch_shaped_linear_relu_runs() -> None:
    # the program that stopped at ConvertToStreamPass ("arith.constant on tensors in host code")
    x = _input(4, 16)
    got = compiled(LINEAR).invoke("main", x)
    np.testing.assert_allclose(got, np.maximum(x @ W.T + B, 0), rtol=1e-5, atol=1e-5)


def test_linear_bias_is_cloned_and_weight_outlined_at_flow() -> None:
    # IREE 3.13's flow IR for this model: the bias inside the dispatch as a dense_resource,
    # the weight a never-inlined global holding the same handle, one dispatch of two inputs
    flow = ireelab.compile(LINEAR, compile_to="flow").ir()
    executable, host = flow[: flow.index("util.global private @__constant")], _host(flow, "main")
    # (a handle another model in this process holds with other bytes gets a `_N` suffix)
    assert re.search(
        r"arith\.constant dense_resource<torch_tensor_8_torch\.float32(_\d+)?> : tensor<8xf32>",
        executable,
    )
    assert re.search(
        r"util\.global private @__constant_tensor_8x16xf32 <inlining_policy = #util\.inline\.never> "
        r"\{stream\.affinity\.default = #hal\.device\.affinity<@__device_0>\} = "
        r"dense_resource<torch_tensor_8_16_torch\.float32(_\d+)?> : tensor<8x16xf32>",
        flow,
    )
    assert "dense_resource" not in host
    assert re.search(
        r"flow\.dispatch @main_dispatch_0::@main_dispatch_0_matmul_4x8x16_f32\(%\w+, "
        r"%__constant_tensor_8x16xf32\)",
        host,
    )
    # the printed IR carries the blobs it names, so it reads back
    section = flow[flow.index("{-#") :]
    assert re.search(
        rf'torch_tensor_8_16_torch\.float32(_\d+)?: "0x04000000{W.tobytes().hex().upper()}"',
        section,
    )
    assert re.search(
        rf'torch_tensor_8_torch\.float32(_\d+)?: "0x04000000{B.tobytes().hex().upper()}"', section
    )


def test_linear_weight_is_packed_by_handle_at_stream() -> None:
    # the composite names the blob (no copy of its bytes in the IR); 512 bytes, mapped in place
    stream = ireelab.compile(LINEAR, compile_to="stream").ir()
    assert re.search(
        r"util\.buffer\.constant <alignment = 64> : !util\.buffer = #util\.composite<512xi8, \[\n"
        r"\s*dense_resource<torch_tensor_8_16_torch\.float32(_\d+)?> : tensor<8x16xf32>,\n\]>",
        stream,
    )
    assert "stream.resource.try_map" in stream


def test_module_file_holds_the_weight_bytes_once(tmp_path) -> None:
    # the saved module carries the 512 weight bytes in one rodata segment and runs after loading
    path = tmp_path / "linear.ilvm"
    compiled(LINEAR).save(str(path))
    data = path.read_bytes()
    assert data.count(W.tobytes()) == 1
    x = _input(4, 16)
    np.testing.assert_array_equal(
        ireelab.load(str(path)).invoke("main", x), compiled(LINEAR).invoke("main", x)
    )


def test_the_same_file_parsed_twice_keeps_its_blobs() -> None:
    # regression: xDSL 0.75's own resource storage gives the second parse's handles no bytes
    x = _input(4, 16)
    first = ireelab.compile(LINEAR).invoke("main", x)
    second = ireelab.compile(LINEAR).invoke("main", x)
    np.testing.assert_array_equal(first, second)


def test_a_second_blob_under_a_taken_key_is_renamed() -> None:
    # two models with the same handle and other weights, in one process: MLIR's context rule
    other, w2, b2 = P.torch_linear_relu(4, 16, 8, seed=40)
    x = _input(4, 16)
    np.testing.assert_allclose(
        ireelab.compile(other).invoke("main", x), np.maximum(x @ w2.T + b2, 0), rtol=1e-5
    )
    np.testing.assert_allclose(
        compiled(LINEAR).invoke("main", x), np.maximum(x @ W.T + B, 0), rtol=1e-5
    )
    flow = ireelab.compile(other, compile_to="flow").ir()
    assert re.search(r"dense_resource<torch_tensor_8_16_torch\.float32_\d+>", flow)


GLOBALS, GW, GB = P.global_weights_matmul(4, 16, 8)
"""x @ W + b with W (512 B) and b (32 B) in immutable util.globals of dense_resource values."""


def test_constant_globals_run() -> None:
    x = _input(4, 16)
    got = compiled(GLOBALS).invoke("f", x)
    np.testing.assert_allclose(got, x @ GW + GB, rtol=1e-5, atol=1e-5)


def test_constant_globals_are_inlined_then_placed_by_size() -> None:
    # IREE 3.13: FoldGlobals inlines both values; the bias is cloned, the weight outlined again
    flow = ireelab.compile(GLOBALS, compile_to="flow").ir()
    assert "@w " not in flow and "@b " not in flow
    assert "arith.constant dense_resource<b_blob> : tensor<8xf32>" in flow
    assert (
        "util.global private @__constant_tensor_16x8xf32 <inlining_policy = #util.inline.never>"
    ) in flow
    assert "dense_resource<w_blob> : tensor<16x8xf32>" in flow


def test_never_stored_mutable_global_is_inlined_never_inlined_policy_is_kept() -> None:
    # as IREE 3.13 does: a mutable global nothing stores becomes immutable and is inlined (then
    # outlined as __constant_tensor_16x8xf32); `#util.inline.never` keeps @b read by its load
    source = GLOBALS.replace("util.global private @w =", "util.global private mutable @w =")
    source = source.replace(
        "util.global private @b =",
        "util.global private @b <inlining_policy = #util.inline.never> =",
    )
    flow = ireelab.compile(source, compile_to="flow").ir()
    assert "@w " not in flow
    assert "util.global private @__constant_tensor_16x8xf32 <inlining_policy" in flow
    assert (
        "util.global private @b <inlining_policy = #util.inline.never> = "
        "dense_resource<b_blob> : tensor<8xf32>"
    ) in flow
    assert "%b = util.global.load immutable @b : tensor<8xf32>" in flow
    x = _input(4, 16)
    np.testing.assert_allclose(ireelab.compile(source).invoke("f", x), x @ GW + GB, rtol=1e-5)


def test_a_resource_without_its_blob_is_a_located_error() -> None:
    # a handle an earlier compile read does not count: each file carries its own blobs
    compiled(LINEAR)
    source = LINEAR[: LINEAR.index("{-#")]
    with pytest.raises(CompileError) as err:
        ireelab.compile(source)
    text = str(err.value).splitlines()[0]
    assert re.match(r"<input>:4:\d+: error: \[input\] dense_resource<torch_tensor_8_16_", text)
    assert "has no blob in the file's dialect_resources section" in text


def test_a_blob_of_the_wrong_size_is_a_located_error() -> None:
    source = LINEAR.replace("tensor<8xf32>\n", "tensor<9xf32>\n", 1).replace(
        "tensor<8xf32>", "tensor<9xf32>"
    )
    with pytest.raises(CompileError) as err:
        ireelab.compile(source)
    assert "holds 32 bytes; tensor<9xf32> needs 36" in str(err.value)


def test_a_malformed_blob_is_a_located_error() -> None:
    source = LINEAR.replace(
        'torch_tensor_8_torch.float32: "0x04000000', 'torch_tensor_8_torch.float32: "0xZZ'
    )
    with pytest.raises(CompileError) as err:
        ireelab.compile(source)
    assert "resource 'torch_tensor_8_torch.float32'" in str(err.value)


def test_a_long_source_line_is_quoted_around_the_column() -> None:
    # an error on a line holding an inline weight quotes QUOTE_WIDTH characters of it, caret
    # in place
    from ireelab.diagnostics import QUOTE_WIDTH, SourceLocation

    line = '    %w = arith.constant dense<"0x' + "AB" * 4000 + '"> : tensor<2000xf32> %oops'
    column = line.index("%oops") + 1
    text = str(CompileError("bad", SourceLocation("m.mlir", 7, column, line), "input"))
    quoted, caret = text.splitlines()[1:]
    assert quoted.startswith("...") and len(quoted) <= 3 + QUOTE_WIDTH + 3
    assert quoted[caret.index("^") :].startswith("%oops")
