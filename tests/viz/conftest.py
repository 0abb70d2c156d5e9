"""Fixtures for the view tests."""

from __future__ import annotations

import pytest
from viz_reference import reference_trace

from ireelab.compiler.trace import Trace


@pytest.fixture
def mlp_trace() -> Trace:
    return reference_trace("b_mlp_layer")
