"""`compiler/gc_budget.py`: young collections are rarer while compiling, and the process's
own thresholds come back afterwards (a notebook keeps its collector as it set it)."""

from __future__ import annotations

import gc

import pytest

from ireelab.compiler import gc_budget
from ireelab.compiler.api import compile_text

PROGRAM = "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %a : tensor<4xf32>\n}\n"


@pytest.fixture
def thresholds():
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


def test_a_compile_collects_less_often_and_restores_the_thresholds(thresholds) -> None:
    gc.set_threshold(700, 10, 10)
    with gc_budget.fewer_collections():
        assert gc.get_threshold() == (gc_budget.YOUNG_THRESHOLD, 10, 10)
    assert gc.get_threshold() == (700, 10, 10)
    during: list[tuple[int, int, int]] = []  # the thresholds after every pass
    compile_text(PROGRAM, after_pass=lambda name, module: during.append(gc.get_threshold()))
    assert during and set(during) == {(gc_budget.YOUNG_THRESHOLD, 10, 10)}
    assert gc.get_threshold() == (700, 10, 10)


def test_a_collector_turned_off_by_threshold_stays_off(thresholds) -> None:
    gc.set_threshold(0)
    with gc_budget.fewer_collections():
        assert gc.get_threshold()[0] == 0
    assert gc.get_threshold()[0] == 0
