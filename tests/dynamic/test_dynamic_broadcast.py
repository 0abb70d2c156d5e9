"""A `?` operand broadcast into a static result, as IREE compiles it (ONNX NonZero's shape).

A generic reads a `?x1` operand through `(d0, d1) -> (d0, 0)` into a static `3x4` result:
the loop `d0` has the result's extent, so MLIR's canonicalizer (InferStaticShapeOfOperands,
then TensorCastExtractSlice through the expand) makes the slice that produced the operand a
static 3-element one, and the slice, at an offset read from a tensor, fuses into the
elementwise dispatch as iree-compile forms it. One module serves every size of the sliced
vector and every offset.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAM = str(Path(__file__).parent / "programs" / "broadcast_slice_rows.mlir")
SIZES = [3, 4, 7, 100, 131]
"""Lengths of the sliced vector: exactly the three rows, one more, and across tiles."""

needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)


@pytest.fixture(scope="module")
def module():
    return ireelab.compile(PROGRAM)


def _cases():
    rng = np.random.default_rng(17)
    w = rng.standard_normal((1, 4)).astype(np.float32)
    for n in SIZES:
        x = rng.standard_normal(n).astype(np.float32)
        for offset in sorted({0, (n - 3) // 2, n - 3}):
            yield x, np.array([offset, 3], np.int64), w


def test_every_size_and_offset_matches_numpy(module):
    for x, pos, w in _cases():
        offset = int(pos[0])
        want = x[offset : offset + 3, None] * w
        np.testing.assert_allclose(module.f(x, pos, w), want, rtol=1e-6)


def test_the_canonicalizer_makes_the_slice_static():
    ir = ireelab.compile(PROGRAM, compile_to="input").ir()
    assert re.search(r"tensor\.extract_slice %\w+\[%\w+\] \[3\] \[1\]", ir)
    assert "tensor<?x1xf32>" not in ir


def test_a_broadcast_whose_loop_is_dynamic_follows_its_init(tmp_path):
    """With a `?x4` result the loop `d0` takes its size from the init, `tensor.empty(%n)`, the
    same `%n` as the `?x1` operand's: one module for every count, against numpy."""
    source = Path(PROGRAM).read_text().replace("tensor<3x4xf32>", "tensor<?x4xf32>")
    source = source.replace(
        "tensor.empty() : tensor<?x4xf32>", "tensor.empty(%n) : tensor<?x4xf32>"
    )
    path = tmp_path / "dynamic_loop.mlir"
    path.write_text(source)
    module = ireelab.compile(str(path))
    rng = np.random.default_rng(5)
    x = rng.standard_normal(9, dtype=np.float32)
    w = rng.standard_normal((1, 4), dtype=np.float32)
    for offset, count in [(0, 1), (2, 3), (1, 7), (4, 5)]:
        got = module.f(x, np.array([offset, count], np.int64), w)
        np.testing.assert_allclose(got, x[offset : offset + count, None] * w, rtol=1e-6)


@pytest.mark.iree
@needs_iree
def test_dispatches_and_results_match_iree(module):
    import ireelab.iree

    iree_ir = ireelab.iree.compile(PROGRAM, compile_to="flow", trace=False).ir()
    ours = ireelab.compile(PROGRAM, compile_to="flow").ir()
    sites = r"flow\.dispatch @\w+::@(\w+)"
    assert re.findall(sites, ours) == re.findall(sites, iree_ir)
    assert re.findall(sites, ours) == ["f_dispatch_0_elementwise_broadcast_3x4_f32"]
    iree_module = ireelab.iree.compile(PROGRAM, trace=False)
    for x, pos, w in _cases():
        want = iree_module.invoke_all("f", x, pos, w)
        want = want[0] if isinstance(want, tuple | list) else want
        np.testing.assert_allclose(module.f(x, pos, w), want, rtol=1e-6)
