"""Reading a program: text -> verified `builtin.module`, with every op located in the source.

IREE's `iree-compile` reads MLIR with MLIR's parser and keeps `loc(...)` on every op. xDSL's
parser keeps a location only when the text spells one, so this wrapper gives each parsed op a
`FileLineColLoc` of where it starts; later stages quote that line in their errors.
"""

from __future__ import annotations

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException, ParseError

from ireelab.compiler.context import make_context
from ireelab.diagnostics import SOURCES, CompileError, location_of, make_location

MAX_SOURCE_BYTES = 64 * 1024 * 1024
"""Programs larger than this are refused before parsing (a notebook cell is kilobytes)."""


class _LocatingParser(Parser):
    def parse_operation(self) -> Operation:
        start = self._current_token.span
        op = super().parse_operation()
        if isinstance(op.location, UnknownLoc):
            loc = start.get_location()
            op.location = FileLineColLoc(StringAttr(loc.file), IntAttr(loc.line), IntAttr(loc.col))
        return op


def parse_source(text: str, filename: str = "<input>") -> ModuleOp:
    """Parse and verify `text`; raise a located `CompileError` on any problem."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_SOURCE_BYTES:
        raise CompileError(f"input is larger than {MAX_SOURCE_BYTES} bytes", stage="input")
    SOURCES[filename] = text.splitlines()
    try:
        module = _LocatingParser(make_context(), text, filename).parse_module()
    except ParseError as err:
        loc = err.span.get_location()
        raise CompileError(err.msg, make_location(filename, loc.line, loc.col)) from None
    verify(module, stage="input")
    return module


def verify(module: ModuleOp, stage: str | None = None) -> None:
    """`module.verify()`, with a verifier failure turned into a located one-line error."""
    try:
        module.verify()
    except DiagnosticException as err:
        op = _failing_op(module)
        message = _first_line(str(err))
        raise CompileError(message, location_of(op) if op else None, stage) from None


def _failing_op(module: ModuleOp) -> Operation | None:
    """The innermost op whose own verifier fails (xDSL's exception does not carry it)."""
    for op in module.walk(reverse=True):
        try:
            op.verify(verify_nested_ops=False)
        except DiagnosticException:
            return op
    return None


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip() and not line.startswith(("Error while", "^")):
            return line.strip()
    return text.strip()
