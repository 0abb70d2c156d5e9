"""`arith.maximumf` / `arith.minimumf` in numba kernels: `llvm.maximum` / `llvm.minimum`.

The row max of a softmax is a NaN-propagating reduction; it now lowers to LLVM's intrinsic,
which the loop vectoriser handles (checked in the kernel's assembly). Semantics against
numpy: NaN anywhere in a row gives NaN, infinities order as numbers. The sign of a zero
result is not checked: kernels compile with the `nsz` fast-math flag
(`executable_source.FASTMATH_FLAGS`), which lets LLVM pick either zero.
"""

from __future__ import annotations

import sys

import numba
import numpy as np
import pytest
from codegen_harness import CompiledExecutable, compile_executable
from dispatch_bodies import Dispatch, _load, _store, _tensor


def _row_reduction(kind: str, m: int, n: int) -> Dispatch:
    mn, row = _tensor((m, n)), _tensor((m,))
    init = "0xFF800000" if kind == "maximumf" else "0x7F800000"
    body = f"""
        %cst = arith.constant {init} : f32
        {_load("%0", 0, (m, n))}
        %1 = tensor.empty() : {row}
        %2 = linalg.fill ins(%cst : f32) outs(%1 : {row}) -> {row}
        %3 = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}} ins(%0 : {mn}) outs(%2 : {row}) {{
        ^bb0(%in: f32, %out: f32):
          %4 = arith.{kind} %in, %out : f32
          linalg.yield %4 : f32
        }} -> {row}
        {_store("%3", 1, (m,))}"""
    reference = np.max if kind == "maximumf" else np.min
    return Dispatch(f"row_{kind}_{m}x{n}", [(m, n)], (m,), body, lambda a: reference(a, axis=1))


def _elementwise(kind: str, n: int) -> Dispatch:
    vec = _tensor((n,))
    body = f"""
        {_load("%0", 0, (n,))}
        {_load("%1", 1, (n,))}
        %2 = tensor.empty() : {vec}
        %3 = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}} ins(%0, %1 : {vec}, {vec}) outs(%2 : {vec}) {{
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %4 = arith.{kind} %in, %in_0 : f32
          linalg.yield %4 : f32
        }} -> {vec}
        {_store("%3", 2, (n,))}"""
    return Dispatch(f"ew_{kind}_{n}", [(n,), (n,)], (n,), body, None)


@pytest.fixture(scope="module")
def kernels() -> dict[str, CompiledExecutable]:
    return {}


def _kernel(cache: dict[str, CompiledExecutable], dispatch: Dispatch) -> CompiledExecutable:
    if dispatch.name not in cache:
        cache[dispatch.name] = compile_executable(dispatch.text())
    return cache[dispatch.name]


def _special_rows(m: int, n: int) -> np.ndarray:
    rng = np.random.default_rng(1)
    x = rng.uniform(-100, 100, (m, n)).astype(np.float32)
    x[0, 5] = np.nan  # NaN in the middle of a row
    x[1, n - 1] = np.nan  # NaN last (the vector loop's remainder)
    x[2, :] = -np.inf
    x[3, 7] = np.inf
    x[4, 0] = np.nan
    x[4, 1] = np.inf
    x[5, :] = np.inf
    x[6, 3] = -np.inf
    x[7, :] = 0.0
    x[7, ::2] = -0.0
    x[8, :] = np.nan
    return x


@pytest.mark.parametrize("kind", ["maximumf", "minimumf"])
@pytest.mark.parametrize("n", [1, 13, 256])
def test_row_reduction_propagates_nan(kernels, kind: str, n: int) -> None:
    m = 16
    dispatch = _row_reduction(kind, m, n)
    x = _special_rows(m, max(n, 16))[:, :n].copy()
    out = np.zeros(m, np.float32)
    _kernel(kernels, dispatch).run([x], [out])
    np.testing.assert_array_equal(out, dispatch.reference(x))


def _ieee(kind: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IEEE 754-2019 maximum / minimum: NaN-propagating, -0.0 < +0.0."""
    pick = np.maximum if kind == "maximumf" else np.minimum
    result = pick(a, b)
    zeros = (a == 0) & (b == 0)
    negative = (
        np.signbit(a) | np.signbit(b) if kind == "minimumf" else np.signbit(a) & np.signbit(b)
    )
    result[zeros] = np.where(negative[zeros], np.float32(-0.0), np.float32(0.0))
    return result


@pytest.mark.parametrize("kind", ["maximumf", "minimumf"])
def test_elementwise_semantics(kernels, kind: str) -> None:
    values = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -2.0], np.float32)
    a, b = (g.reshape(-1).copy() for g in np.meshgrid(values, values))
    dispatch = _elementwise(kind, a.size)
    out = np.zeros_like(a)
    _kernel(kernels, dispatch).run([a, b], [out])
    np.testing.assert_array_equal(out, _ieee(kind, a, b))  # -0.0 == 0.0 here


def test_row_max_vectorises(kernels) -> None:
    """The reduction loop runs on vector registers (packed max), not scalar selects."""
    dispatch = _row_reduction("maximumf", 16, 256)
    executable = _kernel(kernels, dispatch)
    executable.run([np.ones((16, 256), np.float32)], [np.zeros(16, np.float32)])
    cached = executable.loaded.functions[0]
    options = dict(vars(sys.modules[cached.py_func.__module__])["_JIT_OPTIONS"], cache=False)
    kernel = numba.njit(**options)(cached.py_func)  # numba cannot inspect cached code
    kernel.compile(cached.signatures[0])
    assembly = "\n".join(kernel.inspect_asm().values())
    assert "maxps" in assembly
