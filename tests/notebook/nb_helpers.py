"""Shared by the notebook tests: a sample program, the repo root, a gate on landed passes."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

import pytest

from ireelab.compiler import pipeline

REPO = Path(__file__).resolve().parents[2]

MATMUL = """\
func.func @matmul(%lhs: tensor<2x4xf32>, %rhs: tensor<4x2xf32>) -> tensor<2x2xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<2x2xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %2 = linalg.matmul ins(%lhs, %rhs : tensor<2x4xf32>, tensor<4x2xf32>) outs(%1 : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %2 : tensor<2x2xf32>
}
"""


def phase_available(phase: str) -> bool:
    """Whether every pass up to `phase` has landed (modules exist); the runtime too for `end`."""
    modules = {f"ireelab.compiler.{step.ref.split(':')[0]}" for step in pipeline.steps_until(phase)}
    if phase == "end":
        modules |= {"ireelab.compiler.vm.module_file", "ireelab.runtime.vm.module_file"}
    try:
        return all(importlib.util.find_spec(m) is not None for m in modules)
    except ModuleNotFoundError:
        return False


def needs_phase(phase: str):
    return pytest.mark.skipif(
        not phase_available(phase), reason=f"the passes up to '{phase}' have not landed yet"
    )
