"""Stage A for framework programs: the real IREE's input conversion, its passes kept.

IREE's `--compile-to=input` runs the input plugin's pipeline (torch-mlir's torch-to-linalg
passes, StableHLO or TOSA legalisation) and its common input passes, and prints the program in
linalg / tensor / arith on `util.func`s: the input ireelab's own stages take. ireelab runs that
phase with the real `iree-compile` (the `frontends` extra) and reads its
`--mlir-print-ir-after-all` dump (`ireelab.iree.import_dump`), so every pass IREE ran becomes a
`PassRecord` of stage A marked `tool="iree"`: the learner steps through the conversion too.

The output keeps IREE's source locations (`--mlir-print-debuginfo`): an op that a later stage of
ireelab rejects is reported at the line of the framework program it came from. The dump is
printed by a second run with large constants elided (the program's output must stay whole, the
dump is for reading), which costs little: input conversion is the fast part.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ireelab.compiler.trace import PassRecord
from ireelab.diagnostics import CompileError
from ireelab.frontends.extras import require_iree_compile

_LOCATION_FLAGS = ("--mlir-print-debuginfo", "--mlir-print-local-scope")
"""Every op of the output keeps its source location, written out in place (no `#loc` aliases)."""
_DUMP_FLAGS = (
    "--mlir-print-ir-after-all",
    "--mlir-print-ir-module-scope",
    "--mlir-disable-threading",
    "--mlir-elide-elementsattrs-if-larger=64",
    "--mlir-elide-resource-strings-if-larger=256",
)


@dataclass
class ConvertedInput:
    text: str
    """The program after IREE's input phase (what `iree-compile --compile-to=input` prints)."""
    records: list[PassRecord]
    """IREE's passes, in order, stage `input`, `tool="iree"`."""
    seconds: float


def convert_input(
    text: str,
    filename: str,
    input_type: str,
    flags: Sequence[str] = (),
    keep_passes: bool = True,
) -> ConvertedInput:
    """Run IREE's input phase on `text` for `--iree-input-type=input_type` (`auto` lets IREE
    detect it)."""
    from ireelab.iree.import_dump import import_dump
    from ireelab.iree.iree_compile import run_tool

    tool = require_iree_compile(f"--iree-input-type={input_type}")
    command = [tool, "-", "--compile-to=input", f"--iree-input-type={input_type}", *flags]
    try:
        output, _, seconds = run_tool(command + list(_LOCATION_FLAGS), text, filename)
    except CompileError as err:
        if err.stage is None:
            err.stage = "input"  # IREE's input conversion is stage A
        raise
    records: list[PassRecord] = []
    if keep_passes:
        _, dump, dump_seconds = run_tool(command + list(_DUMP_FLAGS), text, filename)
        records = [_as_input(r) for r in import_dump(dump, source=text)] if dump else []
        seconds += dump_seconds
    return ConvertedInput(_located_in(output.decode("utf-8"), filename), records, seconds)


def _located_in(text: str, filename: str) -> str:
    """IREE names its standard input `<stdin>` in the locations it prints; they are lines of
    `filename`, so a later stage's error points at the user's line."""
    escaped = "".join(  # MLIR's string escapes are `\XX`, one per byte
        c if c.isprintable() and c not in '"\\' else "".join(f"\\{b:02X}" for b in c.encode())
        for c in filename
    )
    return text.replace('loc("<stdin>":', f'loc("{escaped}":')


def _as_input(record: PassRecord) -> PassRecord:
    """Every pass of `--compile-to=input` belongs to stage A, whatever its flag's family."""
    record.stage = "input"
    return record
