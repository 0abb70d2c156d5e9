"""Fixtures for the IREE bridge tests: stored dumps of the real IREE 3.13, and compiles of the
real IREE and of ireelab cached per session (an IREE compile costs ~0.5-1.5 s, a traced one
several seconds). Tests that run IREE are marked `iree` and skip cleanly where it is absent."""

from __future__ import annotations

import pytest
from iree_support import REFERENCE, read_data

_IREE: dict[tuple, object] = {}
_IREELAB: dict[tuple, object] = {}


@pytest.fixture(scope="session")
def tiny_dump() -> str:
    """`iree-compile --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host
    --mlir-disable-threading --mlir-print-ir-after-all` of the founding note's 2x4x2 matmul."""
    return read_data("a0_matmul_tiny.after-all.txt.xz")


@pytest.fixture(scope="session")
def threaded_dump() -> str:
    """The same for `l_two_results` (two executables) with threading on: per-executable
    codegen dumps interleave."""
    return read_data("l_two_results.after-all.threaded.txt.xz")


@pytest.fixture(scope="session")
def tiny_trace(tiny_dump):
    from ireelab.iree import import_dump

    return import_dump(tiny_dump)


@pytest.fixture(scope="session")
def reference_json() -> dict:
    import json

    return json.loads((REFERENCE / "iree-3.13.json").read_text())["programs"]


@pytest.fixture(scope="session")
def iree_compiled():
    """Compile with the real IREE once per (source, options) in the session."""
    from ireelab.iree import compile as iree_compile

    def compile_(source: str, **options):
        key = (source, tuple(sorted(options.items())))
        if key not in _IREE:
            _IREE[key] = iree_compile(source, **options)
        return _IREE[key]

    return compile_


@pytest.fixture(scope="session")
def ireelab_compiled():
    import ireelab

    def compile_(source: str, **options):
        key = (source, tuple(sorted(options.items())))
        if key not in _IREELAB:
            _IREELAB[key] = ireelab.compile(source, **options)
        return _IREELAB[key]

    return compile_
