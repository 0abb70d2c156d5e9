"""Compiling a module's kernels in parallel worker processes, before its first call.

IREE translates the executables of a program in parallel: MLIR's pass manager runs the nested
pipeline of every `hal.executable` on its own thread (`--mlir-disable-threading` turns that
off), so LLVM code generation of 48 dispatches takes about the time of 48 / cores. ireelab's
kernels are compiled by numba when a module is first called, and numba holds the GIL while it
compiles, so threads would not help: this module compiles distinct kernels in worker
processes instead (`kernel_worker`), each importing the kernel's C-entry companion module
(`native_entries`) with numba's on-disk cache on, and the parent then loads the compiled code
from that cache. A kernel compiled once on this machine (same source, same numba, same cache
folders) is never handed to a worker again: a marker beside it in the kernel cache says so.

`start(binaries)` writes the kernel modules and starts the work in the background (the
compiler calls it as soon as the executables are serialised, so the workers start while the VM
stage still runs); `Compilation.wait()` blocks until it is done, reporting progress
(`compiling kernels 12/48`) to the reporter in effect (`reporting`), by default to stderr when
it is a terminal and the wait takes longer than a second. A kernel that fails to compile in a
worker, or a worker that dies, fails the wait with one `HALError` naming the executable's
exports and the kernel module, never a hang.

`IREELAB_PARALLEL_KERNELS=0` turns this off (kernels compile one after another on first call,
in the calling process); fewer than two kernels to compile are left to that path too, as a
worker process costs more to start than it saves then.
"""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ireelab.runtime.errors import HALError
from ireelab.runtime.hal.kernel_markers import is_compiled

if TYPE_CHECKING:
    from ireelab.runtime.hal.generic_kernels import GenericKernel

Progress = Callable[[int, int], None]
"""`progress(done, total)` as kernels finish."""


@dataclass(frozen=True)
class KernelJob:
    kernel_module: str
    entries_module: str
    exports: tuple[str, ...]
    """The executable's export names (IREE's names), for error messages."""
    ukernels: bool
    """The kernels call BLAS micro-kernels (the worker registers their symbols first)."""
    background: bool = False
    """A specialised kernel whose generic one runs meanwhile (`generic_kernels`): the first
    call does not wait for it, the workers start it once a first result is returned
    (`first_result`), and the executable swaps to it once it is compiled."""

    def request(self, folder: Path) -> dict:
        """The job as `kernel_worker` reads it."""
        return {
            "folder": str(folder),
            "kernel": self.kernel_module,
            "entries": self.entries_module,
            "ukernels": self.ukernels,
        }


def enabled() -> bool:
    return os.environ.get("IREELAB_PARALLEL_KERNELS", "1") != "0"


def kernel_jobs(binaries: list[bytes]) -> tuple[list[KernelJob], list[Compilation]]:
    """Write the kernel and companion modules of `binaries` into the kernel cache; return
    the distinct ones whose kernels are not compiled yet, and the compilations already
    running for others. Raises what loading would raise for a malformed or refused binary.

    A kernel with a generic form (`generic_kernels`) that pays is tiered: its generic kernel
    is a job the first call waits for, the specialised one a background job, and
    `tiered(entries)` names the generic kernel for the executable to run meanwhile. It pays
    when the generic kernel is compiled already, or when two or more kernels to compile
    here share it."""
    from ireelab.runtime.hal import generic_kernels
    from ireelab.runtime.hal.executable_loader import (
        cache_dir,
        parse_executable,
        uses_ukernels,
        verify_kernel_source,
        write_kernel_module,
    )
    from ireelab.runtime.hal.native_entries import can_have_entries, write_entries

    folder = cache_dir()
    jobs: dict[str, KernelJob] = {}
    running: list[Compilation] = []
    candidates: dict[str, list[tuple[KernelJob, GenericKernel]]] = {}
    tiers = generic_kernels.mode()
    for binary in binaries:
        exports, source = parse_executable(binary)
        verify_kernel_source(source)
        if "_JIT_OPTIONS" not in source:  # hand-written: no C entries, the dispatcher path
            continue
        module = write_kernel_module(source)
        operands = [(e.ordinal, e.bindings, e.constants) for e in exports]
        if not can_have_entries(operands):  # the dispatcher path, compiled at the first call
            continue
        entries = write_entries(module, operands)
        compilation = _IN_FLIGHT.get(entries)
        if compilation is not None:
            if compilation not in running:
                running.append(compilation)
            continue
        if module in jobs or entries in _TIERED or is_compiled(folder, entries):
            continue
        names = tuple(e.name for e in exports)
        job = KernelJob(module, entries, names, uses_ukernels(source))
        generic = generic_kernels.generic_kernel(source, operands) if tiers != "off" else None
        if generic is None:
            jobs[module] = job
            continue
        candidates.setdefault(generic.entries, []).append((job, generic))
    for group in candidates.values():
        _tier(group, folder, tiers, jobs, running)
    urgent = [j for j in jobs.values() if not j.background]
    return urgent + [j for j in jobs.values() if j.background], running


