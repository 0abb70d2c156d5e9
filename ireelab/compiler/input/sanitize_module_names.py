"""SanitizeModuleNamesPass (`iree-sanitize-module-names`).

Mirrors IREE's InputConversion/Common/SanitizeModuleNames.cpp: the top-level `builtin.module`'s
own name becomes a plain identifier, because it names the VM module later (`vm.module
@my_model_1` for `module @"my.model-1"`) and the VM uses `.` to separate a module's name from
its functions' (`my_model_1.f`). Every byte outside `[A-Za-z0-9_]` becomes `_` (so a
two-byte UTF-8 letter gives two), as IREE's `sanitizeSymbolName` does; a leading digit stays.

Only the module's name changes, as in IREE: function names keep their text (IREE carries
`@"a\\22b"` through to the executable's export table and the host code's lookup string).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.passes import ModulePass


def sanitize_symbol_name(name: str) -> str:
    """`name` with every byte outside `[A-Za-z0-9_]` replaced by `_` (IREE's
    `sanitizeSymbolName`)."""
    return "".join(
        chr(b) if chr(b).isascii() and (chr(b).isalnum() or b == ord("_")) else "_"
        for b in name.encode("utf-8")
    )


@dataclass(frozen=True)
class SanitizeModuleNamesPass(ModulePass):
    name = "iree-sanitize-module-names"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if op.sym_name is not None:
            op.sym_name = StringAttr(sanitize_symbol_name(op.sym_name.data))
