"""Exceptions raised inside kernels that run as C entry points, made into call failures.

A kernel with a C entry point (`native_entries`: a `numba.cfunc`) cannot return an
exception: numba's wrapper reports it through `sys.unraisablehook` ("Exception ignored in:
'<numba.core.cpu.CPUContext>'") and returns as if the kernel had finished, leaving its
outputs unwritten. IREE's executables return a status from every workgroup and the task
executor fails the submission's signal semaphore with it; ireelab does the same by
recording what numba reports here and failing the dispatch (`execution.run_range`) or the
native plan (`local_task_device`) that ran the kernel.

The hook is installed when the runtime first runs a kernel and passes everything that is
not a numba kernel's report on to the hook that was there before.
"""

from __future__ import annotations

import sys
import threading

_lock = threading.Lock()
_pending: list[BaseException] = []
_previous = None


def _is_kernel_report(unraisable) -> bool:
    where = unraisable.object
    text = where if isinstance(where, str) else type(where).__module__
    return text.lstrip("<'").startswith("numba")


def _hook(unraisable) -> None:
    if unraisable.exc_value is not None and _is_kernel_report(unraisable):
        with _lock:
            _pending.append(unraisable.exc_value)
        return
    (_previous or sys.__unraisablehook__)(unraisable)


def install() -> None:
    """Route numba's kernel reports here (once per process)."""
    global _previous
    if sys.unraisablehook is not _hook:
        _previous = sys.unraisablehook
        sys.unraisablehook = _hook


def take() -> BaseException | None:
    """The first kernel exception reported since the last call, if any (all are cleared)."""
    if not _pending:
        return None
    with _lock:
        first = _pending[0] if _pending else None
        _pending.clear()
    return first
