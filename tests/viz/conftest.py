"""Fixtures for the view tests."""

from __future__ import annotations

import pytest
from viz_reference import reference_trace

from ireelab.compiler.trace import Trace


@pytest.fixture
def mlp_trace() -> Trace:
    return reference_trace("b_mlp_layer")


@pytest.fixture(scope="session")
def model_traces() -> dict[str, Trace]:
    """Two programs of model size compiled through Stream: a 48-layer MLP (48 dispatches) and
    a 21-block CNN (42 dispatches); shared by every test of the overview mode."""
    import model_programs

    import ireelab

    programs = {"mlp48": model_programs.mlp(48), "cnn21": model_programs.cnn(21)}
    return {
        name: ireelab.compile(text, compile_to="stream").trace for name, text in programs.items()
    }
