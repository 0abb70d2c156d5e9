"""MaterializeTargetDevicesPass: one `util.global @__device_N` per target device.

Mirrors IREE's `iree-hal-materialize-target-devices`: each entry of the module's
`hal.device.targets` becomes a private global initialised with its `#hal.device.target`, and
the first becomes the default affinity (`stream.affinity.default`) every later stage places
work on.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.dialects import hal, util


@dataclass(frozen=True)
class MaterializeTargetDevicesPass(ModulePass):
    name = "iree-hal-materialize-target-devices"

    default_device: str = ""
    """IREE's `defaultDevice`: the device name to use as default (first when empty)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        targets = op.attributes.pop("hal.device.targets", None)
        if not isinstance(targets, ArrayAttr) or not targets.data:
            return
        names = []
        for i, target in enumerate(targets.data):
            name = f"__device_{i}"
            glob = util.GlobalOp(name, hal.DeviceType(), target, "private")
            first = op.body.block.first_op
            point = InsertPoint.before(first) if first else InsertPoint.at_end(op.body.block)
            Rewriter.insert_op(glob, point)
            names.append(name)
        default = self.default_device or names[0]
        op.attributes["stream.affinity.default"] = hal.DeviceAffinityAttr(default)
