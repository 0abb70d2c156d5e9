"""`import_dump`: the real IREE's `--mlir-print-ir-after-all` dump as an ireelab `Trace`.

    iree-compile --iree-hal-target-backends=llvm-cpu --mlir-print-ir-after-all m.mlir \\
        -o m.vmfb 2> dump.txt
    trace = ireelab.iree.import_dump("dump.txt")   # same type as ireelab.compile(...).trace

Every pass execution becomes a `PassRecord`: IREE's class name and flag as printed, the stage
it belongs to (`pass_stages`), and the whole module after it, rebuilt from the op the pass
printed when the dump was made without `--mlir-print-ir-module-scope` (`module_rebuilder`).
Dumps carry no timings, so `seconds` is 0.
"""

from __future__ import annotations

import os
from pathlib import Path

from ireelab.compiler.trace import PassRecord, Trace
from ireelab.diagnostics import CompileError
from ireelab.iree.dump_reader import Dump, DumpSection, read_dump
from ireelab.iree.module_rebuilder import ModuleRebuilder
from ireelab.iree.pass_stages import classify
from ireelab.iree.printed_ir import inline_typed_aliases, split_printed_op

HOW_TO_DUMP = (
    "make one with: iree-compile --iree-hal-target-backends=llvm-cpu "
    "--mlir-print-ir-after-all INPUT.mlir -o OUT.vmfb 2> dump.txt"
)


def import_dump(dump: str | os.PathLike, source: str | None = None) -> Trace:
    """Read an IR dump (a path, or the dump's text) into a `Trace`.

    `source` is the program that was compiled; it becomes the trace's `input_ir` (a dump does
    not contain it). Text that holds no `// -----// IR Dump After` section is a `CompileError`.
    """
    text = _read(dump)
    parsed = read_dump(text)
    after = [s for s in parsed.sections if s.when == "After"]
    if not after:
        raise CompileError(_nothing_found(parsed))
    input_ir = source if source is not None else _input_from_before(parsed)
    return Trace(input_ir, _records(after, parsed.module_scope, input_ir))


def _read(dump: str | os.PathLike) -> str:
    if isinstance(dump, os.PathLike) or _is_path(dump):
        try:
            return Path(dump).read_text(encoding="utf-8", errors="replace")
        except OSError as err:
            raise CompileError(f"cannot read the dump '{dump}': {err.strerror}") from None
    return dump


def _is_path(text: str) -> bool:
    return "\n" not in text and len(text) < 4096 and "IR Dump" not in text and bool(text.strip())


def _nothing_found(parsed: Dump) -> str:
    if parsed.sections:
        return (
            "the dump holds only 'IR Dump Before' sections; import_dump reads the IR after "
            f"each pass (--mlir-print-ir-after-all or --mlir-print-ir-after-change); {HOW_TO_DUMP}"
        )
    return f"no '// -----// IR Dump After ...' section found in the dump; {HOW_TO_DUMP}"


def _parseable(ir: str) -> str:
    if not ir.startswith(("#", "!")):
        return ir  # no alias definitions: nothing to write out
    return inline_typed_aliases(split_printed_op(ir)).text()


def _input_from_before(parsed: Dump) -> str:
    """With `--mlir-print-ir-before-all` too, the first before-dump is the input program."""
    first = parsed.sections[0]
    return first.ir if first.when == "Before" else ""


def _records(sections: list[DumpSection], module_scope: bool, input_ir: str) -> list[PassRecord]:
    stages = classify([s.flag for s in sections])
    rebuilder = ModuleRebuilder()
    records: list[PassRecord] = []
    previous = input_ir or None
    for index, (section, stage) in enumerate(zip(sections, stages, strict=True)):
        if module_scope or rebuilder.update(section.ir):
            ir = section.ir if module_scope else rebuilder.text()
        else:
            ir = section.ir  # a fragment with no module to put it in: shown as printed
        ir = _parseable(ir)
        changed = previous is None or ir != previous
        records.append(
            PassRecord(index, stage, section.name, section.flag, ir, changed, 0.0, tool="iree")
        )
        previous = ir
    return records
