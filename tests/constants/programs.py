"""MLIR programs with dense tensor constants (splat, small, large) for the constant tests.

Constants are printed from seeded random numbers, so every test sees the same values; the
sizes straddle IREE's 256-byte inlining limit (`--iree-flow-inline-constants-max-byte-length`).
"""

from __future__ import annotations

import numpy as np


def dense(values: np.ndarray) -> str:
    """`dense<...>` text of a float32/int array (nested lists, values printed exactly)."""
    if values.ndim == 0:
        return f"dense<{_scalar(values.item())}>"
    return f"dense<{_nested(values)}>"


def _scalar(x: float | int) -> str:
    return repr(float(x)) if isinstance(x, float) else str(x)


def _nested(values: np.ndarray) -> str:
    if values.ndim == 1:
        return "[" + ", ".join(_scalar(x) for x in values.tolist()) + "]"
    return "[" + ", ".join(_nested(row) for row in values) + "]"


def weights(shape: tuple[int, ...], seed: int) -> np.ndarray:
    """float32 values that print exactly (multiples of 1/64 in [-2, 2))."""
    rng = np.random.default_rng(seed)
    return (rng.integers(-128, 128, size=shape) / 64).astype(np.float32)


ADDC = """
func.func @addc(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<2.0> : tensor<4xf32>
  %d = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = arith.mulf %a, %c : tensor<4xf32>
  %1 = arith.addf %0, %d : tensor<4xf32>
  %2 = math.exp %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}
"""
"""The program of the issue: a splat and a 16-byte constant, elementwise."""


def elementwise_2d(rows: int, cols: int, seed: int = 0) -> str:
    """`a * C + D` on rows x cols with two dense constants of that shape."""
    c, d = weights((rows, cols), seed), weights((rows, cols), seed + 1)
    t = f"tensor<{rows}x{cols}xf32>"
    return f"""
func.func @ew(%a: {t}) -> {t} {{
  %c = arith.constant {dense(c)} : {t}
  %d = arith.constant {dense(d)} : {t}
  %0 = arith.mulf %a, %c : {t}
  %1 = arith.addf %0, %d : {t}
  return %1 : {t}
}}
"""


def matmul_bias(m: int, k: int, n: int, seed: int = 0, relu: bool = True) -> str:
    """`relu(a @ W + b)`: W (k x n) and b (n) are dense constants."""
    w, b = weights((k, n), seed), weights((n,), seed + 1)
    a_t, w_t, o_t, b_t = (
        f"tensor<{m}x{k}xf32>",
        f"tensor<{k}x{n}xf32>",
        f"tensor<{m}x{n}xf32>",
        f"tensor<{n}xf32>",
    )
    tail = (
        f"""  %zero = arith.constant dense<0.0> : {o_t}
  %r = arith.maximumf %s, %zero : {o_t}
  return %r : {o_t}"""
        if relu
        else f"  return %s : {o_t}"
    )
    return f"""
func.func @mlp(%a: {a_t}) -> {o_t} {{
  %w = arith.constant {dense(w)} : {w_t}
  %b = arith.constant {dense(b)} : {b_t}
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {o_t}
  %f = linalg.fill ins(%z : f32) outs(%e : {o_t}) -> {o_t}
  %m = linalg.matmul ins(%a, %w : {a_t}, {w_t}) outs(%f : {o_t}) -> {o_t}
  %bb = linalg.broadcast ins(%b : {b_t}) outs(%e : {o_t}) dimensions = [0]
  %s = arith.addf %m, %bb : {o_t}
{tail}
}}
"""


def bias_add(rows: int, cols: int, seed: int = 0) -> str:
    """`a + broadcast(b)`: the bias b (cols) is a dense constant read along the columns."""
    b = weights((cols,), seed)
    t, b_t = f"tensor<{rows}x{cols}xf32>", f"tensor<{cols}xf32>"
    return f"""
func.func @bias(%a: {t}) -> {t} {{
  %b = arith.constant {dense(b)} : {b_t}
  %e = tensor.empty() : {t}
  %bb = linalg.broadcast ins(%b : {b_t}) outs(%e : {t}) dimensions = [0]
  %s = arith.addf %a, %bb : {t}
  return %s : {t}
}}
"""


def resource_section(blobs: dict[str, np.ndarray]) -> str:
    """The `{-# dialect_resources #-}` section MLIR prints for these arrays (4-byte aligned)."""
    entries = ",\n".join(
        f'      {key}: "0x04000000{array.tobytes().hex().upper()}"' for key, array in blobs.items()
    )
    return f"{{-#\n  dialect_resources: {{\n    builtin: {{\n{entries}\n    }}\n  }}\n#-}}\n"


