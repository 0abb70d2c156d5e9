"""IREELAB_VERIFY_EACH: `1` verifies after every pass (`--verify-each`), `stage` after the last
pass of each stage (what the tests outside the pass-level directories run), unset only the
parsed input."""

from __future__ import annotations

import pytest

import ireelab
from ireelab.compiler import driver, pipeline

PROGRAM = """func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


def verified_stages(monkeypatch, mode: str | None) -> tuple[list[str | None], list[str]]:
    """The stages `verify` was called with after passes, and the stage of every pass run."""
    if mode is None:
        monkeypatch.delenv("IREELAB_VERIFY_EACH", raising=False)
    else:
        monkeypatch.setenv("IREELAB_VERIFY_EACH", mode)
    calls: list[str | None] = []
    real = driver.verify
    monkeypatch.setattr(
        driver, "verify", lambda m, stage=None: (calls.append(stage), real(m, stage))[1]
    )
    module = ireelab.compile(PROGRAM, compile_to="vm")
    return calls, [record.stage for record in module.trace.records]


def test_stage_mode_verifies_once_after_each_stage_in_order(monkeypatch):
    calls, stages = verified_stages(monkeypatch, "stage")
    assert calls == list(dict.fromkeys(stages))
    assert calls == [s for s in pipeline.STAGES if s in calls]


def test_each_mode_verifies_after_every_pass(monkeypatch):
    calls, stages = verified_stages(monkeypatch, "1")
    assert calls == stages


@pytest.mark.parametrize("mode", [None, ""])
def test_unset_verifies_no_pass(monkeypatch, mode):
    calls, stages = verified_stages(monkeypatch, mode)
    assert calls == [] and stages
