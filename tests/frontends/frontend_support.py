"""Helpers the front-end tests import: each test needs its extra (`ireelab[frontends]`) and
skips cleanly where that is absent; comparisons with the real IREE are also marked `iree`. A
module of its own (not a conftest) so test files import it by a name no other folder uses."""

from __future__ import annotations

import importlib.util

import pytest

from ireelab.iree.availability import INSTALL_HINT as IREE_HINT
from ireelab.iree.availability import is_available


def has(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def needs(*modules: str):
    """Skip unless every module is importable (the `frontends` extra)."""
    missing = [m for m in modules if not has(m)]
    return pytest.mark.skipif(
        bool(missing), reason=f"needs {', '.join(missing)}: pip install 'ireelab[frontends]'"
    )


needs_iree_compile = needs("iree.compiler")


def real_iree(test):
    """Mark a test that compares with the real IREE's compiler and runtime."""
    return pytest.mark.iree(pytest.mark.skipif(not is_available(), reason=IREE_HINT)(test))
