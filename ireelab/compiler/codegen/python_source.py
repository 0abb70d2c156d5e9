"""Writing Python text safely: generated names, numbers printed from values, indentation.

Part of `ConvertToNumbaPass` (ireelab's stand-in for IREE's `ConvertToLLVMPass`). Nothing here
ever copies text from the input IR into the output: SSA values get fresh names (`v0`, `v1`,
...), constants are printed from their numeric value, and symbol names are reduced to
`[A-Za-z0-9_]` before they appear in a comment.
"""

from __future__ import annotations

import math
import re

from xdsl.ir import SSAValue


def sanitize_symbol(name: str) -> str:
    """`name` with every character outside `[A-Za-z0-9_]` replaced by `_`."""
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def float_literal(value: float, dtype: str) -> str:
    """A float constant as Python text of the given numpy type; inf and nan handled."""
    value = float(value)
    if math.isnan(value):
        return f"{dtype}(np.nan)"
    if math.isinf(value):
        return f"{dtype}({'-' if value < 0 else ''}np.inf)"
    return f"{dtype}({value!r})"


def int_literal(value: int) -> str:
    return repr(int(value))


class PythonWriter:
    """Lines of Python with indentation, and a table of generated names for SSA values."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._names: dict[SSAValue, str] = {}
        self._counter = 0

    def fresh(self, prefix: str = "v") -> str:
        name = f"{prefix}{self._counter}"
        self._counter += 1
        return name

    def define(self, value: SSAValue, name: str | None = None) -> str:
        """Give `value` a name (a fresh one unless `name` is given) and return it."""
        self._names[value] = name or self.fresh()
        return self._names[value]

    def name(self, value: SSAValue) -> str:
        return self._names[value]

    def has_name(self, value: SSAValue) -> bool:
        return value in self._names

    def line(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"
