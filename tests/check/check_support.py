"""The compiled check files, shared by the check items (`conftest.py`) and the check tests of
this directory: one compile of each file per test process (pytest imports `conftest.py` as
its own module, so a cache kept there is not the one a test module importing it sees)."""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def compiled_module(path: Path):
    """The `CompiledModule` of a check file (compiled once per process)."""
    import ireelab

    return ireelab.compile(str(path))


def compiled(path: Path):
    """The `LoadedModule` of a check file."""
    return compiled_module(path).loaded
