"""The pipeline outline is complete and consistent: every listed pass and dialect exists."""

from __future__ import annotations

import importlib

import pytest

from ireelab.compiler import pipeline
from ireelab.compiler.context import _IREELAB, _UPSTREAM

STEPS = [s for s in pipeline.PIPELINE if isinstance(s, pipeline.Step)]


@pytest.mark.parametrize("step", STEPS, ids=lambda s: s.ref)
def test_every_listed_pass_exists(step):
    module_name, class_name = step.ref.split(":")
    cls = getattr(importlib.import_module(f"ireelab.compiler.{module_name}"), class_name)
    assert cls.__name__ == class_name
    assert cls.name, "a pass needs its command-line flag as `name`"
    assert step.stage in pipeline.STAGES


@pytest.mark.parametrize("name,module_name,attr", _UPSTREAM + _IREELAB)
def test_every_dialect_exists(name, module_name, attr):
    # registered under its own name: the context loads it when it meets that name
    assert getattr(importlib.import_module(module_name), attr).name == name


def test_stages_appear_in_order():
    order = [pipeline.STAGES.index(s.stage) for s in STEPS]
    assert order == sorted(order)


def test_every_phase_is_a_checkpoint_in_order():
    seen = [s.phase for s in pipeline.PIPELINE if isinstance(s, pipeline.Checkpoint)]
    assert seen + ["end"] == list(pipeline.PHASES)


def test_flags_name_one_pass_each():
    flags: dict[str, type] = {}
    for name, (_, cls) in pipeline.pass_table().items():
        if name == cls.name:
            assert flags.setdefault(name, cls) is cls
