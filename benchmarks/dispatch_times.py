"""Where one call's time goes, dispatch by dispatch: the fastest of several profiled calls.

    python benchmarks/dispatch_times.py j_attention [--data-tiling] [--device local-sync] [--calls 20]

Compiles a reference program (`shared/reference/programs/NAME.mlir`), profiles `--calls` calls
(`CompiledModule.profile`, the runtime's trace) and prints, per dispatch, the smallest time it
took in any of them (summed over the threads that ran its workgroups), with the call's own
fastest time. The minimum over many calls is what survives a machine shared with other work
best: preemption only ever adds time. On `local-sync` every workgroup runs on the caller, so
the figures are one thread's. Timings only: never a pass/fail test.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

import ireelab

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "programs"
if not REFERENCE.exists():
    REFERENCE = Path("/work/shared/reference/programs")


def dispatch_minimums(module, function: str, args, device: str, calls: int) -> dict[str, float]:
    """Dispatch name -> the least microseconds it took in one of `calls` profiled calls."""
    best: dict[str, float] = defaultdict(lambda: float("inf"))
    for _ in range(calls):
        events = module.profile(*args, function=function, device=device).trace_events
        events = events["traceEvents"] if isinstance(events, dict) else events
        per_call: dict[str, float] = defaultdict(float)
        for event in events:
            if event.get("ph") == "X" and event.get("cat") in ("dispatch", "transfer"):
                per_call[event["name"]] += event["dur"]
        for name, micros in per_call.items():
            best[name] = min(best[name], micros)
    return dict(best)


def call_minimum(call, calls: int) -> float:
    """The least milliseconds one call took."""
    fastest = float("inf")
    for _ in range(calls):
        start = time.perf_counter()
        call()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest * 1e3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("program")
    parser.add_argument("--data-tiling", action="store_true")
    parser.add_argument("--device", default="local-sync", choices=["local-sync", "local-task"])
    parser.add_argument("--calls", type=int, default=20)
    args = parser.parse_args(argv)
    source = (REFERENCE / f"{args.program}.mlir").read_text()
    module = ireelab.compile(source, data_tiling=args.data_tiling)
    (name,) = module.functions
    rng = np.random.default_rng(0)
    inputs = [
        rng.standard_normal(s.shape).astype(s.dtype) for s in module.loaded.functions[name].inputs
    ]
    function = getattr(module, name)
    for _ in range(3):
        function(*inputs, device=args.device)
    fastest = call_minimum(lambda: function(*inputs, device=args.device), args.calls)
    minimums = dispatch_minimums(module, name, inputs, args.device, args.calls)
    build = "data tiling" if args.data_tiling else "default"
    print(f"{args.program} ({build}, {args.device}): fastest call {fastest:.3f} ms")
    for dispatch, micros in minimums.items():
        print(f"  {dispatch:64} {micros:10.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
