"""What a view may be drawn from: a compile `Trace`, one `PassRecord`, IR text, or a `ModuleOp`.

The views read IR the way IREE's own debugging dumps are read: any phase's module text, ours or
the real IREE's (`iree-compile --compile-to=flow` output parses with ireelab's dialects), so a
picture can be drawn for either compiler.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from ireelab.compiler.trace import PassRecord, Trace
from ireelab.diagnostics import CompileError

IRSource = Trace | PassRecord | ModuleOp | str | Path
"""Anything a view accepts as its program."""

_PARSED: dict[tuple[str, str], ModuleOp] = {}
"""The modules the last few texts parsed to (the views only read them): a model's 48-dispatch
Flow IR takes seconds to parse, and a notebook or a stepper draws the same pass's IR again for
every view and every change of its options."""
_PARSED_KEEP = 4


def parse_ir(text: str, name: str = "<ir>") -> ModuleOp:
    """Parse a module in any phase's IR with ireelab's dialects; bad text is a `CompileError`.
    The module is shared by every caller that parses the same text: do not change it."""
    key = (text, name)  # the name is in the module's locations
    module = _PARSED.get(key)
    if module is None:
        module = _parse(text, name)
        if len(_PARSED) >= _PARSED_KEEP:
            del _PARSED[next(iter(_PARSED))]
        _PARSED[key] = module
    return module


def _parse(text: str, name: str) -> ModuleOp:
    from xdsl.parser import Parser
    from xdsl.utils.exceptions import ParseError

    from ireelab.compiler.context import make_context

    try:
        return Parser(make_context(), text, name).parse_module()
    except ParseError as err:
        raise CompileError(f"cannot parse the IR to draw: {_first_line(err)}") from None
    except Exception as err:  # xDSL raises a few other types for unknown ops and attributes
        raise CompileError(
            f"cannot parse the IR to draw: {type(err).__name__}: {_first_line(err)}"
        ) from None


def _first_line(err: Exception) -> str:
    lines = [line for line in str(err).splitlines() if line.strip()]
    return lines[-1].strip() if lines else type(err).__name__


def pick_record(
    trace: Trace, at: int | str | None, fits: Callable[[PassRecord], bool], what: str
) -> PassRecord:
    """The pass record a view draws: `at` (index or pass name) if given, else the last that fits."""
    if not trace.records:
        raise CompileError(f"the trace holds no passes: nothing to draw a {what} from")
    if isinstance(at, int):
        if not -len(trace.records) <= at < len(trace.records):
            raise CompileError(f"no pass #{at}: the trace holds {len(trace.records)} passes")
        return trace.records[at]
    if isinstance(at, str):
        found = trace.find(at)
        if not found:
            raise CompileError(f"no pass named '{at}' in the trace")
        return found[-1]
    for record in reversed(trace.records):
        if fits(record):
            return record
    raise CompileError(f"the compile stopped before any IR a {what} can be drawn from")


def module_of(
    source: IRSource,
    at: int | str | None = None,
    fits: Callable[[PassRecord], bool] = lambda record: True,
    what: str = "graph",
) -> ModuleOp:
    """The module a view draws, from any `IRSource`."""
    if isinstance(source, ModuleOp):
        return source
    if isinstance(source, Trace):
        source = pick_record(source, at, fits, what)
    if isinstance(source, PassRecord):
        return parse_ir(source.ir, f"<after {source.name}>")
    if isinstance(source, Path):
        return parse_ir(source.read_text(), str(source))
    if isinstance(source, str):
        return parse_ir(source)
    raise CompileError(f"cannot draw a {what} from a {type(source).__name__}")
