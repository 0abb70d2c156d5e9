"""Fixtures for the VM tests: IREE's own tiny-matmul program, converted and serialised once."""

from __future__ import annotations

import pytest
from vm_programs import parse_ir, parse_vm, retargeted_reference_hal, retargeted_reference_vm

from ireelab.compiler.context import make_context
from ireelab.compiler.vm.conversion import ConversionPass
from ireelab.compiler.vm.module_file import write_module


@pytest.fixture(scope="session")
def converted_module():
    """IREE's hal.mlir (retargeted to a numba kernel) after ConversionPass."""
    module = parse_ir(retargeted_reference_hal())
    ConversionPass().apply(make_context(), module)
    module.verify()
    return module


@pytest.fixture(scope="session")
def converted_bytes(converted_module) -> bytes:
    return write_module(converted_module)


@pytest.fixture(scope="session")
def reference_vm_bytes() -> bytes:
    """IREE's own vm.mlir (retargeted data only) serialised."""
    return write_module(parse_vm(retargeted_reference_vm()))
