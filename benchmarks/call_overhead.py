"""Per-call overhead of a tiny function called from Python: the 2x4x2 matmul, where the
kernel is nothing and everything else (argument checks, the VM, the HAL calls, the queue, the
result) is the cost. Issue 5's target: a median at or under IREE's own Python API.

    python benchmarks/call_overhead.py [--calls 20000] [--program a0_matmul_tiny] [--cpu]

Reports the median and 90th percentile per call for numpy's `a @ b` (the floor), ireelab on
local-sync and local-task (`mod.matmul(a, b)`, the notebook call), and the real IREE
(`iree.runtime`, llvm-cpu, local-sync and local-task) when it is installed; ratios are
against IREE's local-task in the same run. Timing is per call with `perf_counter_ns`, after a
warm-up; other processes on the machine shift absolute numbers, not the ordering. `--cpu`
reports the calling thread's CPU time per call instead (IREE's local-task workers' time is
not in it: its figure there is the caller's part only).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import ireelab

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "programs"
if not REFERENCE.exists():
    REFERENCE = Path("/work/shared/reference/programs")


def per_call(call: Callable[[], object], calls: int) -> tuple[float, float]:
    """(median, 90th percentile) microseconds per call."""
    for _ in range(min(calls // 10, 1000)):
        call()
    samples = []
    clock = time.perf_counter_ns
    for _ in range(calls):
        start = clock()
        call()
        samples.append(clock() - start)
    samples.sort()
    return statistics.median(samples) / 1000, samples[int(len(samples) * 0.9)] / 1000


def cpu_per_call(call: Callable[[], object], calls: int, batch: int = 100) -> tuple[float, float]:
    """(median, 90th percentile) microseconds of this thread's CPU time per call, over
    batches of `batch` calls: what other processes on a loaded machine move least (they take
    the core away, which wall-clock time counts and thread time does not)."""
    for _ in range(min(calls // 10, 1000)):
        call()
    samples = []
    clock = time.thread_time_ns
    for _ in range(max(1, calls // batch)):
        start = clock()
        for _ in range(batch):
            call()
        samples.append((clock() - start) / batch)
    samples.sort()
    return statistics.median(samples) / 1000, samples[int(len(samples) * 0.9)] / 1000


def iree_calls(source: str, name: str, a: np.ndarray, b: np.ndarray) -> dict[str, Callable]:
    """The same function through the real IREE's Python API, per driver (empty if absent)."""
    try:
        import iree.compiler as compiler
        import iree.runtime as runtime
    except ImportError:
        return {}
    binary = compiler.compile_str(
        source, target_backends=["llvm-cpu"], extra_args=["--iree-llvmcpu-target-cpu=host"]
    )
    calls = {}
    for driver in ("local-sync", "local-task"):
        config = runtime.Config(driver)
        context = runtime.SystemContext(config=config)
        context.add_vm_module(runtime.VmModule.copy_buffer(context.instance, binary))
        function = context.modules.module[name]
        calls[f"iree {driver}"] = lambda f=function: f(a, b).to_host()
    return calls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--program", default="a0_matmul_tiny")
    parser.add_argument(
        "--cpu", action="store_true", help="this thread's CPU time per call, not wall-clock"
    )
    args = parser.parse_args(argv)
    source = (REFERENCE / f"{args.program}.mlir").read_text()
    module = ireelab.compile(source)
    (name,) = module.functions
    rng = np.random.default_rng(0)
    signature = module.loaded.functions[name]
    a, b = (rng.standard_normal(s.shape).astype(s.dtype) for s in signature.inputs)
    function = getattr(module, name)
    cases: dict[str, Callable] = {"numpy a @ b": lambda: a @ b}
    for device in ("local-sync", "local-task"):
        cases[f"ireelab {device}"] = lambda d=device: function(a, b, device=d)
    cases.update(iree_calls(source, name, a, b))
    measure = cpu_per_call if args.cpu else per_call
    results = {label: measure(call, args.calls) for label, call in cases.items()}
    baseline = results.get("iree local-task", (None,))[0]
    what = "CPU microseconds per call (batches of 100)" if args.cpu else "microseconds per call"
    print(f"{args.program}: {args.calls} calls each, {what}")
    print(f"{'':22} {'median':>9} {'p90':>9} {'vs IREE local-task':>20}")
    for label, (median, p90) in results.items():
        ratio = f"{median / baseline:.2f}x" if baseline else "-"
        print(f"{label:22} {median:9.1f} {p90:9.1f} {ratio:>20}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
