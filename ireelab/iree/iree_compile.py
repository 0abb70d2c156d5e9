"""`ireelab.iree.compile`: the same program through the real `iree-compile`, trace kept.

Runs IREE 3.13's compiler as a subprocess with the flags the reference data was made with
(`--iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host`) plus
`--mlir-print-ir-after-all --mlir-disable-threading`, and reads the dump it writes to stderr
with `import_dump`, so the result has a `Trace` exactly like an ireelab compile. With
`trace=False` the dump is not printed (compiles several times faster) and the trace is empty.
Compile errors come back as `CompileError`s located in the cell, as IREE reported them.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import time
from collections.abc import Sequence

from ireelab.compiler.pipeline import PHASES
from ireelab.compiler.trace import Trace
from ireelab.diagnostics import CompileError, SourceLocation
from ireelab.iree.availability import require_compiler
from ireelab.iree.import_dump import import_dump
from ireelab.iree.iree_module import IREEModule

DEFAULT_FLAGS = ("--iree-llvmcpu-target-cpu=host",)
TRACE_FLAGS = ("--mlir-print-ir-after-all", "--mlir-disable-threading")
ELIDE_FLAGS = (
    "--mlir-elide-elementsattrs-if-larger=64",
    "--mlir-elide-resource-strings-if-larger=256",
)
"""Large constants would be printed after every one of ~750 passes; the trace shows them elided
(only with `compile_to="end"`: a textual output must stay whole)."""
_BACKEND_ALIASES = {"numba-cpu": "llvm-cpu"}
_DIAGNOSTIC = re.compile(
    r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<kind>error|warning|note|remark): (?P<message>.*)$"
)


def compile(
    source: str,
    compile_to: str = "end",
    target_backends: Sequence[str] = ("llvm-cpu",),
    device: str = "local-task",
    flags: Sequence[str] = DEFAULT_FLAGS,
    trace: bool = True,
    keep: Sequence[str] = ("flow", "stream"),
    filename: str | None = None,
) -> IREEModule:
    """Compile MLIR text (or a path to a .mlir file) with the real IREE.

    `target_backends` names IREE's backends; ireelab's `numba-cpu` means `llvm-cpu` here.
    `flags` are extra `iree-compile` flags. With `trace=True` the IR after every pass is kept;
    with `trace=False` only the IR at the `keep` phases is (the compile runs phase to phase with
    `--compile-from`, much cheaper than printing ~750 dumps). The result runs through
    `iree.runtime` on `device` (`local-task` or `local-sync`).
    """
    tool = require_compiler("ireelab.iree.compile")
    if compile_to not in PHASES:
        raise CompileError(f"unknown phase '{compile_to}'; expected one of {', '.join(PHASES)}")
    if filename is None and _looks_like_path(source):
        filename = source
        with open(source, encoding="utf-8") as f:
            source = f.read()
    filename = filename or "<stdin>"
    base = [tool, "-", *_backend_flags(target_backends), *flags]
    if trace:
        command = base + _phase_flags(None, compile_to) + list(TRACE_FLAGS)
        command += ELIDE_FLAGS if compile_to == "end" else ()
        output, stderr, seconds = run_tool(command, source, filename)
        kept, phase_ir = import_dump(stderr, source=source), {}
    else:
        output, phase_ir, seconds = _run_phases(base, source, filename, keep, compile_to)
        kept = Trace(source, [])
    binary = output if compile_to == "end" else None
    text = None if compile_to == "end" else output.decode("utf-8", errors="replace")
    return IREEModule(source, compile_to, kept, binary, text, seconds, device, phase_ir)


def _run_phases(
    base: list[str], source: str, filename: str, keep: Sequence[str], compile_to: str
) -> tuple[bytes, dict[str, str], float]:
    """Compile phase to phase (`--compile-from` the previous output), keeping each `keep` IR."""
    last = PHASES.index(compile_to)
    stops = [p for p in PHASES if p in keep and PHASES.index(p) < last] + [compile_to]
    phase_ir: dict[str, str] = {}
    text, start, total = source, None, 0.0
    for stop in stops:
        output, _, seconds = run_tool(base + _phase_flags(start, stop), text, filename)
        total += seconds
        if stop != "end":
            text = output.decode("utf-8", errors="replace")
            phase_ir[stop] = text
        start = stop
    return output, phase_ir, total


def _phase_flags(start: str | None, stop: str) -> list[str]:
    flags = [f"--compile-from={start}"] if start else []
    return flags + ([f"--compile-to={stop}"] if stop != "end" else [])


def _backend_flags(backends: Sequence[str]) -> list[str]:
    if isinstance(backends, str):
        backends = [backends]
    names = [_BACKEND_ALIASES.get(b, b) for b in backends]
    return [f"--iree-hal-target-backends={','.join(names)}"]


def run_tool(command: list[str], source: str, filename: str) -> tuple[bytes, str, float]:
    """Run `command` (iree-compile and its flags) on `source` from stdin: (output, stderr,
    seconds); a failure is IREE's first error as a `CompileError` located in `source`."""
    # stderr goes to a file: IREE writes its dump in many small unbuffered writes, which
    # through a pipe take several times longer than the compile itself.
    with tempfile.TemporaryDirectory(prefix="ireelab-iree-") as folder:
        out_path = os.path.join(folder, "out")
        err_path = os.path.join(folder, "stderr")
        started = time.perf_counter()
        with open(err_path, "wb") as err:
            proc = subprocess.run(
                [*command, "-o", out_path],
                input=source.encode(),
                stdout=subprocess.DEVNULL,
                stderr=err,
                check=False,
            )
        seconds = time.perf_counter() - started
        with open(err_path, encoding="utf-8", errors="replace") as f:
            stderr = f.read()
        if proc.returncode != 0:
            raise _compile_error(stderr, source, filename)
        with open(out_path, "rb") as f:
            return f.read(), stderr, seconds


def _compile_error(stderr: str, source: str, filename: str) -> CompileError:
    """IREE's first error diagnostic, located in `source`, as a `CompileError`."""
    lines = source.splitlines()
    for line in stderr.splitlines():
        match = _DIAGNOSTIC.match(line)
        if match is None or match.group("kind") != "error":
            continue
        row, col = int(match.group("line")), int(match.group("col"))
        text = lines[row - 1] if 0 < row <= len(lines) else ""
        location = SourceLocation(filename, row, col, text)
        return CompileError(f"iree-compile: {match.group('message')}", location)
    errors = [line for line in stderr.splitlines() if "error" in line.lower()]
    detail = errors[0] if errors else (stderr.strip().splitlines() or ["no message"])[-1]
    return CompileError(f"iree-compile failed: {detail.strip()}")


def _looks_like_path(source: str) -> bool:
    return "\n" not in source and source.endswith(".mlir") and os.path.exists(source)
