"""Shared fixtures for the element-type tests: compiled modules are cached per program text for
the whole session (each dispatch is a numba compile), and the real IREE compiles and runs the
same program where it is installed."""

from __future__ import annotations

import numpy as np
import pytest

import ireelab

_OURS: dict[str, object] = {}
_THEIRS: dict[str, object] = {}


@pytest.fixture(scope="session")
def ireelab_module():
    def compile_(source: str):
        if source not in _OURS:
            _OURS[source] = ireelab.compile(source, device="local-sync")
        return _OURS[source]

    return compile_


@pytest.fixture(scope="session")
def iree_call():
    """`iree_call(source, function, *args)`: results of the real IREE 3.13 (llvm-cpu, host CPU)
    as numpy arrays; skips the test when `iree-base-compiler` / `-runtime` are missing."""
    compiler = pytest.importorskip("iree.compiler")
    runtime = pytest.importorskip("iree.runtime")

    def call(source: str, function: str, *args: np.ndarray) -> list[np.ndarray]:
        if source not in _THEIRS:
            flatbuffer = compiler.compile_str(
                source,
                target_backends=["llvm-cpu"],
                extra_args=["--iree-llvmcpu-target-cpu=host"],
            )
            context = runtime.SystemContext(config=runtime.Config("local-sync"))
            context.add_vm_module(runtime.VmModule.copy_buffer(context.instance, flatbuffer))
            _THEIRS[source] = context.modules.module
        results = _THEIRS[source][function](*args)
        if not isinstance(results, tuple | list):
            results = [results]
        return [np.asarray(r.to_host()) for r in results]

    return call
