"""Fixtures for end-to-end tests: compiled modules are shared across tests (numba compile
time adds up), keyed by program text."""

from __future__ import annotations

import pytest

import ireelab

_CACHE: dict[tuple[str, str], object] = {}

REFERENCE_PROGRAMS = [
    "a0_matmul_tiny", "a1_matmul_1024", "b_mlp_layer", "c_two_matmuls_add", "d_mlp3",
    "e_softmax", "f_conv_bias_relu", "g_reduce_sum", "h_transpose_add", "i_elementwise_chain",
    "j_attention", "k_batch_matmul", "l_two_results",
]  # fmt: skip


@pytest.fixture(scope="session")
def compile_cached():
    def compile_(source: str, device: str = "local-sync"):
        key = (source, device)
        if key not in _CACHE:
            _CACHE[key] = ireelab.compile(source, device=device)
        return _CACHE[key]

    return compile_
