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

# Verify the IR in tests (compiles outside tests verify their input only): after every pass,
# as `mlir-opt --verify-each`, in the pass-level tests (the directories below, where the
# pass that broke the IR should be named); after each stage elsewhere. Verifying after every
# pass cost 3-4x the CPU of a compile to `vm` (25 compiles: 26-28 s against 6-7 s), and a
# stage boundary still catches an invalid module, named by stage, unless a later pass of the
# same stage removes or repairs what was invalid. Set per test (before its fixtures), so the
# command-line tools a test runs inherit it; `IREELAB_VERIFY_EACH=1 pytest ...` verifies
# after every pass everywhere.
_VERIFY_EACH_SET = "IREELAB_VERIFY_EACH" in os.environ
os.environ.setdefault("IREELAB_VERIFY_EACH", "stage")  # notebooks (not under tests/)
PASS_LEVEL = frozenset(("passes", "flow", "codegen", "dialects", "filecheck", "vm", "robustness"))
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


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    if _VERIFY_EACH_SET:
        return
    parts = item.path.parts
    pass_level = "tests" in parts[:-2] and parts[parts.index("tests") + 1] in PASS_LEVEL
    os.environ["IREELAB_VERIFY_EACH"] = "1" if pass_level else "stage"


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
