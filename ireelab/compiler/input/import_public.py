"""IREEImportPublicPass: the user's `func` dialect becomes IREE's `util` functions.

IREE converts `func.func` / `func.call` / `func.return` into `util.func` / `util.call` /
`util.return` at import, so every later stage sees one kind of function.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Region
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ireelab.diagnostics import CompileError
from ireelab.dialects import util


def _convert_func(op: func.FuncOp) -> util.FuncOp:
    if not op.body.blocks:
        raise CompileError.at(
            op,
            f"external function '@{op.sym_name.data}' has no body; declare it in the cell",
            stage="input",
        )
    visibility = op.sym_visibility.data if op.sym_visibility else "public"
    region = Region()
    op.body.move_blocks(region)
    new = util.FuncOp(
        op.sym_name.data,
        op.function_type,
        region,
        visibility,
        arg_attrs=op.arg_attrs,
        res_attrs=op.res_attrs,
    )
    new.location = op.location
    return new


@dataclass(frozen=True)
class IREEImportPublicPass(ModulePass):
    name = "iree-import-public"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in list(op.walk()):
            if isinstance(inner, func.ReturnOp):
                new = util.ReturnOp(*inner.arguments)
            elif isinstance(inner, func.CallOp):
                new = util.CallOp(inner.callee, list(inner.arguments), list(inner.result_types))
            else:
                continue
            new.location = inner.location
            Rewriter.replace_op(inner, new)
        for inner in [f for f in op.walk() if isinstance(f, func.FuncOp)]:  # nested modules too
            Rewriter.replace_op(inner, _convert_func(inner))