def torch_linear_relu(
    batch: int, k: int, n: int, seed: int = 0
) -> tuple[str, np.ndarray, np.ndarray]:
    """`relu(x @ W.T + b)` in the form IREE's torch input conversion leaves a PyTorch
    `Linear` + `ReLU` (`--compile-to=input --iree-torch-emit-async-entry-points=false`):
    a `util.func`, the weight (n x k) and bias as `dense_resource` blobs, the weight transposed
    by a `linalg.transpose`, the bias added and the ReLU applied by generics. Returns the
    program, W and b."""
    w, b = weights((n, k), seed), weights((n,), seed + 1)
    wk, bk = f"torch_tensor_{n}_{k}_torch.float32", f"torch_tensor_{n}_torch.float32"
    x_t, o_t = f"tensor<{batch}x{k}xf32>", f"tensor<{batch}x{n}xf32>"
    id2 = "affine_map<(d0, d1) -> (d0, d1)>"
    source = f"""module @module {{
  util.func public @main(%arg0: {x_t}) -> {o_t} {{
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant dense_resource<{wk}> : tensor<{n}x{k}xf32>
    %cst_1 = arith.constant dense_resource<{bk}> : tensor<{n}xf32>
    %0 = tensor.empty() : tensor<{k}x{n}xf32>
    %transposed = linalg.transpose ins(%cst_0 : tensor<{n}x{k}xf32>) outs(%0 : tensor<{k}x{n}xf32>) permutation = [1, 0]
    %1 = tensor.empty() : {o_t}
    %2 = linalg.fill ins(%cst : f32) outs(%1 : {o_t}) -> {o_t}
    %3 = linalg.matmul ins(%arg0, %transposed : {x_t}, tensor<{k}x{n}xf32>) outs(%2 : {o_t}) -> {o_t}
    %4 = linalg.generic {{indexing_maps = [{id2}, affine_map<(d0, d1) -> (d1)>, {id2}], iterator_types = ["parallel", "parallel"]}} ins(%3, %cst_1 : {o_t}, tensor<{n}xf32>) outs(%1 : {o_t}) {{
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %6 = arith.addf %in, %in_2 : f32
      linalg.yield %6 : f32
    }} -> {o_t}
    %5 = linalg.generic {{indexing_maps = [{id2}, {id2}], iterator_types = ["parallel", "parallel"]}} ins(%4 : {o_t}) outs(%1 : {o_t}) {{
    ^bb0(%in: f32, %out: f32):
      %6 = arith.cmpf ugt, %in, %cst : f32
      %7 = arith.select %6, %in, %cst : f32
      linalg.yield %7 : f32
    }} -> {o_t}
    util.return %5 : {o_t}
  }}
}}
"""
    return source + resource_section({wk: w, bk: b}), w, b


def global_weights_matmul(
    m: int, k: int, n: int, seed: int = 0
) -> tuple[str, np.ndarray, np.ndarray]:
    """`x @ W + b` reading W and b from immutable `util.global`s with `dense_resource`
    initial values, as IREE's input conversion leaves `ml_program.global`s
    (`ml_program.global_load_const` -> `util.global.load`). Returns the program, W and b."""
    w, b = weights((k, n), seed), weights((n,), seed + 1)
    x_t, o_t = f"tensor<{m}x{k}xf32>", f"tensor<{m}x{n}xf32>"
    source = f"""module {{
  util.global private @w = dense_resource<w_blob> : tensor<{k}x{n}xf32>
  util.global private @b = dense_resource<b_blob> : tensor<{n}xf32>
  util.func public @f(%arg0: {x_t}) -> {o_t} {{
    %w = util.global.load @w : tensor<{k}x{n}xf32>
    %b = util.global.load @b : tensor<{n}xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : {o_t}
    %1 = linalg.fill ins(%cst : f32) outs(%0 : {o_t}) -> {o_t}
    %2 = linalg.matmul ins(%arg0, %w : {x_t}, tensor<{k}x{n}xf32>) outs(%1 : {o_t}) -> {o_t}
    %broadcasted = linalg.broadcast ins(%b : tensor<{n}xf32>) outs(%0 : {o_t}) dimensions = [0]
    %3 = arith.addf %2, %broadcasted : {o_t}
    util.return %3 : {o_t}
  }}
}}
"""
    return source + resource_section({"w_blob": w, "b_blob": b}), w, b
