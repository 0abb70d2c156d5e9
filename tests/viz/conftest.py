"""Fixtures for the view tests."""

from __future__ import annotations

import model_programs
import pytest
from viz_reference import reference_trace

from ireelab.compiler.trace import Trace


@pytest.fixture
def mlp_trace() -> Trace:
    return reference_trace("b_mlp_layer")


@pytest.fixture(scope="session")
def mlp48_trace() -> Trace:
    """A program of model size compiled through Stream: a 48-layer MLP (48 dispatches),
    shared by every test of the overview mode and of the stepper on a model."""
    return _through_stream(model_programs.mlp(48))


@pytest.fixture(scope="session")
def cnn21_trace() -> Trace:
    """A 21-block CNN (42 dispatches) compiled through Stream (the overview tests)."""
    return _through_stream(model_programs.cnn(21))


def _through_stream(text: str) -> Trace:
    import ireelab

    return ireelab.compile(text, compile_to="stream").trace
