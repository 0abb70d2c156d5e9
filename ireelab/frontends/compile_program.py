"""One compile of any input type: detect it, convert framework dialects with the real IREE,
then run ireelab's stages.

What `iree-compile` does between reading a file and its own stage A: with
`--iree-input-type=auto` (the default) `AutoInputConversionPipelinePass` picks the input
plugin; here, `none` goes straight to ireelab's pipeline (`compiler.api.compile_text`) and a
framework type first through IREE's input phase (`input_conversion`). The trace starts with
IREE's passes (marked `tool="iree"`) and goes on with ireelab's, numbered as one list; its
input is the framework program as given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ireelab.compiler.api import CompileResult, compile_text
from ireelab.compiler.driver import CompileOptions
from ireelab.compiler.trace import PassRecord, Trace
from ireelab.diagnostics import SOURCES, CompileError
from ireelab.frontends.input_type import INPUT_TYPES, detect_input_type
from ireelab.input_limit import check_text

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp


def resolve_input_type(text: str, requested: str) -> str:
    if requested not in INPUT_TYPES:
        raise CompileError(
            f"unknown --iree-input-type '{requested}' (expected one of {', '.join(INPUT_TYPES)})",
            stage="input",
        )
    return detect_input_type(text) if requested == "auto" else requested


def compile_program(
    text: str,
    filename: str = "<input>",
    options: CompileOptions | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    after_pass: Callable[[str, ModuleOp], None] | None = None,
) -> CompileResult:
    options = options or CompileOptions()
    check_text(text)  # before IREE's input conversion, not only at ireelab's parse
    input_type = resolve_input_type(text, options.input_type)
    if input_type == "none":
        return compile_text(text, filename, options, progress, after_pass)
    from ireelab.frontends.extras import require_iree_compile
    from ireelab.frontends.input_conversion import convert_input

    require_iree_compile(f"a {input_type} program")
    if progress:
        progress(0, 1, f"IREE's input conversion ({input_type})")
    # IREE gets the flag as given: with `auto` it runs its own AutoInputConversionPipelinePass
    # (which detects the same type), as `iree-compile` would, and the trace shows it.
    converted = convert_input(text, filename, options.input_type, options.input_flags)
    SOURCES[filename] = text.splitlines()  # the converted ops are located in these lines
    _print_records(converted.records, options)
    result = compile_text(converted.text, _converted_name(filename), options, progress, after_pass)
    result.source, result.filename = text, filename
    result.trace = _joined(text, converted.records, result.trace)
    return result


def _converted_name(filename: str) -> str:
    """Errors in the converted program point into IREE's output, named after the input."""
    return f"{filename}.input.mlir"


def _joined(source: str, iree: list[PassRecord], ours: Trace) -> Trace:
    for k, record in enumerate([*iree, *ours.records]):
        record.index = k
    return Trace(source, [*iree, *ours.records])


def _print_records(records: list[PassRecord], options: CompileOptions) -> None:
    """IREE's passes under `--mlir-print-ir-after-all` / `-after-change`, as ireelab's print."""
    import sys

    printing = options.printing
    if not (printing.after_all or printing.after_change):
        return
    out = printing.stream or sys.stderr
    for record in records:
        if printing.after_change and not record.changed:
            continue
        out.write(record.header(printing.module_scope) + "\n" + record.ir + "\n\n")
