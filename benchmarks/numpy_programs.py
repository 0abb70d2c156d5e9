"""The reference programs written in numpy by hand: the "numpy eager" a user would write.

Each takes and returns numpy arrays like the MLIR function of the same program; the
benchmarks time these beside ireelab and IREE. Programs without an entry here are timed
through ireelab's op-by-op numpy evaluator (`ireelab.eager`).
"""

from __future__ import annotations

import numpy as np


def _softmax_rows(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _conv_bias_relu(x, w, b):
    n, h, wd, c = x.shape
    kh, kw, _, f = w.shape
    oh, ow = h - kh + 1, wd - kw + 1
    windows = np.lib.stride_tricks.sliding_window_view(x, (kh, kw), axis=(1, 2))
    out = np.tensordot(windows, w, axes=([3, 4, 5], [2, 0, 1]))  # n, oh, ow, f
    return np.maximum(out.reshape(n, oh, ow, f) + b, 0)


def _mlp3(x, w1, b1, w2, b2, w3, b3):
    h = np.maximum(x @ w1 + b1, 0)
    h = np.maximum(h @ w2 + b2, 0)
    return h @ w3 + b3


NUMPY_PROGRAMS = {
    "a0_matmul_tiny": lambda a, b: a @ b,
    "a1_matmul_1024": lambda a, b: a @ b,
    "b_mlp_layer": lambda x, w, b: np.maximum(x @ w + b, 0),
    "c_two_matmuls_add": lambda a, b, c, d: a @ b + c @ d,
    "d_mlp3": _mlp3,
    "e_softmax": _softmax_rows,
    "f_conv_bias_relu": _conv_bias_relu,
    "g_reduce_sum": lambda x: x.sum(axis=1),
    "h_transpose_add": lambda a, b: a.T + b,
    "i_elementwise_chain": lambda a, b: np.tanh((a + b) * a - b),
    "j_attention": lambda q, k, v: _softmax_rows((q @ k.T) * np.float32(0.125)) @ v,
    "k_batch_matmul": lambda a, b: a @ b,
    "l_two_results": lambda a, b: (a @ b, a + b),
}