def _tier(
    group: list[tuple[KernelJob, GenericKernel]],
    folder: Path,
    tiers: str,
    jobs: dict[str, KernelJob],
    running: list[Compilation],
) -> None:
    """Add the jobs of kernels sharing one generic kernel: tiered (the generic kernel a job
    if it is not compiled, the specialised ones background jobs) when that pays, else each
    kernel's own job."""
    generic = group[0][1]
    in_flight = _IN_FLIGHT.get(generic.entries)
    compiled = in_flight is not None or is_compiled(folder, generic.entries)
    if tiers == "on" and not compiled and len(group) < 2:
        jobs[group[0][0].kernel_module] = group[0][0]
        return
    if in_flight is not None and in_flight not in running:
        running.append(in_flight)
    elif not compiled:
        first = group[0][0]
        jobs[generic.module] = replace(
            first, kernel_module=generic.module, entries_module=generic.entries
        )
    for job, _ in group:
        _TIERED[job.entries_module] = generic.entries
        if tiers == "on":
            jobs[job.kernel_module] = replace(job, background=True)


_TIERED: dict[str, str] = {}
"""Specialised companion module -> the generic kernel's companion the executable runs until
the specialised one is compiled (decided by `kernel_jobs`)."""
_READY: set[str] = set()
"""Companion modules this process's workers have compiled (the executable swaps then)."""


_FIRST_RESULT = threading.Event()
"""Set once a call in this process has returned its first result: background compiles start
then, so they never compete with the first call for the CPU."""


def first_result() -> None:
    """Let background compiles start (`LoadedModule.invoke` calls this after a function's
    first call returns)."""
    if not _FIRST_RESULT.is_set():
        _FIRST_RESULT.set()


def tiered(entries_module: str) -> str | None:
    """The companion of the generic kernel to run for `entries_module` until it is
    compiled (`ready`), or None when it is not tiered."""
    return _TIERED.get(entries_module)


def ready(entries_module: str) -> bool:
    return entries_module in _READY


_IN_FLIGHT: dict[str, Compilation] = {}
"""Companion module -> the compilation compiling it, so two modules sharing a kernel (or a
compile and the load of its result) wait for one compile instead of starting two."""
_IN_FLIGHT_LOCK = threading.Lock()


# ---- progress -----------------------------------------------------------------------------
_REPORTERS: list[Progress] = []


@contextmanager
def reporting(progress: Progress) -> Iterator[None]:
    """Send the progress of kernel compiles waited for in the body to `progress`."""
    _REPORTERS.append(progress)
    try:
        yield
    finally:
        _REPORTERS.remove(progress)


