"""`tensor.extract` of a `?`-sized tensor inside a generic's body, as ONNX's ReverseSequence
imports (IREE's importer reverses a slice of run-time length by reading it at a computed
index). The input stage carries it: the generic becomes a dispatch whose binding holds the
slice with its dim, and one module reverses every prefix length, equal to numpy and the
real IREE. (The same read on the host, a `flow.tensor.load` with dims, is still refused.)
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAM = Path(__file__).parent / "programs" / "extract_dynamic.mlir"


def _want(x: np.ndarray, n: int) -> np.ndarray:
    y = x.copy()
    y[:n] = x[:n][::-1]
    return y


@pytest.fixture(scope="module")
def ours():
    return ireelab.compile(str(PROGRAM))


def test_one_module_reverses_every_prefix(ours):
    x = np.random.default_rng(2).standard_normal(8).astype(np.float32)
    for n in (0, 1, 3, 7, 8):
        got = ours.reverse_prefix(x, np.array(n, np.int64))
        np.testing.assert_array_equal(got, _want(x, n))


def test_the_slice_reaches_the_dispatch_with_its_dim():
    ir = ireelab.compile(str(PROGRAM), compile_to="flow").ir()
    host = ir[ir.index("util.func public @reverse_prefix(") :]
    assert "flow.tensor.load" in host  # %n read back on the host
    assert "tensor.extract " not in host
    assert "readonly:tensor<?xf32>>" in ir  # the slice bound with its dim


@pytest.mark.iree
@pytest.mark.skipif(shutil.which("iree-compile") is None, reason="IREE not installed")
def test_equal_to_iree(ours):
    import ireelab.iree

    theirs = ireelab.iree.compile(str(PROGRAM))
    x = np.arange(8, dtype=np.float32) - 2.5
    for n in (1, 4, 8):
        n = np.array(n, np.int64)
        np.testing.assert_array_equal(ours.reverse_prefix(x, n), theirs.reverse_prefix(x, n))
