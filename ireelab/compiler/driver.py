"""Running the pipeline: the part of `iree-compile` between reading MLIR and writing output.

Mirrors IREE's compiler driver: run `pipeline.PIPELINE` up to the `--compile-to` phase, verify
after every pass, keep a `Trace`, and print the IR before / after passes the way MLIR's
`--mlir-print-ir-*` flags do, so the founding note's grep recipe works on our dumps.
"""

from __future__ import annotations

import dataclasses
import io
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from ireelab.compiler import pipeline
from ireelab.compiler.source import verify
from ireelab.compiler.trace import PassRecord, Trace
from ireelab.diagnostics import CompileError

TARGET_BACKENDS = {"numba-cpu": "numba-cpu", "llvm-cpu": "numba-cpu"}
"""`--iree-hal-target-backends` values: ours, and IREE's `llvm-cpu` as an alias for it."""


@dataclass
class PrintOptions:
    """MLIR's IR printing flags."""

    after_all: bool = False
    before_all: bool = False
    after: frozenset[str] = frozenset()
    before: frozenset[str] = frozenset()
    after_change: bool = False
    module_scope: bool = False
    stream: TextIO | None = None

    def wants_after(self, cls: type, changed: bool) -> bool:
        named = cls.__name__ in self.after or cls.name in self.after
        if self.after_change and not changed:
            return False
        return self.after_all or named or self.after_change

    def wants_before(self, cls: type) -> bool:
        return self.before_all or cls.__name__ in self.before or cls.name in self.before


@dataclass
class CompileOptions:
    compile_to: str = "end"
    target_backends: tuple[str, ...] = ("numba-cpu",)
    printing: PrintOptions = field(default_factory=PrintOptions)
    input_type: str = "auto"
    """`--iree-input-type`: `none` is linalg; a framework type goes through the real IREE's
    input conversion first (`ireelab.frontends`); `auto` detects it as IREE does."""
    input_flags: tuple[str, ...] = ()
    """Flags for IREE's input conversion (`--iree-torch-emit-async-entry-points=false`)."""
    debug: bool = False
    """Let internal errors raise with their traceback instead of a one-line message."""
    verify_each: bool = field(default_factory=lambda: bool(os.environ.get("IREELAB_VERIFY_EACH")))
    """Verify after every pass (as `mlir-opt --verify-each`); otherwise at every phase
    boundary. The tests turn it on (IREELAB_VERIFY_EACH=1); compiles stay fast without it."""


def print_ir(module: ModuleOp) -> str:
    out = io.StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def pass_flag(p) -> str:
    """`name{opt=value ...}` as MLIR prints a pass with its options."""
    fields = dataclasses.fields(p) if dataclasses.is_dataclass(p) else ()
    if not fields:
        return p.name
    opts = " ".join(
        f"{f.name.replace('_', '-')}={_option_text(getattr(p, f.name))}" for f in fields
    )
    return f"{p.name}{{{opts}}}"


def _option_text(value) -> str:
    if isinstance(value, tuple | list):
        return "{" + ",".join(str(v) for v in value) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _overrides(options: CompileOptions) -> dict[str, dict]:
    backends = []
    for name in options.target_backends:
        if name not in TARGET_BACKENDS:
            known = ", ".join(TARGET_BACKENDS)
            raise CompileError(f"unknown target backend '{name}' (known: {known})", stage="device")
        backends.append(TARGET_BACKENDS[name])
    return {"AssignLegacyTargetDevicesPass": {"target_backends": tuple(dict.fromkeys(backends))}}


def run_pipeline(
    module: ModuleOp,
    options: CompileOptions,
    progress: Callable[[int, int, str], None] | None = None,
) -> Trace:
    """Run the passes up to `options.compile_to` on `module` in place; return the trace."""
    from xdsl.context import Context

    from ireelab.compiler.context import make_context

    ctx: Context = make_context()
    steps = pipeline.steps_until(options.compile_to)
    overrides = _overrides(options)
    printing = options.printing
    out = printing.stream or sys.stderr
    trace = Trace(input_ir=print_ir(module))
    checkpoints = _checkpoint_indices(options.compile_to)
    before: PassRecord | str = trace.input_ir
    for index, step in enumerate(steps):
        p = step.make(**overrides.get(step.ref.split(":")[1], {}))
        record_name = type(p).__name__
        if progress:
            progress(index, len(steps), record_name)
        if printing.wants_before(type(p)):
            text = before.ir if isinstance(before, PassRecord) else before
            header = PassRecord(index, step.stage, record_name, pass_flag(p), text, False)
            out.write(header.header(printing.module_scope, before=True) + "\n" + text + "\n\n")
        start = time.perf_counter()
        _apply(p, ctx, module, step.stage, options.debug)
        seconds = time.perf_counter() - start
        if options.verify_each or index in checkpoints:
            verify(module, stage=step.stage)
        record = PassRecord(
            index, step.stage, record_name, pass_flag(p), module.clone(), None, seconds, before
        )
        trace.records.append(record)
        if printing.wants_after(type(p), record.changed if printing.after_change else True):
            out.write(record.header(printing.module_scope) + "\n" + record.ir + "\n\n")
        before = record
    if progress:
        progress(len(steps), len(steps), "done")
    return trace


def _checkpoint_indices(phase: str) -> set[int]:
    """Indices of the last pass before each phase boundary (where the IR is verified)."""
    indices, count = set(), 0
    for step in pipeline.PIPELINE:
        if isinstance(step, pipeline.Checkpoint):
            indices.add(count - 1)
            if step.phase == phase:
                break
        else:
            count += 1
    indices.add(len(pipeline.steps_until(phase)) - 1)
    return indices


def _apply(p, ctx, module: ModuleOp, stage: str, debug: bool) -> None:
    try:
        p.apply(ctx, module)
    except CompileError as err:
        if err.stage is None:
            err.stage = stage
        raise
    except Exception as err:
        if debug:
            raise
        message = f"internal error in {type(p).__name__}: {type(err).__name__}: {err}"
        raise CompileError(message.splitlines()[0], stage=stage) from None