class _TerminalProgress:
    """`compiling kernels 12/48` on stderr, rewritten in place, once a wait passes 1 s."""

    def __init__(self):
        self.start = time.perf_counter()
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        if not total:
            return
        if not self.shown and time.perf_counter() - self.start < 1.0:
            return
        if not sys.stderr.isatty():
            return
        self.shown = True
        end = "\n" if done == total else ""
        sys.stderr.write(f"\rcompiling kernels {done}/{total}{end}")
        sys.stderr.flush()


# ---- the workers --------------------------------------------------------------------------
class _Worker:
    """One `python -m ireelab.runtime.hal.kernel_worker` process: a job per line on stdin,
    a JSON reply per line on stdout."""

    def __init__(self):
        import ireelab

        package_root = str(Path(ireelab.__file__).resolve().parent.parent)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
        env.setdefault("OPENBLAS_NUM_THREADS", "1")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "ireelab.runtime.hal.kernel_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
        )

    def run(self, folder: Path, job: KernelJob) -> str | None:
        """Compile `job` in this worker; the error text, or None."""
        try:
            self.process.stdin.write(json.dumps(job.request(folder)) + "\n")
            self.process.stdin.flush()
            reply = self.process.stdout.readline()
        except (BrokenPipeError, OSError):
            reply = ""
        if not reply:
            code = self.process.wait()
            raise _WorkerDied(f"the worker process exited (code {code})")
        return json.loads(reply).get("error")

    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> None:
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()


class _WorkerDied(Exception):
    pass


_IDLE: list[_Worker] = []
"""Workers kept for the next compile in this process (starting one costs about a second)."""
_BUSY: set[_Worker] = set()
"""Workers compiling now (at exit, only background jobs can be left: they are stopped)."""
_IDLE_LOCK = threading.Lock()


def _take_worker() -> _Worker:
    with _IDLE_LOCK:
        while _IDLE:
            worker = _IDLE.pop()
            if worker.alive():
                _BUSY.add(worker)
                return worker
    worker = _Worker()
    with _IDLE_LOCK:
        _BUSY.add(worker)
    return worker


def _give_back(worker: _Worker) -> None:
    with _IDLE_LOCK:
        _BUSY.discard(worker)
        _IDLE.append(worker)


@atexit.register
def _close_workers() -> None:
    """Close the idle workers; stop the busy ones (background compiles of specialised
    kernels this process no longer needs: what they finished is in the cache)."""
    with _IDLE_LOCK:
        workers, busy = list(_IDLE), list(_BUSY)
        _IDLE.clear()
        _BUSY.clear()
    for worker in busy:
        worker.process.kill()
        worker.process.wait()
    for worker in workers:
        worker.close()


