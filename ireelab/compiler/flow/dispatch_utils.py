"""Small queries the dispatch-creation passes share: where an op sits, which functions to walk.

Mirrors the helpers of IREE's Flow/Transforms/RegionOpUtils.cpp
(`isNonNullAndOutsideDispatch`) and the function-by-function anchoring of IREE's passes
(`util.func` and `func.func` alike).
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation

from ireelab.dialects import flow, util

DISPATCH_OPS = (flow.DispatchRegionOp, flow.DispatchWorkgroupsOp)
HOST_CONTROL_FLOW = (scf.ForOp, scf.IfOp, scf.WhileOp)
"""Structured control flow the host runs around dispatches (ONNX Loop, Scan, If)."""
_DEVICE_CODE = (*DISPATCH_OPS, flow.ExecutableOp)


def is_outside_dispatch(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, _DEVICE_CODE):
            return False
        parent = parent.parent_op()
    return True


def functions(module: ModuleOp) -> Iterator[Operation]:
    """Host functions of the module (not the ones inside executables)."""
    for op in module.body.block.ops:
        if isinstance(op, func.FuncOp | util.FuncOp) and op.body.blocks:
            yield op


def function_blocks(module: ModuleOp) -> Iterator[Block]:
    """Every host block: the functions' and the regions of the host `scf.for` / `scf.if` /
    `scf.while` ops in them (IREE forms dispatch regions in each block, so a loop's body, a
    branch and a while's condition get their own)."""
    for fn in functions(module):
        yield from fn.body.blocks
        for op in fn.walk():
            if isinstance(op, HOST_CONTROL_FLOW) and is_outside_dispatch(op):
                for region in op.regions:
                    yield from region.blocks


def function_name(op: Operation) -> str:
    return op.sym_name.data
