"""Located, one-line compile errors: the only way bad input leaves the compiler.

Mirrors MLIR's diagnostic format (`file:line:col: error: message`, then the source line and a
caret). The parser wrapper in `ireelab.compiler.source` sets every parsed op's `location` to a
`FileLineColLoc` and remembers the source text in `SOURCES`, so any later stage can point at
the user's line. xDSL's `clone()` keeps `location`; passes that build a replacement op pass
`location=old.location` or call `copy_location`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SourceLocation:
    file: str
    line: int
    col: int
    source_line: str = ""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


SOURCES: dict[str, list[str]] = {}
"""File name -> its lines, for quoting the offending line (filled by the parser wrapper)."""


def make_location(file: str, line: int, col: int) -> SourceLocation:
    lines = SOURCES.get(file, [])
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return SourceLocation(file, line, col, text)


def location_of(op) -> SourceLocation | None:
    """The source location of `op`, or of its nearest located ancestor."""
    from xdsl.dialects.builtin import FileLineColLoc

    while op is not None:
        loc = getattr(op, "location", None)
        if isinstance(loc, FileLineColLoc):
            return make_location(loc.filename.data, loc.line.data, loc.column.data)
        op = op.parent_op()
    return None


def copy_location(old, new) -> None:
    new.location = old.location


def bug_report_note(command: str | None = None) -> str:
    """What an internal error tells the user to do: it is ireelab's bug, and how to report it."""
    rerun = f" and the output of `{command}` (its traceback)" if command else ""
    return (
        "this is a bug in ireelab, not in the program; please report it on ireelab's issue "
        f"tracker with the program{rerun}"
    )


class CompileError(Exception):
    """A user-facing error: message, where it is, and the stage that rejected it."""

    def __init__(
        self,
        message: str,
        location: SourceLocation | None = None,
        stage: str | None = None,
        note: str | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.location = location
        self.stage = stage
        self.note = note
        """A `note:` line after the quoted source (for an internal error: how to report it)."""
        self.internal = False
        """True when this wraps an ireelab bug (an exception a pass did not mean to raise)."""

    @classmethod
    def at(cls, op, message: str, stage: str | None = None) -> CompileError:
        return cls(message, location_of(op), stage)

    @classmethod
    def internal_error(cls, where: str, err: Exception, stage: str | None) -> CompileError:
        """An unexpected exception in `where` (a pass): one line, and how to report it."""
        first = f"{type(err).__name__}: {err}".splitlines()[0]
        error = cls(f"internal error in {where}: {first}", stage=stage, note=bug_report_note())
        error.internal = True
        return error

    def headline(self) -> str:
        where = f"{self.location}: " if self.location else ""
        stage = f"[{self.stage}] " if self.stage else ""
        return f"{where}error: {stage}{self.message}"

    def __str__(self) -> str:
        lines = [self.headline()]
        if self.location and self.location.source_line:
            text, caret = _window(self.location.source_line, max(self.location.col - 1, 0))
            lines.append(text)
            lines.append(" " * caret + "^")
        if self.note:
            lines.append(f"note: {self.note}")
        return "\n".join(lines)


QUOTE_WIDTH = 400
"""Longest source line quoted whole (a linalg.generic with its maps runs to ~250 characters);
a longer one (a weight printed inline) is cut around the column, with `...` where it was cut."""


def _window(line: str, column: int) -> tuple[str, int]:
    """The part of `line` to quote and the caret's column in it."""
    if len(line) <= QUOTE_WIDTH:
        return line, column
    start = max(0, min(column - QUOTE_WIDTH // 3, len(line) - QUOTE_WIDTH))
    text = line[start : start + QUOTE_WIDTH]
    caret = column - start
    if start > 0:
        text, caret = "..." + text, caret + 3
    if start + QUOTE_WIDTH < len(line):
        text += "..."
    return text, caret


class RuntimeInputError(Exception):
    """A bad call at run time (wrong shape, dtype, arity, malformed --input): one line."""
