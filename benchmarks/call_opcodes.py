"""Python opcodes and Python-level calls one call of a `?` module and of its static twin
execute (`sys.settrace` with opcode events): a load-independent measure of the host-side work
the dynamic-shapes benchmark (`benchmarks/dynamic_shapes.py`) times.

    python benchmarks/call_opcodes.py [--program add_dx4] [--shape 1000x4] [--by-function]

Counts one warm call (after a few untraced ones, so caches are filled). `--by-function` lists
the opcodes spent in each function's own body, dynamic minus static.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import dynamic_shapes  # noqa: E402

import ireelab  # noqa: E402


def count(call) -> tuple[int, int, collections.Counter]:
    """(opcodes, calls, opcodes by function) of one `call()`."""
    by_function: collections.Counter = collections.Counter()
    calls = 0

    def tracer(frame, event, arg):
        nonlocal calls
        if event == "call":
            calls += 1
            frame.f_trace_opcodes = True
        elif event == "opcode":
            code = frame.f_code
            by_function[f"{Path(code.co_filename).name}:{code.co_name}"] += 1
        return tracer

    sys.settrace(tracer)
    try:
        call()
    finally:
        sys.settrace(None)
    return sum(by_function.values()), calls - 1, by_function


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--program", default="add_dx4", choices=sorted(dynamic_shapes.CASES))
    parser.add_argument("--shape", default=None, help="rows x cols (default: the first case)")
    parser.add_argument("--device", default="local-task")
    parser.add_argument("--by-function", action="store_true")
    args = parser.parse_args(argv)
    function, shapes = dynamic_shapes.CASES[args.program]
    shape = tuple(int(n) for n in args.shape.split("x")) if args.shape else shapes[0]
    text = (dynamic_shapes.PROGRAMS / f"{args.program}.mlir").read_text()
    xs = dynamic_shapes.inputs(args.program, shape, np.random.default_rng(0))
    results = {}
    for kind, source in (
        ("dynamic", text),
        ("static", dynamic_shapes.specialise(text, shape, args.program)),
    ):
        fn = getattr(ireelab.compile(source), function)
        for _ in range(3):
            fn(*xs, device=args.device)
        results[kind] = count(lambda fn=fn: fn(*xs, device=args.device))
    size = "x".join(str(n) for n in shape)
    for kind, (opcodes, calls, _) in results.items():
        print(f"{args.program} {size} {kind}: {opcodes} opcodes, {calls} calls")
    if args.by_function:
        dynamic, static = results["dynamic"][2], results["static"][2]
        for key in sorted(set(dynamic) | set(static), key=lambda k: static[k] - dynamic[k]):
            if dynamic[key] != static[key]:
                print(f"  {dynamic[key] - static[key]:+5d} {key} ({dynamic[key]} / {static[key]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
