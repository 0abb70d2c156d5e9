"""AssignLegacyTargetDevicesPass: turn `--iree-hal-target-backends` into device targets.

Mirrors IREE's `iree-hal-assign-legacy-target-devices`: the old flag names backends, not
devices; the pass groups them into a `#hal.device.target<"local", [...]>` and records it on the
module as `hal.device.targets`, for MaterializeTargetDevicesPass to turn into globals.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp
from xdsl.passes import ModulePass

from ireelab.compiler.device.targets import BACKEND_FORMATS, device_target
from ireelab.diagnostics import CompileError


@dataclass(frozen=True)
class AssignLegacyTargetDevicesPass(ModulePass):
    name = "iree-hal-assign-legacy-target-devices"

    target_backends: tuple[str, ...] = ("numba-cpu",)
    """IREE's `targetBackends`: the backends to compile every executable for."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if "hal.device.targets" in op.attributes or "stream.affinity.default" in op.attributes:
            return  # devices already chosen in the input
        if not self.target_backends:
            raise CompileError("no target backends given", stage="device")
        for backend in self.target_backends:
            if backend not in BACKEND_FORMATS:
                raise CompileError(f"unknown target backend '{backend}'", stage="device")
        op.attributes["hal.device.targets"] = ArrayAttr([device_target(self.target_backends)])
