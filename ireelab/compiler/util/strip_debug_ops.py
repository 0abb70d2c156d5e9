"""StripDebugOpsPass (`iree-util-strip-debug-ops`): assertions go before optimisation.

Mirrors IREE's `Dialect/Util/Transforms/StripDebugOps.cpp`. IREE's GlobalOptimization
pipeline runs it first among its preprocessing passes when `--iree-opt-strip-assertions` is
on, which it is at every optimisation level from O1 (the default level is O2): every
`cf.assert` in the module goes, in host code and inside `linalg.generic` bodies alike. ONNX's
importer leaves such checks in kernels (gather's index bounds, layer normalisation's axis);
after this pass neither the host nor the device code carries them, as in an `iree-compile`d
module. The checks' conditions stay until dead-code elimination removes what only they read.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import cf
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter


def strip_debug_ops(module: ModuleOp) -> None:
    for op in list(module.walk()):
        if isinstance(op, cf.AssertOp):
            Rewriter.erase_op(op)


@dataclass(frozen=True)
class StripDebugOpsPass(ModulePass):
    name = "iree-util-strip-debug-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        strip_debug_ops(op)
