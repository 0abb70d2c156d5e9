"""Programs of model size (40+ dispatches) for the pictures' overview mode, with numpy meanings.

`mlp(layers)`: a deep MLP, each layer `matmul + bias + tanh` with its own widths, so every
dispatch has a distinct IREE name (`mlp48_dispatch_7_matmul_2x16x15_f32`). `cnn(blocks)`: a
chain of `conv_2d_nhwc_hwcf + bias + relu` then `pooling_nhwc_max` blocks (two dispatches
each: IREE forms one dispatch per root, and a conv and a pool are both roots). Shapes are small
so a compile takes seconds; weights are arguments (host tensor constants are their own issue).
"""

from __future__ import annotations

import numpy as np

from ireelab.iree.program_generator import ProgramBuilder, Value

BATCH = 2


def mlp_widths(layers: int) -> list[int]:
    """Layer widths, all different, so no two layers share a dispatch name."""
    return [8 + k for k in range(layers + 1)]


def mlp(layers: int = 48, name: str = "mlp48") -> str:
    builder = ProgramBuilder(name)
    widths = mlp_widths(layers)
    x = builder.arg((BATCH, widths[0]))
    for k in range(layers):
        weight = builder.arg((widths[k], widths[k + 1]))
        bias = builder.arg((widths[k + 1],))
        x = builder.unary("math.tanh", builder.add_row(builder.matmul(x, weight), bias))
    return builder.text([x])


def mlp_inputs(layers: int = 48, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    widths = mlp_widths(layers)
    arrays = [rng.standard_normal((BATCH, widths[0]), dtype=np.float32)]
    for k in range(layers):
        scale = np.float32(1.0 / np.sqrt(widths[k]))
        arrays.append(rng.standard_normal((widths[k], widths[k + 1]), dtype=np.float32) * scale)
        arrays.append(rng.standard_normal((widths[k + 1],), dtype=np.float32) * 0.1)
    return arrays


def mlp_numpy(arrays: list[np.ndarray]) -> np.ndarray:
    x = arrays[0]
    for k in range(1, len(arrays), 2):
        x = np.tanh(x @ arrays[k] + arrays[k + 1])
    return x


def cnn_shapes(blocks: int, size: int = 3 * 21 + 3) -> list[tuple[int, int]]:
    """(spatial size, channels) entering each block: a 3x3 valid conv takes 2 off the size, a
    2x2 stride-1 pool 1 more; channels cycle through 3..6 so the names differ."""
    return [(size - 3 * k, 3 + k % 4) for k in range(blocks + 1)]


class _ConvBuilder(ProgramBuilder):
    def conv_bias_relu(self, x: Value, weight: Value, bias: Value) -> Value:
        n, h, w, _ = x.shape
        out = (n, h - 2, w - 2, weight.shape[3])
        acc = self._filled(out)
        conv = Value(self.fresh("conv"), out)
        self.lines.append(
            f"  {conv.name} = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : tensor<2xi64>, "
            f"strides = dense<1> : tensor<2xi64>}} ins({x.name}, {weight.name} : {x.type}, "
            f"{weight.type}) outs({acc.name} : {acc.type}) -> {conv.type}"
        )
        maps = [(conv, "d0, d1, d2, d3"), (bias, "d3")]
        body = [
            "%b = arith.addf %in0, %in1 : f32",
            f"%r = arith.maximumf %b, {self._zero()} : f32",
            "linalg.yield %r : f32",
        ]
        return self._generic(maps, self._empty(out), "d0, d1, d2, d3", ["parallel"] * 4, body, 4)

    def max_pool(self, x: Value) -> Value:
        n, h, w, c = x.shape
        out = (n, h - 1, w - 1, c)
        window = self._empty((2, 2))
        empty = self._empty(out)
        low = self.fresh("ninf")
        filled = Value(self.fresh("f"), out)
        pooled = Value(self.fresh("pool"), out)
        self.lines += [
            f"  {low} = arith.constant 0xFF800000 : f32",
            f"  {filled.name} = linalg.fill ins({low} : f32) outs({empty.name} : {empty.type})"
            f" -> {filled.type}",
            f"  {pooled.name} = linalg.pooling_nhwc_max {{dilations = dense<1> : tensor<2xi64>, "
            f"strides = dense<1> : tensor<2xi64>}} ins({x.name}, {window.name} : {x.type}, "
            f"{window.type}) outs({filled.name} : {filled.type}) -> {pooled.type}",
        ]
        return pooled


def cnn(blocks: int = 21, name: str = "cnn21") -> str:
    builder = _ConvBuilder(name)
    shapes = cnn_shapes(blocks)
    x = builder.arg((1, shapes[0][0], shapes[0][0], shapes[0][1]))
    for k in range(blocks):
        channels_in, channels_out = shapes[k][1], shapes[k + 1][1]
        weight = builder.arg((3, 3, channels_in, channels_out))
        bias = builder.arg((channels_out,))
        x = builder.max_pool(builder.conv_bias_relu(x, weight, bias))
    return builder.text([x])


def cnn_inputs(blocks: int = 21, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    shapes = cnn_shapes(blocks)
    size, channels = shapes[0]
    arrays = [rng.standard_normal((1, size, size, channels), dtype=np.float32)]
    for k in range(blocks):
        c_in, c_out = shapes[k][1], shapes[k + 1][1]
        scale = np.float32(1.0 / np.sqrt(9 * c_in))
        arrays.append(rng.standard_normal((3, 3, c_in, c_out), dtype=np.float32) * scale)
        arrays.append(rng.standard_normal((c_out,), dtype=np.float32) * 0.1)
    return arrays


def cnn_numpy(arrays: list[np.ndarray]) -> np.ndarray:
    x = arrays[0]
    for k in range(1, len(arrays), 2):
        weight, bias = arrays[k], arrays[k + 1]
        windows = np.lib.stride_tricks.sliding_window_view(x, (3, 3), axis=(1, 2))
        x = np.maximum(np.einsum("nhwcij,ijco->nhwo", windows, weight) + bias, 0)
        x = np.lib.stride_tricks.sliding_window_view(x, (2, 2), axis=(1, 2)).max(axis=(4, 5))
    return x
