"""Reading `tests/bad_inputs/compile/*.mlir`: each case's file, intent, expected headline and
known-failure reason (format: `tests/bad_inputs/README.md`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parent.parent / "bad_inputs" / "compile"
_LOCATED = re.compile(r"(\d+):(\d+): (error: .*)")


@dataclass(frozen=True)
class Case:
    path: Path
    intent: str
    expect: str
    """The headline after `FILE:`, as written in the case (`LINE:COL: error: ...`)."""
    xfail: str | None

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def location(self) -> tuple[int, int] | None:
        match = _LOCATED.fullmatch(self.expect)
        return (int(match.group(1)), int(match.group(2))) if match else None

    @property
    def error(self) -> str:
        """The expected `error: [stage] message` part, without the location."""
        match = _LOCATED.fullmatch(self.expect)
        return match.group(3) if match else self.expect

    def source_line(self, line: int) -> str:
        lines = self.path.read_bytes().decode("utf-8", "replace").splitlines()
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def is_text(self) -> bool:
        try:
            self.path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            return False
        return True


def _header(path: Path) -> dict[str, str]:
    fields: dict[str, str] = {}
    for raw in path.read_bytes().splitlines():
        line = raw.decode("utf-8", "replace")
        match = re.fullmatch(r"// (CASE|EXPECT|XFAIL): (.*)", line)
        if match is None:
            break
        fields[match.group(1)] = match.group(2)
    return fields


def load_cases() -> list[Case]:
    cases = []
    for path in sorted(CORPUS.glob("*.mlir")):
        fields = _header(path)
        if "CASE" not in fields or "EXPECT" not in fields:
            raise ValueError(f"{path}: a case needs '// CASE:' and '// EXPECT:' header lines")
        cases.append(Case(path, fields["CASE"], fields["EXPECT"], fields.get("XFAIL")))
    return cases


def params(cases: list[Case]) -> list:
    """pytest params, known failures marked strict xfail with their reason."""
    out = []
    for case in cases:
        marks = [pytest.mark.xfail(strict=True, reason=case.xfail)] if case.xfail else []
        out.append(pytest.param(case, id=case.name, marks=marks))
    return out