# ---- one compilation ----------------------------------------------------------------------
class Compilation:
    """The kernels of one or more executables compiling in the background: first the jobs
    the first call waits for (`total` of them), then the background ones (`KernelJob.
    background`), which the workers go on compiling after `wait` returns."""

    def __init__(
        self,
        jobs: list[KernelJob],
        folder: Path,
        workers: int,
        others: list[Compilation] | None = None,
    ):
        self.others = others or []
        """Compilations started earlier that compile some of these kernels."""
        self.jobs = jobs
        self.total = sum(1 for j in jobs if not j.background)
        self.done = 0
        self.failure: str | None = None
        self._pending = list(reversed(jobs))
        self._folder = folder
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._threads = [
            threading.Thread(target=self._serve, daemon=True, name=f"ireelab-kernel-pool-{i}")
            for i in range(min(workers, len(jobs)))
        ]
        for thread in self._threads:
            thread.start()

    def _next(self, background: bool = True) -> KernelJob | None:
        with self._lock:
            if self.failure is not None or not self._pending:
                return None
            if self._pending[-1].background and not background:
                return None
            return self._pending.pop()

    def _serve(self) -> None:
        worker = job = None
        try:
            worker = _take_worker()
            while (job := self._next()) is not None:
                if job.background:
                    _FIRST_RESULT.wait()
                error = worker.run(self._folder, job)
                if error is not None and job.background:  # the generic kernel stays
                    self._finish_background(job, compiled=False)
                    continue
                if error is not None:
                    self._fail(job, error)
                    break
                self._finish(job)
        except _WorkerDied as err:
            with _IDLE_LOCK:
                _BUSY.discard(worker)
            worker = None
            if job is not None and job.background:
                self._finish_background(job, compiled=False)
            else:
                self._fail(job, str(err))
        except Exception as err:  # noqa: BLE001 - a worker that cannot start: say so, don't hang
            self._fail(None, f"{type(err).__name__}: {err}")
        finally:
            if worker is not None:
                _give_back(worker)
            with self._changed:
                self._changed.notify_all()

    def _finish(self, job: KernelJob) -> None:
        if job.background:
            self._finish_background(job, compiled=True)
            return
        with self._changed:
            _READY.add(job.entries_module)
            self.done += 1
            self._changed.notify_all()

    def _finish_background(self, job: KernelJob, compiled: bool) -> None:
        with _IN_FLIGHT_LOCK:
            if compiled:
                _READY.add(job.entries_module)
            if _IN_FLIGHT.get(job.entries_module) is self:
                del _IN_FLIGHT[job.entries_module]

    def _fail(self, job: KernelJob | None, error: str) -> None:
        line = (error.strip().splitlines() or ["unknown error"])[0]
        if job is None:
            message = f"compiling kernels in a worker process failed: {line}"
        else:
            names = ", ".join(f"'{n}'" for n in job.exports)
            message = (
                f"compiling the kernels of the executable exporting {names} "
                f"({job.kernel_module}.py in the kernel cache) failed in a worker process: {line}"
            )
        with self._changed:
            if self.failure is None:
                self.failure = message
            self._changed.notify_all()

    def finished(self) -> bool:
        return all(not t.is_alive() for t in self._threads)

    def wait(self, progress: Progress | None = None, help_here: bool = True) -> None:
        """Block until every kernel but the background ones is compiled, compiling kernels
        in this process too while the workers run unless `help_here` is False (one worker
        process fewer to start, and no cache load afterwards for those); raise `HALError`
        if one failed."""
        from ireelab.runtime.hal.kernel_worker import compile_job

        report = progress or (_REPORTERS[-1] if _REPORTERS else _TerminalProgress())
        report(self.done, self.total)
        while help_here and (job := self._next(background=False)) is not None:
            error = compile_job(job.request(self._folder))
            if error is not None:
                self._fail(job, error)
                break
            self._finish(job)
            report(self.done, self.total)
        shown = self.done
        with self._changed:
            while True:
                if self.done != shown:
                    shown = self.done
                    report(shown, self.total)
                if self.failure is not None or self.done == self.total or self.finished():
                    break
                self._changed.wait(timeout=0.5)
        if not any(j.background for j in self.jobs):
            for thread in self._threads:
                thread.join()
        with _IN_FLIGHT_LOCK:
            for job in self.jobs:
                if not job.background and _IN_FLIGHT.get(job.entries_module) is self:
                    del _IN_FLIGHT[job.entries_module]
        if self.failure is not None:
            raise HALError(self.failure, code="INTERNAL")
        for other in self.others:
            other.wait(report, help_here)


def start(binaries: list[bytes], workers: int | None = None) -> Compilation | None:
    """Start compiling the kernels of `binaries` that are not compiled yet; None when there
    is nothing for workers to do (turned off, all cached, or fewer than two kernels and
    none in the background)."""
    if not enabled():
        return None
    from ireelab.runtime.hal.executable_loader import cache_dir

    with _IN_FLIGHT_LOCK:
        jobs, running = kernel_jobs(binaries)
        if len(jobs) < 2 and not any(j.background for j in jobs):
            jobs = []
            if not running:
                return None
        if workers is None:  # the waiting process compiles too: one core's worth
            workers = max(1, (os.cpu_count() or 1) - 1)
        compilation = Compilation(jobs, cache_dir(), workers, running)
        for job in jobs:
            _IN_FLIGHT[job.entries_module] = compilation
    return compilation
