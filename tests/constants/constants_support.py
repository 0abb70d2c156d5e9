"""Helpers for the dense-constant tests: compiled modules cached by program text (numba compile
time adds up), results checked against numpy eager and, when installed, the real IREE. A module
of its own (not the conftest) so test files import it by a name no other test folder uses."""

from __future__ import annotations

import numpy as np

import ireelab
from ireelab.eager import evaluate
from ireelab.iree import availability

_CACHE: dict[str, object] = {}


def compiled(source: str):
    if source not in _CACHE:
        _CACHE[source] = ireelab.compile(source)
    return _CACHE[source]


def check_against_references(source: str, name: str, *args: np.ndarray, rtol: float = 1e-5):
    """ireelab's result equals numpy eager's (and the real IREE's when it is installed)."""
    got = compiled(source).invoke(name, *args)
    (expected,) = evaluate(source, name, *args)
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol)
    if availability.is_available():
        from ireelab.iree import compile as iree_compile

        theirs = iree_compile(source, trace=False).invoke(name, *args)
        np.testing.assert_allclose(got, theirs, rtol=rtol, atol=rtol)
    return got
