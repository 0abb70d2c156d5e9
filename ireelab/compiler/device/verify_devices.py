"""VerifyDevicesPass: every device global names a target ireelab can compile for.

Mirrors IREE's `iree-hal-verify-devices`: fail early, at the device stage, rather than when
codegen finds no backend for an executable.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ireelab.compiler.device.targets import BACKEND_FORMATS
from ireelab.diagnostics import CompileError
from ireelab.dialects import hal, util


@dataclass(frozen=True)
class VerifyDevicesPass(ModulePass):
    name = "iree-hal-verify-devices"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        devices = [
            g
            for g in op.body.block.ops
            if isinstance(g, util.GlobalOp) and isinstance(g.type, hal.DeviceType)
        ]
        if not devices:
            raise CompileError("no target device: pass --iree-hal-target-backends", stage="device")
        for glob in devices:
            target = glob.initial_value
            if not isinstance(target, hal.DeviceTargetAttr):
                raise CompileError.at(glob, "device global has no #hal.device.target", "device")
            for exe in target.executable_targets.data:
                if exe.backend.data not in BACKEND_FORMATS:
                    raise CompileError.at(
                        glob, f"no compiler for target backend '{exe.backend.data}'", "device"
                    )
