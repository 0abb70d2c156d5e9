"""Dispatch bodies as IREE 3.13 forms them (see shared/reference/iree-3.13-ir/*.flow.mlir),
parameterised by shape, each with a numpy reference. `%argN` are the bindings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from codegen_harness import Binding, executable_text


@dataclass(frozen=True)
class Dispatch:
    name: str
    inputs: list[tuple[int, ...]]
    output: tuple[int, ...]
    body: str
    reference: Callable[..., np.ndarray]

    def text(self, ukernels: str | None = None) -> str:
        """Executable-sources IR; `ukernels="none"` keeps contractions on the loop path."""
        bindings = [Binding("readonly", _tensor(s)) for s in self.inputs]
        bindings.append(Binding("writeonly", _tensor(self.output)))
        return executable_text(self.name, bindings, self.body, ukernels)


def _tensor(shape: tuple[int, ...]) -> str:
    return "tensor<" + "x".join(str(s) for s in shape) + "xf32>"


def _dt(access: str, shape: tuple[int, ...]) -> str:
    return f"!iree_tensor_ext.dispatch.tensor<{access}:{_tensor(shape)}>"


def _load(result: str, arg: int, shape: tuple[int, ...]) -> str:
    zeros = ", ".join("0" for _ in shape)
    ones = ", ".join("1" for _ in shape)
    sizes = ", ".join(str(s) for s in shape)
    return (
        f"{result} = iree_tensor_ext.dispatch.tensor.load %arg{arg}, offsets = [{zeros}], sizes = [{sizes}], "
        f"strides = [{ones}] : {_dt('readonly', shape)} -> {_tensor(shape)}"
    )


def _store(value: str, arg: int, shape: tuple[int, ...]) -> str:
    zeros = ", ".join("0" for _ in shape)
    ones = ", ".join("1" for _ in shape)
    sizes = ", ".join(str(s) for s in shape)
    return (
        f"iree_tensor_ext.dispatch.tensor.store {value}, %arg{arg}, offsets = [{zeros}], sizes = [{sizes}], "
        f"strides = [{ones}] : {_tensor(shape)} -> {_dt('writeonly', shape)}"
    )


def matmul(m: int, n: int, k: int) -> Dispatch:
    body = f"""
        %cst = arith.constant 0.000000e+00 : f32
        {_load("%0", 0, (m, k))}
        {_load("%1", 1, (k, n))}
        %2 = tensor.empty() : {_tensor((m, n))}
        %3 = linalg.fill ins(%cst : f32) outs(%2 : {_tensor((m, n))}) -> {_tensor((m, n))}
        %4 = linalg.matmul ins(%0, %1 : {_tensor((m, k))}, {_tensor((k, n))}) outs(%3 : {_tensor((m, n))}) -> {_tensor((m, n))}
        {_store("%4", 2, (m, n))}"""
    return Dispatch(f"matmul_{m}x{n}x{k}", [(m, k), (k, n)], (m, n), body, lambda a, b: a @ b)


def matmul_bias_relu(m: int, n: int, k: int) -> Dispatch:
    mn = _tensor((m, n))
    body = f"""
        %cst = arith.constant 0.000000e+00 : f32
        {_load("%0", 0, (m, k))}
        {_load("%1", 1, (k, n))}
        {_load("%2", 2, (n,))}
        %3 = tensor.empty() : {mn}
        %4 = linalg.fill ins(%cst : f32) outs(%3 : {mn}) -> {mn}
        %5 = linalg.matmul ins(%0, %1 : {_tensor((m, k))}, {_tensor((k, n))}) outs(%4 : {mn}) -> {mn}
        %6 = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} ins(%5, %2 : {mn}, {_tensor((n,))}) outs(%3 : {mn}) {{
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %7 = arith.addf %in, %in_0 : f32
          %8 = arith.maximumf %7, %cst : f32
          linalg.yield %8 : f32
        }} -> {mn}
        {_store("%6", 3, (m, n))}"""
    return Dispatch(
        f"mlp_{m}x{n}x{k}",
        [(m, k), (k, n), (n,)],
        (m, n),
        body,
        lambda a, b, c: np.maximum(a @ b + c, 0),
    )


def softmax_exp(m: int, n: int) -> Dispatch:
    """The first softmax dispatch: a row max fused with its `exp(x - max)` consumer."""
    mn, row = _tensor((m, n)), _tensor((m,))
    body = f"""
        %cst = arith.constant 0xFF800000 : f32
        {_load("%0", 0, (m, n))}
        %1 = tensor.empty() : {mn}
        %2 = tensor.empty() : {row}
        %3 = linalg.fill ins(%cst : f32) outs(%2 : {row}) -> {row}
        %4 = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}} ins(%0 : {mn}) outs(%3 : {row}) {{
        ^bb0(%in: f32, %out: f32):
          %6 = arith.maximumf %in, %out : f32
          linalg.yield %6 : f32
        }} -> {row}
        %5 = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} ins(%0, %4 : {mn}, {row}) outs(%1 : {mn}) {{
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %6 = arith.subf %in, %in_0 : f32
          %7 = math.exp %6 : f32
          linalg.yield %7 : f32
        }} -> {mn}
        {_store("%5", 1, (m, n))}"""
    return Dispatch(
        f"softmax_{m}x{n}",
        [(m, n)],
        (m, n),
        body,
        lambda a: np.exp(a - a.max(axis=1, keepdims=True)),
    )


def transpose_add(m: int, n: int) -> Dispatch:
    body = f"""
        {_load("%0", 0, (n, m))}
        {_load("%1", 1, (m, n))}
        %2 = tensor.empty() : {_tensor((m, n))}
        %3 = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} ins(%0, %1 : {_tensor((n, m))}, {_tensor((m, n))}) outs(%2 : {_tensor((m, n))}) {{
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %4 = arith.addf %in, %in_0 : f32
          linalg.yield %4 : f32
        }} -> {_tensor((m, n))}
        {_store("%3", 2, (m, n))}"""
    return Dispatch(f"transpose_add_{m}x{n}", [(n, m), (m, n)], (m, n), body, lambda a, b: a.T + b)


def conv_bias_relu(n: int, h: int, w: int, c: int, f: int, kh: int = 3, kw: int = 3) -> Dispatch:
    """`linalg.conv_2d_nhwc_hwcf` with bias and relu, the named-op form before generalisation."""
    oh, ow = h - kh + 1, w - kw + 1
    image, filt, out = _tensor((n, h, w, c)), _tensor((kh, kw, c, f)), _tensor((n, oh, ow, f))
    body = f"""
        %cst = arith.constant 0.000000e+00 : f32
        {_load("%0", 0, (n, h, w, c))}
        {_load("%1", 1, (kh, kw, c, f))}
        {_load("%2", 2, (f,))}
        %3 = tensor.empty() : {out}
        %4 = linalg.fill ins(%cst : f32) outs(%3 : {out}) -> {out}
        %5 = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}} ins(%0, %1 : {image}, {filt}) outs(%4 : {out}) -> {out}
        %6 = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%5, %2 : {out}, {_tensor((f,))}) outs(%3 : {out}) {{
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %7 = arith.addf %in, %in_0 : f32
          %8 = arith.maximumf %7, %cst : f32
          linalg.yield %8 : f32
        }} -> {out}
        {_store("%6", 3, (n, oh, ow, f))}"""

    def reference(image: np.ndarray, weights: np.ndarray, bias: np.ndarray) -> np.ndarray:
        result = np.zeros((n, oh, ow, f), np.float64)
        for i in range(kh):
            for j in range(kw):
                result += np.einsum(
                    "nhwc,cf->nhwf", image[:, i : i + oh, j : j + ow, :], weights[i, j]
                )
        return np.maximum(result + bias, 0)

    return Dispatch(
        f"conv_{n}x{h}x{w}x{c}x{f}",
        [(n, h, w, c), (kh, kw, c, f), (f,)],
        (n, oh, ow, f),
        body,
        reference,
    )


def batch_matmul(b: int, m: int, n: int, k: int) -> Dispatch:
    lhs, rhs, out = _tensor((b, m, k)), _tensor((b, k, n)), _tensor((b, m, n))
    body = f"""
        %cst = arith.constant 0.000000e+00 : f32
        {_load("%0", 0, (b, m, k))}
        {_load("%1", 1, (b, k, n))}
        %2 = tensor.empty() : {out}
        %3 = linalg.fill ins(%cst : f32) outs(%2 : {out}) -> {out}
        %4 = linalg.batch_matmul ins(%0, %1 : {lhs}, {rhs}) outs(%3 : {out}) -> {out}
        {_store("%4", 2, (b, m, n))}"""
    return Dispatch(
        f"batch_matmul_{b}x{m}x{n}x{k}", [(b, m, k), (b, k, n)], (b, m, n), body, lambda x, y: x @ y
    )


def elementwise_tanh(size: int) -> Dispatch:
    """IREE's collapsed elementwise chain: `tanh((a + b) * a - b)` over one dim."""
    t = _tensor((size,))
    body = f"""
        {_load("%0", 0, (size,))}
        {_load("%1", 1, (size,))}
        %2 = tensor.empty() : {t}
        %3 = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}} ins(%0, %1 : {t}, {t}) outs(%2 : {t}) {{
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %4 = arith.addf %in, %in_0 : f32
          %5 = arith.mulf %4, %in : f32
          %6 = arith.subf %5, %in_0 : f32
          %7 = math.tanh %6 : f32
          linalg.yield %7 : f32
        }} -> {t}
        {_store("%3", 2, (size,))}"""
    return Dispatch(
        f"ew_chain_{size}", [(size,), (size,)], (size,), body, lambda a, b: np.tanh((a + b) * a - b)
    )
