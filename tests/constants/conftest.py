"""Fixtures for the dense-constant tests (helpers in `constants_support`)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from constants_support import check_against_references  # noqa: E402


@pytest.fixture
def references():
    return check_against_references
