"""Which kernels are compiled already: a marker file beside a kernel's C-entry companion
module in the kernel cache says numba has compiled it into its on-disk cache.

Both sides of parallel kernel compilation read or write them: `kernel_pool` skips a kernel
whose marker is there, and `kernel_worker` writes the marker once it has compiled one, so a
kernel seen by any earlier module costs nothing. (IREE has no counterpart: its kernels are
compiled ahead of time into the module.)
"""

from __future__ import annotations

import os
from pathlib import Path

MARKER_SUFFIX = ".compiled"
"""`n_<digest>.compiled` beside a companion module: its kernels are in numba's cache."""


def _marker_text() -> str:
    """What a marker holds: the numba version, numba's cache folder it compiled into and the
    micro-kernel library's hash (`ukernel_cache`), so a marker left by another numba, another
    `NUMBA_CACHE_DIR` or other micro-kernels does not count."""
    import numba

    from ireelab.runtime.hal.ukernel_cache import UKERNEL_LIBRARY, library_digest

    cache = os.environ.get("NUMBA_CACHE_DIR", "")
    return f"{numba.__version__}\n{cache}\n{library_digest(UKERNEL_LIBRARY)}\n"


def _marker(folder: Path, entries_module: str) -> Path:
    return folder / f"{entries_module}{MARKER_SUFFIX}"


def is_compiled(folder: Path, entries_module: str) -> bool:
    marker = _marker(folder, entries_module)
    try:
        return marker.read_text(encoding="utf-8") == _marker_text()
    except OSError:
        return False


def mark_compiled(folder: Path, entries_module: str) -> None:
    _marker(folder, entries_module).write_text(_marker_text(), encoding="utf-8")
