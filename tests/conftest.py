"""Shared test set-up: lit-style golden IR tests and fixtures.

Every `tests/filecheck/**/*.mlir` file is a test: its `// RUN:` lines run in bash with `%s`
replaced by the file's path (as xDSL's and IREE's lit tests do), typically
`// RUN: ireelab-opt %s -p iree-abi-wrap-entry-points | filecheck %s`.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

# Verify the IR after every pass in tests, as `mlir-opt --verify-each` (compiles outside
# tests verify at phase boundaries); inherited by the command-line tools the tests run.
os.environ.setdefault("IREELAB_VERIFY_EACH", "1")
# One kernel tier in tests: the specialised kernel compiles before the first call. With the
# shape-generic tier on (the default outside tests) a kernel whose generic form is already
# compiled runs it, then compiles its specialised form in background workers as well (two
# numba compiles for a tiered kernel), racing the next test for the 2 cores (tests/dtypes
# cold: 181 s wall with it, 104 s without). The tests about the tiers set the variable
# themselves (tests/runtime/test_generic_kernels.py); `IREELAB_GENERIC_KERNELS=1 pytest ...`
# runs the suite with both tiers. Notebook kernels and tools the tests start inherit it.
os.environ.setdefault("IREELAB_GENERIC_KERNELS", "0")

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT.parent / "shared" / "reference"
if not REFERENCE.exists():
    REFERENCE = Path("/work/shared/reference")


def pytest_collect_file(parent, file_path: Path):
    if file_path.suffix == ".mlir" and "filecheck" in file_path.parts:
        return LitFile.from_parent(parent, path=file_path)
    return None


class LitFile(pytest.File):
    def collect(self):
        runs = [
            line.split("RUN:", 1)[1].strip()
            for line in self.path.read_text().splitlines()
            if line.lstrip().startswith("// RUN:")
        ]
        if runs:
            yield LitItem.from_parent(self, name=self.path.name, runs=runs)


class LitItem(pytest.Item):
    def __init__(self, *, runs: list[str], **kwargs):
        super().__init__(**kwargs)
        self.runs = runs

    def runtest(self):
        for run in self.runs:
            command = run.replace("%s", str(self.path))
            proc = subprocess.run(
                ["bash", "-o", "pipefail", "-c", command],
                capture_output=True,
                text=True,
                cwd=ROOT,
                env=os.environ.copy(),
            )
            if proc.returncode != 0:
                raise LitFailure(command, proc.stdout + proc.stderr)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, LitFailure):
            command, output = excinfo.value.args
            return f"RUN: {command}\n{output}"
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"lit: {self.path.name}"


class LitFailure(Exception):
    pass


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    return REFERENCE
