"""The check-format test files are in IREE's format: the real `iree-compile` accepts each, and
its VM module imports the same `check.*` functions as ireelab's (IREE's lowering of the check
dialect, which ireelab mirrors)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

import ireelab

HERE = Path(__file__).resolve().parent
FILES = sorted([*HERE.glob("*.mlir"), *HERE.glob("failing/*.mlir")])

pytestmark = [
    pytest.mark.iree,
    pytest.mark.skipif(shutil.which("iree-compile") is None, reason="iree-compile not installed"),
]

_IMPORT = re.compile(r"vm\.import private (?:optional )?@(check\.\w+)")


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_iree_compiles_the_file_with_the_same_check_imports(path):
    iree = subprocess.run(
        [
            "iree-compile",
            "--iree-hal-target-backends=llvm-cpu",
            "--iree-llvmcpu-target-cpu=generic",
            "--compile-to=vm",
            str(path),
        ],
        capture_output=True,
        text=True,
    )
    assert iree.returncode == 0, iree.stderr
    ours = ireelab.compile(str(path), compile_to="vm").ir()
    assert set(_IMPORT.findall(iree.stdout)) == set(_IMPORT.findall(ours))
    assert set(_IMPORT.findall(ours))
