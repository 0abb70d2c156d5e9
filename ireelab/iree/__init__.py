"""The real IREE, side by side with ireelab (the optional extra `ireelab[iree]`).

    trace = ireelab.iree.import_dump("dump.txt")      # iree-compile --mlir-print-ir-after-all
    mod = ireelab.iree.compile(source)                  # the real iree-compile, trace kept
    mod.matmul(a, b)                                    # run through iree.runtime
    ireelab.iree.compare(source)                        # ireelab and IREE, table + pictures

`import_dump` and the IR analysis work without IREE installed; `compile` and `compare` need
`pip install 'ireelab[iree]'` (iree-base-compiler and iree-base-runtime 3.13) and say so.
"""

from __future__ import annotations

from ireelab.iree.availability import INSTALL_HINT, IREENotInstalledError, is_available
from ireelab.iree.import_dump import import_dump

__all__ = [
    "INSTALL_HINT",
    "IREENotInstalledError",
    "compare",
    "compile",
    "import_dump",
    "is_available",
]


def compile(source: str, **options):
    """Compile with the real IREE; see `ireelab.iree.iree_compile.compile`."""
    from ireelab.iree.iree_compile import compile as iree_compile

    return iree_compile(source, **options)


def compare(source: str, **options):
    """ireelab and IREE on one program; see `ireelab.iree.comparison.compare`."""
    from ireelab.iree.comparison import compare as compare_both

    return compare_both(source, **options)
