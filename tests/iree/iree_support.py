"""Helpers the IREE bridge tests import: the stored dumps folder, the reference material, the
`needs_iree` marks. A module of its own (not the conftest) so test files import it by a name no
other test folder uses."""

from __future__ import annotations

import lzma
from pathlib import Path

import pytest
from reference_paths import REFERENCE

from ireelab.iree.availability import INSTALL_HINT, is_available

__all__ = ["DATA", "REFERENCE", "needs_iree", "read_data"]

DATA = Path(__file__).parent / "data"

needs_iree = [pytest.mark.iree, pytest.mark.skipif(not is_available(), reason=INSTALL_HINT)]
"""`pytestmark = needs_iree` in a test file that runs the real IREE."""


def read_data(name: str) -> str:
    return lzma.decompress((DATA / name).read_bytes()).decode()
