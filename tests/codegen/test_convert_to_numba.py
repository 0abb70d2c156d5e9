"""ConvertToNumbaPass: kernel text (ABI, constants, helpers) and clear errors for what it cannot do."""

from __future__ import annotations

import numpy as np
import pytest
from codegen_harness import Binding, compile_executable, executable_text

from ireelab.diagnostics import CompileError

UNARY = """
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0], sizes = [8], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8xf32>> -> tensor<8xf32>
        %1 = tensor.empty() : tensor<8xf32>
        %2 = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}} ins(%0 : tensor<8xf32>) outs(%1 : tensor<8xf32>) {{
        ^bb0(%in: f32, %out: f32):
{ops}
        }} -> tensor<8xf32>
        iree_tensor_ext.dispatch.tensor.store %2, %arg1, offsets = [0], sizes = [8], strides = [1] : tensor<8xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8xf32>>"""
BINDINGS = [Binding("readonly", "tensor<8xf32>"), Binding("writeonly", "tensor<8xf32>")]


def _unary(ops: str) -> str:
    return executable_text("unary", BINDINGS, UNARY.format(ops=ops))


def test_kernel_follows_the_abi_and_prints_special_constants() -> None:
    # clamp to [-inf, 1], take max with NaN-propagating semantics, divide, compare unordered
    executable = compile_executable(
        _unary(
            """          %ninf = arith.constant 0xFF800000 : f32
          %one = arith.constant 1.000000e+00 : f32
          %a = arith.maximumf %in, %ninf : f32
          %b = arith.minimumf %a, %one : f32
          %c = arith.divf %b, %one : f32
          %nan = arith.cmpf uno, %in, %in : f32
          %d = arith.select %nan, %one, %c : f32
          linalg.yield %d : f32"""
        )
    )
    source = executable.source
    assert "def dispatch_0(wg_begin, wg_end, wg_count_x, wg_count_y, wg_count_z, b0, b1):" in source
    assert "np.float32(-np.inf)" in source and "np.float32(1.0)" in source
    assert 'error_model="numpy"' in source and "nogil=True, cache=True" in source
    x = np.array([-np.inf, -2.0, 0.5, 3.0, np.nan, 1.0, 0.0, -0.25], np.float32)
    out = np.zeros(8, np.float32)
    executable.run([x], [out])
    np.testing.assert_array_equal(out, [-np.inf, -2.0, 0.5, 1.0, 1.0, 1.0, 0.0, -0.25])


def test_unsupported_scalar_op_is_a_compile_error() -> None:
    body = """          %i = arith.fptosi %in : f32 to i32
          %c = math.ctlz %i : i32
          %f = arith.sitofp %c : i32 to f32
          linalg.yield %f : f32"""
    with pytest.raises(
        CompileError, match="'math.ctlz' is not supported by the numba-cpu backend"
    ) as info:
        compile_executable(_unary(body))
    assert info.value.stage == "codegen"


def test_bitcast_reinterprets_the_bits() -> None:
    body = """          %i = arith.bitcast %in : f32 to i32
          %j = arith.addi %i, %i : i32
          %k = arith.subi %j, %i : i32
          %f = arith.bitcast %k : i32 to f32
          linalg.yield %f : f32"""
    executable = compile_executable(_unary(body))
    x = np.array([1.5, -0.0, np.inf, 3e-39, 7.0, -2.25, 0.1, 1e30], np.float32)
    out = np.zeros(8, np.float32)
    executable.run([x], [out])
    assert out.view(np.int32).tolist() == x.view(np.int32).tolist()


def test_unsupported_tensor_op_is_a_compile_error() -> None:
    body = """
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0], sizes = [8], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8xf32>> -> tensor<8xf32>
        %s = arith.constant dense<8> : tensor<1xindex>
        %1 = tensor.reshape %0(%s) : (tensor<8xf32>, tensor<1xindex>) -> tensor<8xf32>
        iree_tensor_ext.dispatch.tensor.store %1, %arg1, offsets = [0], sizes = [8], strides = [1] : tensor<8xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8xf32>>"""
    # (a read-only `tensor.extract_slice` bufferizes as a subview now, so a reshape stands in)
    with pytest.raises(CompileError, match="'tensor.reshape' on tensors is not supported"):
        compile_executable(executable_text("slice", BINDINGS, body))


def test_integer_division_truncates_toward_zero() -> None:
    """arith.divsi / remsi follow C, not Python's floor division."""
    body = """          %i = arith.fptosi %in : f32 to i32
          %three = arith.constant 3 : i32
          %q = arith.divsi %i, %three : i32
          %r = arith.remsi %i, %three : i32
          %t = arith.muli %q, %three : i32
          %s = arith.addi %t, %r : i32
          %u = arith.subi %s, %i : i32
          %qf = arith.sitofp %q : i32 to f32
          %uf = arith.sitofp %u : i32 to f32
          %f = arith.addf %qf, %uf : f32
          linalg.yield %f : f32"""
    executable = compile_executable(_unary(body))
    x = np.array([-7, -6, -5, -1, 0, 1, 5, 7], np.float32)
    out = np.zeros(8, np.float32)
    executable.run([x], [out])
    np.testing.assert_array_equal(out, np.trunc(x / 3))
