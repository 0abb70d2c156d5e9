"""The check-format test files are in IREE's format: the real `iree-compile` accepts each, and
its VM module imports the same `check.*` functions as ireelab's (IREE's lowering of the check
dialect, which ireelab mirrors)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from check_support import compiled_module

HERE = Path(__file__).resolve().parent
FILES = sorted([*HERE.glob("*.mlir"), *HERE.glob("failing/*.mlir")])

pytestmark = [
    pytest.mark.iree,
    pytest.mark.skipif(
        importlib.util.find_spec("iree.compiler") is None, reason="iree.compiler not installed"
    ),
]

_IMPORT = re.compile(r"vm\.import private (?:optional )?@(check\.\w+)")


def iree_vm_ir(path: Path) -> str:
    """The VM IR the real compiler makes of `path`, as `iree-compile --compile-to=vm` with
    these flags prints it, but in this process through IREE's compiler API (`iree.compiler.api`,
    what `iree-compile` itself drives): loading the compiler library once instead of once per
    file saves about a fifth of each compile. A failed compile fails the test with IREE's
    diagnostics on stderr."""
    from iree.compiler import api

    session = api.Session()
    session.set_flags("--iree-hal-target-backends=llvm-cpu", "--iree-llvmcpu-target-cpu=generic")
    invocation = session.invocation()
    try:
        invocation.enable_console_diagnostics()
        invocation.parse_source(api.Source.open_file(session, str(path)))
        assert invocation.execute(), f"iree-compile rejects {path.name} (diagnostics on stderr)"
        output = api.Output.open_membuffer()
        invocation.output_ir(output)
        return bytes(output.map_memory()).decode()
    finally:
        invocation.close()
        session.close()


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_iree_compiles_the_file_with_the_same_check_imports(path):
    theirs = iree_vm_ir(path)
    # The full compile the check items run (its IR is the VM IR): one compile per file.
    ours = compiled_module(path).ir()
    assert set(_IMPORT.findall(theirs)) == set(_IMPORT.findall(ours))
    assert set(_IMPORT.findall(ours))
