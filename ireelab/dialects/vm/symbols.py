"""Symbol references the `vm` ops name (callees, rodata segments, globals), made once each.

Not an IREE concept: MLIR uniques every attribute in its context, so `@hal.command_buffer.dispatch`
exists once however many calls name it. xDSL makes and checks a new `SymbolRefAttr` each time;
a 64-layer model's VM code names the same few dozen imports and globals a thousand times.
Attributes are immutable, so the ops share one.
"""

from __future__ import annotations

from functools import cache

from xdsl.dialects.builtin import SymbolRefAttr


@cache
def symbol_ref(name: str) -> SymbolRefAttr:
    """`@name` (a flat reference; `hal.buffer_view.assert` is one name with dots in it)."""
    return SymbolRefAttr(name)
