"""A kernel-compiling worker process (`kernel_pool` starts it): `python -m` this module.

It reads one JSON job per line on stdin (`{"folder", "kernel", "entries", "ukernels"}`),
imports the kernel module and its C-entry companion from the kernel cache folder, which makes
numba compile the entries and write them to its on-disk cache, marks the companion compiled,
and answers one JSON line (`{"error": null}` or the error's first line). It exits when stdin
closes. The modules it imports were written, and their sources checked, by the parent
(`kernel_pool.kernel_jobs`).
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path


def compile_job(job: dict) -> str | None:
    from ireelab.runtime.hal.kernel_markers import mark_compiled

    folder = str(job["folder"])
    if folder not in sys.path:
        sys.path.append(folder)
    try:
        if job.get("ukernels"):
            from ireelab.runtime.hal.executable_loader import register_ukernel_symbols

            register_ukernel_symbols()
        importlib.import_module(str(job["kernel"]))
        importlib.import_module(str(job["entries"]))
    except Exception as err:  # noqa: BLE001 - the parent reports it, with the executable
        return f"{type(err).__name__}: {_first_line(str(err))}".strip()
    mark_compiled(Path(folder), str(job["entries"]))
    return None


def _first_line(text: str) -> str:
    """The line of an error that says what went wrong (numba's first line names only the
    compiler stage that failed)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) > 1 and lines[0].startswith("Failed in"):
        return lines[1]
    return lines[0] if lines else ""


def main() -> None:
    import numba  # noqa: F401 - import before the first job arrives, while the parent works

    for line in sys.stdin:
        if not line.strip():
            continue
        error = compile_job(json.loads(line))
        sys.stdout.write(json.dumps({"error": error}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
