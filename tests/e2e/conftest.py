"""Fixtures for end-to-end tests: compiled modules are shared across tests (numba compile
time adds up), keyed by program text."""

from __future__ import annotations

import pytest

import ireelab

_CACHE: dict[tuple[str, str], object] = {}


@pytest.fixture(scope="session")
def compile_cached():
    def compile_(source: str, device: str = "local-sync"):
        key = (source, device)
        if key not in _CACHE:
            _CACHE[key] = ireelab.compile(source, device=device)
        return _CACHE[key]

    return compile_
