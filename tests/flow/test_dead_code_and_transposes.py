"""Numerics and IR shape for the dead-op erasure, EraseUnusedLinalgOperands and the transpose
composition: the programs under `programs/` that exercise them run end to end and agree with
numpy (f32 tolerance `ireelab.iree.comparison`); their flow IR holds what IREE 3.13 keeps."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import ireelab
from ireelab.eager import evaluate
from ireelab.iree.comparison import ATOL, RTOL
from ireelab.iree.program_inputs import random_inputs

PROGRAMS = Path(__file__).parent / "programs"
NAMES = [
    "dead_generic_chain",
    "multi_result_dead_result",
    "transpose_compose_3d",
    "transpose_roundtrip_generic",
]

PASSTHROUGH = """
func.func @pass(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %e = tensor.empty() : tensor<4x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  return %s, %b : tensor<4x4xf32>, tensor<4x4xf32>
}
"""


def _agree(source: str) -> None:
    name, args = random_inputs(source, seed=3)
    result = ireelab.compile(source, device="local-sync").invoke(name, *args)
    ours = result if isinstance(result, tuple) else (result,)
    expected = evaluate(source, name, *args)
    assert len(ours) == len(expected)
    for mine, want in zip(ours, expected, strict=True):
        want = np.asarray(want, dtype=np.float64)
        scale = float(np.max(np.abs(want))) if want.size else 0.0
        assert mine.shape == want.shape
        assert np.all(np.abs(mine.astype(np.float64) - want) <= ATOL + RTOL * scale)


@pytest.mark.parametrize("name", NAMES)
def test_program_matches_numpy(name: str) -> None:
    # Erasing dead ops and composing transposes changes no result.
    _agree((PROGRAMS / f"{name}.mlir").read_text())


def test_result_that_is_an_input_runs() -> None:
    # A function returning one of its inputs unchanged (what gen2 becomes once its transpose
    # pair folds away): the export of the imported buffer stays before util.return.
    _agree(PASSTHROUGH)


def _flow(name: str) -> str:
    source = (PROGRAMS / f"{name}.mlir").read_text()
    return ireelab.compile(source, compile_to="flow").trace.stage("flow")[-1].ir


def test_dead_chain_leaves_one_dispatch_and_no_dead_work() -> None:
    # The exp, the reduction and the matmul nobody reads are gone, with their fills.
    ir = _flow("dead_generic_chain")
    assert ir.count("flow.dispatch @") == 1
    assert "math.exp" not in ir and "linalg.matmul" not in ir and "linalg.fill" not in ir


def test_unused_result_of_multi_result_generic_is_dropped() -> None:
    # The sum of products nobody reads is no longer computed, and the dispatch no longer reads
    # the accumulator it would have started from.
    ir = _flow("multi_result_dead_result")
    assert "arith.mulf" not in ir and ir.count("arith.addf") == 1
    dispatch = next(
        line for line in ir.splitlines() if "flow.dispatch @multi_dead_dispatch_0" in line
    )
    assert "(tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8xf32>, tensor<8xf32>)" in dispatch
