"""Progress lines in a notebook: the pass being run, and the first numba compile of kernels.

IREE's tools print nothing while they work (a compile takes a second); ireelab's Python passes
and numba's first compile of each kernel take longer, so a notebook shows where it is. One
output line is kept up to date through an IPython display handle (`update_display_data`), which
JupyterLab, nbclient and nbconvert all understand; no widget is needed, so executed notebooks
exported to HTML show no "loading widget" placeholder. The line is cleared when the work ends.
Terminal IPython has no display handles worth updating, so there it stays silent.
"""

from __future__ import annotations

import html
import time
from collections.abc import Iterator
from contextlib import contextmanager

from IPython.display import display, update_display

_QUIET_FOR = 0.3
"""Seconds of work before a progress line appears (fast compiles never flash one)."""

_EVERY = 0.1
"""At most one update per this many seconds (passes can be microseconds apart)."""


def _has_frontend() -> bool:
    from IPython import get_ipython

    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


class _Line:
    """One output line that can be rewritten and finally cleared."""

    def __init__(self, enabled: bool | None = None):
        self.enabled = _has_frontend() if enabled is None else enabled
        self.display_id: str | None = None

    def show(self, text: str, fraction: float | None = None) -> None:
        if not self.enabled:
            return
        bar = ""
        if fraction is not None:
            bar = f"<progress value='{fraction:.3f}' max='1' style='width:12em'></progress> "
        data = {
            "text/plain": text,
            "text/html": f"<div>{bar}<code>{html.escape(text)}</code></div>",
        }
        if self.display_id is None:
            handle = display(data, raw=True, display_id=True)
            self.display_id = handle.display_id
        else:
            update_display(data, raw=True, display_id=self.display_id)

    def clear(self) -> None:
        if self.display_id is not None:
            update_display({"text/plain": ""}, raw=True, display_id=self.display_id)


class PassProgress:
    """The `progress(i, n, pass_name)` callback `ireelab.compile` calls before each pass."""

    def __init__(self, label: str, enabled: bool | None = None):
        self.label = label
        self._line = _Line(enabled)
        self._start = time.perf_counter()
        self._last = 0.0

    def __call__(self, index: int, total: int, pass_name: str) -> None:
        now = time.perf_counter()
        if now - self._start < _QUIET_FOR or now - self._last < _EVERY:
            return
        self._last = now
        step = min(index + 1, total)
        self._line.show(f"{self.label}: pass {step}/{total} {pass_name}", index / max(total, 1))

    def close(self) -> None:
        self._line.clear()


@contextmanager
def status(message: str, enabled: bool | None = None) -> Iterator[None]:
    """Show `message` while the body runs (cleared afterwards), e.g. a first numba compile;
    kernels compiled meanwhile (`runtime/hal/kernel_pool.py`) add their count and a bar."""
    from ireelab.runtime.hal.kernel_pool import reporting

    line = _Line(enabled)
    line.show(message)

    def kernels(done: int, total: int) -> None:
        if total:
            line.show(f"{message}: compiling kernels {done}/{total}", done / total)

    try:
        with reporting(kernels):
            yield
    finally:
        line.clear()
