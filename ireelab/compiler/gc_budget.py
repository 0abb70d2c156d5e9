"""Fewer cyclic garbage collections while compiling.

Not a pass: CPython's collector runs a young-generation collection every 700 net
allocations (`gc.get_threshold()`), and a compile allocates millions of objects that stay
alive (xDSL's IRDL definitions at import, then the module's ops, values and attributes), so
most collections trace live objects and free nothing: 6-7% of the CPU time of
`ireelab-compile` on a 64-layer MLP (measured with `gc.callbacks`, about 310 young, 28
middle and 2 full collections). `iree-compile` is C++ and pays no such cost. Within
`fewer_collections()` a young collection runs every 100,000 allocations instead; garbage is
still collected (erased ops are reference cycles), only less often, and the thresholds are
put back afterwards, so a notebook's process keeps its own.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG_THRESHOLD = 100_000
"""Net allocations between young collections while compiling (CPython's default is 700)."""


@contextmanager
def fewer_collections() -> Iterator[None]:
    before = gc.get_threshold()
    if before[0]:  # 0: the process turned automatic collection off; leave it so
        gc.set_threshold(max(YOUNG_THRESHOLD, before[0]), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
