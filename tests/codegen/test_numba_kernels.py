"""End to end through codegen: executable-sources IR -> numba kernels -> numpy comparison.

Each case compiles one dispatch as IREE forms it, runs every workgroup of the loaded kernel
over random inputs and compares with numpy. Tolerance: float32 results against a float64
numpy reference, rtol=1e-4, atol=1e-4 (sums of up to ~600 products of values in [-1, 1]).
"""

from __future__ import annotations

import io
import keyword
import math
import re
import tokenize

import numpy as np
import pytest
from codegen_harness import CompiledExecutable, compile_executable
from dispatch_bodies import (
    Dispatch,
    batch_matmul,
    conv_bias_relu,
    elementwise_tanh,
    matmul,
    matmul_bias_relu,
    softmax_exp,
    transpose_add,
)

from ireelab.compiler.codegen.scalar_ops import INTRINSICS
from ireelab.compiler.codegen.ukernel_library import ukernel_sources

RTOL = ATOL = 1e-4

CASES = {
    "matmul_2x4x2": matmul(2, 2, 4),  # the founding note's matmul
    "matmul_1x1x1": matmul(1, 1, 1),
    "matmul_33x17x65": matmul(33, 65, 17),  # odd sizes: tiles are divisors of the extents
    "matmul_256x128x8": matmul(256, 128, 8),  # several workgroups in x and y
    "mlp_64x96x32": matmul_bias_relu(64, 96, 32),
    "softmax_64x128": softmax_exp(64, 128),
    "transpose_add_96x64": transpose_add(96, 64),
    "conv_1x10x12x8x16": conv_bias_relu(1, 10, 12, 8, 16),
    "ew_chain_10000": elementwise_tanh(10000),
    "batch_matmul_3x16x24x8": batch_matmul(3, 16, 24, 8),
    "loops_matmul_33x17x65": matmul(33, 65, 17),
    "loops_mlp_64x96x32": matmul_bias_relu(64, 96, 32),
}
LOOPS_ONLY = {"loops_matmul_33x17x65", "loops_mlp_64x96x32"}
"""Compiled with `ukernels = "none"`: contractions through the loop lowering."""


@pytest.fixture(scope="module")
def compiled() -> dict[str, CompiledExecutable]:
    return {}


def _compile(cache: dict[str, CompiledExecutable], key: str) -> CompiledExecutable:
    if key not in cache:
        ukernels = "none" if key in LOOPS_ONLY else None
        cache[key] = compile_executable(CASES[key].text(ukernels))
    return cache[key]


def _run(
    executable: CompiledExecutable, dispatch: Dispatch, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    inputs = [rng.uniform(-1, 1, shape).astype(np.float32) for shape in dispatch.inputs]
    output = np.full(dispatch.output, np.nan, np.float32)
    executable.run(inputs, [output])
    expected = dispatch.reference(*(a.astype(np.float64) for a in inputs))
    return output, expected


@pytest.mark.parametrize("key", list(CASES))
def test_kernel_matches_numpy(compiled: dict[str, CompiledExecutable], key: str) -> None:
    executable = _compile(compiled, key)
    output, expected = _run(executable, CASES[key])
    np.testing.assert_allclose(output, expected, rtol=RTOL, atol=ATOL)


_GENERATED = re.compile(r"^(v\d+|b\d+|row\d+|bi\d+|dispatch_\d+|wg|wg_\w+|_[A-Za-z_0-9]+|[a-z])$")
_MODULES = {
    "np",
    "numpy",
    "numba",
    "dtype",
    "math",
    "nogil",
    "cache",
    "error_model",
    "fastmath",
    "inline",
    "dict",
    "range",
    "abs",
    "bool",
    "int",
    "True",
    "False",
}
_ATTRIBUTES = set(dir(np)) | set(dir(math)) | {"view", "reshape", "njit", "transpose"}


def _names(text: str) -> set[str]:
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return {t.string for t in tokens if t.type == tokenize.NAME}


# The micro-kernel library and the intrinsics are fixed text (no input reaches them): their
# identifiers are allowed.
_LIBRARY = _names("\n".join(ukernel_sources("_uk_matmul_f32( _uk_matmul_f64( _uk_conv_hwc(")))
_LIBRARY |= _names("\n".join(INTRINSICS.values())) | {"extending"}
_MODULES |= _LIBRARY
_ATTRIBUTES |= _LIBRARY


@pytest.mark.parametrize("key", list(CASES))
def test_source_holds_no_input_names(compiled: dict[str, CompiledExecutable], key: str) -> None:
    """Every identifier in the kernel text is generated, a module, or an attribute of one."""
    source = _compile(compiled, key).source
    previous = None
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME and not keyword.iskeyword(token.string):
            if previous == ".":
                assert token.string in _ATTRIBUTES, token.string
            else:
                assert token.string in _MODULES or _GENERATED.match(token.string), token.string
        if token.type != tokenize.COMMENT:
            previous = token.string
    assert CASES[key].name not in source.split("\n\n", 1)[1]  # only the header names it


def test_grids_distribute_workgroups(compiled: dict[str, CompiledExecutable]) -> None:
    assert _compile(compiled, "matmul_2x4x2").grids == [(1, 1, 1)]  # IREE: 1, 1, 1 too
    # micro-kernel tiles: 128 rows by all 128 columns, so x walks the rows
    assert _compile(compiled, "matmul_256x128x8").grids == [(2, 1, 1)]
    assert _compile(compiled, "loops_mlp_64x96x32").grids == [(2, 1, 1)]  # 48-column tiles
    assert _compile(compiled, "softmax_64x128").grids == [(2, 1, 1)]  # rows only: no recompute
    assert _compile(compiled, "batch_matmul_3x16x24x8").grids == [(3, 1, 1)]  # batch only
