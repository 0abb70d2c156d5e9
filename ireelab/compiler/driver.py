"""Running the pipeline: the part of `iree-compile` between reading MLIR and writing output.

Mirrors IREE's compiler driver: run `pipeline.PIPELINE` up to the `--compile-to` phase, verify
(after every pass with `IREELAB_VERIFY_EACH=1`, as `--verify-each`, after each stage with
`IREELAB_VERIFY_EACH=stage`; the input is verified when it is parsed), keep a `Trace`, and print the IR before / after passes the way MLIR's
`--mlir-print-ir-*` flags do, so the founding note's grep recipe works on our dumps.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from xdsl.dialects.builtin import ModuleOp

from ireelab.compiler import pipeline
from ireelab.compiler.source import verify
from ireelab.compiler.trace import NOT_KEPT, LazySnapshot, PassRecord, Trace, not_kept, print_ir
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

    def any(self) -> bool:
        """Whether any IR is printed during the compile."""
        return bool(
            self.after_all or self.before_all or self.after or self.before or self.after_change
        )

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
    data_tiling: bool = False
    """`--iree-opt-data-tiling`: matmuls become pack / mmt4d / unpack with tiles for the target."""
    indirect_command_buffers: bool = True
    """`--iree-hal-indirect-command-buffers` (IREE's default: on): reusable command buffers
    recorded once with binding-table slots and replayed per call (`ConvertToHALPass`)."""
    reassociate_fp_reductions: bool = True
    """`--iree-llvmcpu-reassociate-fp-reductions` (on at IREE's default -O2): off, kernels keep
    floating-point reductions in loop order (`ConvertToNumbaPass`'s option)."""
    debug: bool = False
    """Let internal errors raise with their traceback instead of a one-line message."""
    keep_ir: bool = True
    """Keep every pass's IR readable from the trace (the notebook stepper, the graphs); the
    command line turns it off when it writes no graph, since nothing reads the trace there,
    and the compile then skips the copy of its input that the replay would start from."""
    verify_each: bool = field(default_factory=lambda: _verify_mode() == "each")
    """Verify after every pass (as `mlir-opt --verify-each`); otherwise the input only (when
    it is parsed: a user's error is reported there). The pass-level tests turn it on
    (IREELAB_VERIFY_EACH=1); compiles stay fast without it (verifying a 64-layer MLP's result
    cost a tenth of a second; after every pass, 3-4x the CPU of a compile to `vm`)."""
    verify_stages: bool = field(default_factory=lambda: _verify_mode() == "stage")
    """Verify after the last pass of each stage (IREELAB_VERIFY_EACH=stage, what the tests
    other than the pass-level ones run): an invalid module is still caught, named by its stage
    rather than by the pass that made it."""


def _verify_mode() -> str:
    """IREELAB_VERIFY_EACH: unset or empty -> no verification after passes, `stage` -> after
    each stage, anything else -> after every pass."""
    value = os.environ.get("IREELAB_VERIFY_EACH", "")
    return "none" if not value else "stage" if value == "stage" else "each"


def pass_flag(p) -> str:
    """`name{opt=value ...}` as MLIR prints a pass with its options."""
    fields = dataclasses.fields(p) if dataclasses.is_dataclass(p) else ()
    # A global flag of IREE's (`cl::opt`) carried as a field is not a pass option: MLIR
    # does not print it after the pass name.
    fields = [f for f in fields if not f.metadata.get("global_flag")]
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
    return {
        "AssignLegacyTargetDevicesPass": {"target_backends": tuple(dict.fromkeys(backends))},
        "ConvertToNumbaPass": {"reassociate_fp_reductions": options.reassociate_fp_reductions},
        "ConvertToHALPass": {"indirect_command_buffers": options.indirect_command_buffers},
    }


def run_pipeline(
    module: ModuleOp,
    options: CompileOptions,
    progress: Callable[[int, int, str], None] | None = None,
    after_pass: Callable[[str, ModuleOp], None] | None = None,
) -> Trace:
    """Run the passes up to `options.compile_to` on `module` in place; return the trace.
    `after_pass(pass_class_name, module)` is called after every pass (the API uses it to
    start compiling kernels as soon as the executables are serialised).

    When no IR is printed, the trace's records hold `LazySnapshot`s: their IR is made by
    replaying the passes on a copy of the input the first time it is read (`Replay`), so a
    compile nobody inspects does not pay for a clone of the module after every pass."""
    from xdsl.context import Context

    from ireelab.compiler.context import make_context

    if options.compile_to not in pipeline.PHASES:
        phases = ", ".join(pipeline.PHASES)
        raise CompileError(f"unknown phase '{options.compile_to}' (expected one of {phases})")
    ctx: Context = make_context()
    passes = _passes(options)
    printing = options.printing
    out = printing.stream or sys.stderr
    replay = None
    if printing.any():
        input_ir: str | Callable[[], str] = print_ir(module)
    elif options.keep_ir:
        replay = Replay(module.clone(), options, module)
        input_ir = replay.input_ir  # printed when read
    else:
        input_ir = not_kept
    trace = Trace(input_ir=input_ir)
    before: PassRecord | str | Callable[[], str] = input_ir
    for index, (stage, p) in enumerate(passes):
        record_name = type(p).__name__
        if progress:
            progress(index, len(passes), record_name)
        if printing.wants_before(type(p)):
            text = before.ir if isinstance(before, PassRecord) else before
            header = PassRecord(index, stage, record_name, pass_flag(p), text, False)
            out.write(header.header(printing.module_scope, before=True) + "\n" + text + "\n\n")
        start = time.perf_counter()
        _apply(p, ctx, module, stage, options.debug)
        seconds = time.perf_counter() - start
        last_of_stage = index + 1 == len(passes) or passes[index + 1][0] != stage
        if options.verify_each or (options.verify_stages and last_of_stage):
            verify(module, stage=stage)
        if replay is not None:
            snapshot = LazySnapshot(replay, index)
        else:
            snapshot = module.clone() if printing.any() else NOT_KEPT
        record = PassRecord(
            index, stage, record_name, pass_flag(p), snapshot, None, seconds, before
        )
        trace.records.append(record)
        if printing.wants_after(type(p), record.changed if printing.after_change else True):
            out.write(record.header(printing.module_scope) + "\n" + record.ir + "\n\n")
        before = record
        if after_pass:
            after_pass(record_name, module)
    if progress:
        progress(len(passes), len(passes), "done")
    return trace


def _passes(options: CompileOptions) -> list[tuple[str, object]]:
    """(stage, pass instance) of every pass that runs for `options`, in order."""
    overrides = _overrides(options)
    steps = pipeline.steps_until(options.compile_to, options)
    return [(s.stage, s.make(**overrides.get(s.ref.split(":")[1], {}))) for s in steps]


class Replay:
    """The compile's passes run again on a copy of its input, the first time a record's IR is
    asked for, keeping a clone of the module after each pass. Passes are deterministic, so
    the replay reproduces the compile; the end result is checked against the compiled module
    all the same, so a pass that is not would show as an error, not as a wrong trace."""

    def __init__(self, input_module: ModuleOp, options: CompileOptions, result: ModuleOp):
        self._input = input_module
        self._options = options
        self._result = result
        self._snapshots: list[ModuleOp | None] | None = None
        self._input_ir: str | None = None
        self._lock = threading.Lock()

    def input_ir(self) -> str:
        """The input as text (printed from the copy before the replay runs on it)."""
        with self._lock:
            if self._input_ir is None:
                self._input_ir = print_ir(self._input)
            return self._input_ir

    def snapshot(self, index: int) -> ModuleOp:
        with self._lock:
            if self._snapshots is None:
                self._snapshots = self._run()
            snapshot = self._snapshots[index]
            self._snapshots[index] = None  # the record prints it once and keeps the text
        if snapshot is None:
            raise RuntimeError(f"the IR after pass {index} was already taken")
        return snapshot

    def _run(self) -> list[ModuleOp | None]:
        from ireelab.compiler.context import make_context

        ctx = make_context()
        if self._input_ir is None:  # before the passes change the copy
            self._input_ir = print_ir(self._input)
        module, self._input = self._input, None
        snapshots: list[ModuleOp | None] = []
        for stage, p in _passes(self._options):
            _apply(p, ctx, module, stage, self._options.debug)
            snapshots.append(module.clone())
        if not module.is_structurally_equivalent(self._result):
            raise RuntimeError(
                "replaying the pipeline for the trace did not reproduce the compiled module "
                "(a pass is not deterministic); compile with IR printing on to keep snapshots"
            )
        return snapshots


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
        raise CompileError.internal_error(type(p).__name__, err, stage) from None
