"""Check-format tests: every `tests/check/*.mlir` file is compiled once, and each of its test
functions (exported, no arguments) is one pytest item, run as `ireelab-check-module` runs
it: a fresh context per function, failed when any `check.expect_*` failed or the function
raised. Files under `tests/check/failing/` are not collected here; they must fail, and
`test_failing_checks.py` says how.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@cache
def compiled_module(path: Path):
    """The `CompiledModule` of a check file (compiled once per session)."""
    import ireelab

    return ireelab.compile(str(path))


def compiled(path: Path):
    """The `LoadedModule` of a check file."""
    return compiled_module(path).loaded


def pytest_collect_file(parent, file_path: Path):
    if file_path.suffix == ".mlir" and file_path.parent == HERE:
        return CheckFile.from_parent(parent, path=file_path)
    return None


class CheckFile(pytest.File):
    def collect(self):
        from ireelab.tools.check_module import test_functions

        for name in test_functions(compiled(self.path)):
            yield CheckItem.from_parent(self, name=name)


class CheckFailed(Exception):
    pass


class CheckItem(pytest.Item):
    def runtest(self) -> None:
        from ireelab.tools.check_module import run_test

        outcome = run_test(compiled(self.path), self.name)
        if not outcome.passed:
            raise CheckFailed("\n".join(outcome.failures))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CheckFailed):
            return f"[  FAILED  ] {self.name}\n{excinfo.value}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"check: {self.name}"
