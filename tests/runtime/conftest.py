"""Runtime tests share the VM tests' programs (tests/vm/vm_programs.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vm"))

from vm_programs import (  # noqa: E402
    FAILING_SOURCE,
    parse_ir,
    parse_vm,
    retargeted_reference_hal,
    retargeted_reference_vm,
)

from ireelab.compiler.context import make_context  # noqa: E402
from ireelab.compiler.vm.conversion import ConversionPass  # noqa: E402
from ireelab.compiler.vm.module_file import write_module  # noqa: E402
from ireelab.runtime.hal.drivers import create_device  # noqa: E402
from ireelab.runtime.hal.module import HALModule  # noqa: E402


@pytest.fixture
def hal():
    """A `hal` module on a local-sync device of its own."""
    return HALModule(create_device("local-sync"))


@pytest.fixture
def scale():
    """The one-export Python executable of `scale_executable`."""
    from scale_executable import scale_executable

    return scale_executable()


def compile_hal(text: str) -> bytes:
    module = parse_ir(text)
    ConversionPass().apply(make_context(), module)
    return write_module(module)


@pytest.fixture(scope="session")
def matmul_bytes() -> bytes:
    return compile_hal(retargeted_reference_hal())


@pytest.fixture(scope="session")
def failing_bytes() -> bytes:
    return compile_hal(retargeted_reference_hal(FAILING_SOURCE))


@pytest.fixture(scope="session")
def split_matmul_bytes() -> bytes:
    """IREE's VM program with the dispatch split into 2 workgroups (local-task runs both)."""
    return write_module(parse_vm(retargeted_reference_vm(workgroups=2)))
