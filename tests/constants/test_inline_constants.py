"""Small dense constants (<= 256 bytes, IREE's inline limit) are cloned into the dispatches that
read them and become constant buffers of the kernel; splats fold to scalars in the body."""

from __future__ import annotations

import re

import numpy as np
import programs as P
from constants_support import compiled

import ireelab


def _flow(source: str) -> str:
    return ireelab.compile(source, compile_to="flow").ir()


def test_addc_runs_and_matches_references(references) -> None:
    # the program of the issue: a splat and a 16-byte constant, elementwise
    a = np.array([0.5, -1.0, 0.25, 2.0], np.float32)
    got = references(P.ADDC, "addc", a)
    np.testing.assert_allclose(got, np.exp(a * 2 + [1, 2, 3, 4]), rtol=1e-5)


def test_small_constant_is_cloned_and_splat_becomes_a_scalar() -> None:
    flow = _flow(P.ADDC)
    host = flow[flow.index("util.func public @addc") :]
    executable = flow[: flow.index("util.func public @addc")]
    # the host keeps no constant: the dispatch takes one input
    assert "arith.constant" not in host
    assert re.search(r"flow\.dispatch @addc_dispatch_0::@\w+\(%\w+\) :", host)
    # inside: the dense constant as IREE prints it, the splat as a scalar in the body
    assert (
        "arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>"
        in executable
    )
    assert "arith.constant 2.000000e+00 : f32" in executable
    assert "dense<2.000000e+00>" not in flow


def test_constant_of_exactly_256_bytes_is_cloned_257_is_not() -> None:
    at_limit = _flow(P.elementwise_2d(16, 4))  # 64 f32 = 256 bytes
    assert "util.global private @__constant" not in at_limit
    over = _flow(P.elementwise_2d(5, 13))  # 65 f32 = 260 bytes: outlined to globals
    assert "util.global private @__constant_tensor_5x13xf32 <inlining_policy" in over
    assert "util.global private @__constant_tensor_5x13xf32_0 <inlining_policy" in over


def test_small_matmul_weight_and_bias_in_a_tiled_dispatch(references) -> None:
    # W 8x8 f32 = 256 bytes and b 32 bytes are both cloned; the matmul is distributed
    source = P.matmul_bias(256, 8, 8)
    references(source, "mlp", P.weights((256, 8), 7))
    tiled = compiled(source).trace.find("TileAndDistributeToWorkgroupsPass")[0].ir
    assert re.search(r"hal\.return %\w+, %\w+, %\w+", tiled)
    assert "hal.return %0, %0, %0" not in tiled  # more than one workgroup
    bufferized = compiled(source).trace.find("IREEComprehensiveBufferizePass")[0].ir
    assert len(re.findall(r"bufferization\.to_buffer %\w+ read_only", bufferized)) == 2


def test_constant_sliced_per_workgroup(references) -> None:
    # a 256-byte i16 row read along the distributed dim: each workgroup reads its slice
    values = [(i * 37) % 200 - 100 for i in range(128)]
    source = f"""
func.func @cb(%a: tensor<8x128xi16>) -> tensor<8x128xi16> {{
  %b = arith.constant dense<{values}> : tensor<128xi16>
  %e = tensor.empty() : tensor<8x128xi16>
  %bb = linalg.broadcast ins(%b : tensor<128xi16>) outs(%e : tensor<8x128xi16>) dimensions = [0]
  %s = arith.addi %a, %bb : tensor<8x128xi16>
  return %s : tensor<8x128xi16>
}}
"""
    a = np.arange(8 * 128, dtype=np.int16).reshape(8, 128)
    got = references(source, "cb", a)
    np.testing.assert_array_equal(got, a + np.array(values, np.int16))
    tiled = compiled(source).trace.find("TileAndDistributeToWorkgroupsPass")[0].ir
    assert re.search(r"tensor\.extract_slice %b\[%\w+\] \[64\] \[1\]", tiled)
