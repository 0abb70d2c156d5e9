"""`IREEModule`: what `ireelab.iree.compile` returns, shaped like ireelab's `CompiledModule`.

It keeps the real compiler's trace (so the stepper and the graphs open it), the IR at the phase
the compile stopped, and for a full compile the `.vmfb`, which it loads with `iree.runtime` on
`local-task` or `local-sync`. Exported functions are attributes taking and returning numpy
arrays; a wrong call (arity, shape, dtype) is a `RuntimeInputError`, in IREE's own words.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from ireelab.compiler.trace import Trace
from ireelab.diagnostics import RuntimeInputError
from ireelab.iree.availability import require_runtime
from ireelab.iree.ir_summary import (
    DispatchSummary,
    ScheduleSummary,
    summarize_dispatches,
    summarize_schedule,
)

STAGE_PHASES = {
    "input": "abi",
    "flow": "flow",
    "stream": "stream",
    "codegen": "executable-targets",
    "hal": "hal",
    "vm": "vm",
}
"""The `--compile-to` phase that ends each stage (device assignment has none of its own)."""

_IREE_REASON = re.compile(r"INVALID_ARGUMENT; (.*?)(?:; while|$)", re.DOTALL)


class IREEModule:
    def __init__(
        self,
        source: str,
        phase: str,
        trace: Trace,
        vmfb: bytes | None,
        output_ir: str | None,
        compile_seconds: float,
        device: str = "local-task",
        phase_ir: dict[str, str] | None = None,
    ):
        self.source = source
        self.phase = phase
        self.trace = trace
        self.vmfb = vmfb
        self.output_ir = output_ir
        self.compile_seconds = compile_seconds
        self.device = device
        self.phase_ir = phase_ir or {}
        """`--compile-to` phase -> the IR IREE printed there (compiles without a trace)."""
        self._loaded: dict[str, object] = {}

    # ---- the compile --------------------------------------------------------------------
    def ir_after(self, stage: str) -> str:
        """The module at the end of `stage` (`flow`, `stream`, ...), from the trace."""
        records = self.trace.stage(stage)
        if records:
            return records[-1].ir
        phase = STAGE_PHASES.get(stage)
        if phase in self.phase_ir:
            return self.phase_ir[phase]
        if phase == self.phase and self.output_ir is not None:
            return self.output_ir
        raise ValueError(
            f"no IR at the end of '{stage}': compiled to '{self.phase}' without a trace "
            f"(kept phases: {', '.join(self.phase_ir) or 'none'})"
        )

    def ir(self) -> str:
        """The IR at the phase the compile stopped (the `vm` module for a full compile)."""
        if self.output_ir is not None:
            return self.output_ir
        return self.ir_after("vm")

    def dispatches(self) -> DispatchSummary:
        return summarize_dispatches(self.ir_after("flow"))

    def schedule(self) -> ScheduleSummary:
        return summarize_schedule(self.ir_after("stream"))

    def dispatch_graph(self, **kwargs):
        from ireelab.viz.dispatch_graph import dispatch_graph

        return dispatch_graph(self.ir_after("flow"), **kwargs)

    def timepoint_graph(self, **kwargs):
        from ireelab.viz.timepoint_graph import timepoint_graph

        return timepoint_graph(self.ir_after("stream"), **kwargs)

    def stepper(self):
        from ireelab.notebook.stepper import Stepper

        return Stepper(self.trace)

    # ---- running it through iree.runtime ---------------------------------------------------
    def _bound(self, device: str):
        if self.vmfb is None:
            raise RuntimeError(
                f"this module was compiled to '{self.phase}', not to a runnable module; "
                "compile with compile_to='end' to run it"
            )
        if device not in self._loaded:
            runtime = require_runtime("running a module compiled by IREE")
            self._loaded[device] = runtime.load_vm_flatbuffer(self.vmfb, driver=device)
        return self._loaded[device]

    @property
    def functions(self) -> list[str]:
        names = self._bound(self.device).vm_module.function_names
        return [name for name in names if not name.startswith("__")]

    def invoke(self, name: str, *args, device: str | None = None):
        """Call an exported function; one result comes back as an array, several as a tuple."""
        results = self.invoke_all(name, *args, device=device)
        return results[0] if len(results) == 1 else results

    def invoke_all(self, name: str, *args, device: str | None = None) -> tuple[np.ndarray, ...]:
        bound = self._bound(device or self.device)
        if name not in self.functions:
            raise RuntimeInputError(
                f"module has no function '{name}'; it exports {', '.join(self.functions)}"
            )
        # A scalar argument (Python or numpy number) goes to IREE as a Python number, which
        # iree.runtime passes in a VM register; as an array it would be a buffer view.
        # (np.ascontiguousarray would make a 0-d array 1-d; IREE checks the rank.)
        values = [_scalar(a) if _is_scalar(a) else np.require(a, requirements="C") for a in args]
        try:
            results = getattr(bound, name)(*values)
        except ValueError as err:
            reason = _IREE_REASON.search(str(err))
            raise RuntimeInputError(
                f"{name}: {reason.group(1) if reason else str(err).splitlines()[0]}"
            ) from None
        if not isinstance(results, tuple | list):
            results = (results,)
        return tuple(np.asarray(r.to_host() if hasattr(r, "to_host") else r) for r in results)

    def __getattr__(self, name: str) -> Callable:
        if name.startswith("_") or "vmfb" not in self.__dict__:
            raise AttributeError(name)
        if self.vmfb is None:
            raise AttributeError(
                f"no function '{name}': this module was compiled to '{self.phase}', "
                "not to a runnable module"
            )
        if name in self.functions:
            return lambda *args, device=None: self.invoke(name, *args, device=device)
        raise AttributeError(f"module has no function or attribute '{name}'")

    def __repr__(self) -> str:
        return (
            f"<IREEModule (real IREE) phase={self.phase} passes={len(self.trace)} "
            f"compile={self.compile_seconds:.2f}s>"
        )


def _is_scalar(value) -> bool:
    return isinstance(value, int | float | np.generic) and not isinstance(value, bool)


def _scalar(value) -> int | float:
    return value.item() if isinstance(value, np.generic) else value
