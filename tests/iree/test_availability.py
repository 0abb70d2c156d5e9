"""Without the extra, the functions that need the real IREE say how to install it."""

from __future__ import annotations

import pytest

import ireelab.iree
from ireelab.diagnostics import CompileError
from ireelab.iree import availability


def test_compile_without_iree_names_the_extra(monkeypatch) -> None:
    monkeypatch.setattr(availability, "iree_compile_path", lambda: None)
    with pytest.raises(availability.IREENotInstalledError) as err:
        ireelab.iree.compile("func.func @f() {\n  return\n}")
    assert "pip install 'ireelab[iree]'" in str(err.value)
    assert isinstance(err.value, CompileError)  # shown like any cell error, no traceback


def test_running_without_the_runtime_names_the_extra(monkeypatch) -> None:
    monkeypatch.setattr(availability, "_has_module", lambda name: False)
    with pytest.raises(availability.IREENotInstalledError, match=r"ireelab\[iree\]"):
        availability.require_runtime("running a module compiled by IREE")
    assert not availability.is_available() or availability.iree_compile_path() is not None


def test_import_dump_needs_no_iree(monkeypatch, tiny_dump: str) -> None:
    monkeypatch.setattr(availability, "iree_compile_path", lambda: None)
    monkeypatch.setattr(availability, "_has_module", lambda name: False)
    assert len(ireelab.iree.import_dump(tiny_dump)) == 742
