"""Check-format tests: every `tests/check/*.mlir` file is compiled once, and each of its test
functions (exported, no arguments) is one pytest item, run as `ireelab-check-module` runs
it: a fresh context per function, failed when any `check.expect_*` failed or the function
raised. Files under `tests/check/failing/` are not collected here; they must fail, and
`test_failing_checks.py` says how.

Collection reads the items' names from the file's text (its public `func.func`s), not from a
compile: every xdist worker collects every file, and compiling the 30 files at collection cost
each worker 60-110 CPU-s before its first test. The first item of a file that runs compiles it
and fails unless the compiled module's test functions are exactly the names collected.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from check_support import compiled

HERE = Path(__file__).resolve().parent
# A function definition at the start of a line: `func.func [public|private] @name(`.
_FUNC = re.compile(r"^\s*func\.func\s+(?:(public|private|nested)\s+)?@([\w$.]+)\s*\(", re.M)


def written_test_functions(text: str) -> list[str]:
    """The test functions a check file's text defines: its public functions not named `__*`,
    in order (the names `test_functions` gives its compiled module)."""
    return [
        name
        for visibility, name in _FUNC.findall(text)
        if visibility in ("", "public") and not name.startswith("__") and "$" not in name
    ]


@cache
def checked_test_functions(path: Path) -> list[str]:
    """The compiled module's test functions; an error unless the text gives the same names."""
    from ireelab.tools.check_module import test_functions

    compiled_names = test_functions(compiled(path))
    written = written_test_functions(path.read_text())
    if compiled_names != written:
        raise CheckFailed(
            f"{path.name}: the compiled module's tests are {compiled_names}, "
            f"the file's public functions {written}"
        )
    return compiled_names


def pytest_collect_file(parent, file_path: Path):
    if file_path.suffix == ".mlir" and file_path.parent == HERE:
        return CheckFile.from_parent(parent, path=file_path)
    return None


class CheckFile(pytest.File):
    def collect(self):
        for name in written_test_functions(self.path.read_text()):
            yield CheckItem.from_parent(self, name=name)


class CheckFailed(Exception):
    pass


class CheckItem(pytest.Item):
    def runtest(self) -> None:
        from ireelab.tools.check_module import run_test

        checked_test_functions(self.path)
        outcome = run_test(compiled(self.path), self.name)
        if not outcome.passed:
            raise CheckFailed("\n".join(outcome.failures))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CheckFailed):
            return f"[  FAILED  ] {self.name}\n{excinfo.value}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"check: {self.name}"
