"""A module with `?` sizes run at size N against the same program compiled for size N.

Issue 17's speed goal: the dynamic module within 1.3x of the static one. Each program of
`tests/dynamic/programs` is compiled once with its `?` sizes; for every size the same text with
the sizes written in (`tensor<?x4xf32>` -> `tensor<4096x4xf32>`, `tensor.empty(%d)` ->
`tensor.empty()`) is compiled too, and both run on the same inputs, side by side in one run.

    python benchmarks/dynamic_shapes.py [--calls 200] [--device local-task]

Prints the median time per call of each and the ratio dynamic / static. Not a timed test:
other processes on the machine move the absolute numbers.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from pathlib import Path

import numpy as np

import ireelab

PROGRAMS = Path(__file__).resolve().parents[1] / "tests" / "dynamic" / "programs"

CASES = {
    # program: (function, shapes of the `?`-sized argument(s), static trailing inputs)
    "add_dx4": ("add", [(1000, 4), (262144, 4)]),
    "mlp_batch": ("bias_relu_mean", [(1000, 8), (131072, 8)]),
    "dense_relu_batch": ("mlp", [(64, 64), (8192, 64)]),
    "rowsum_dxd": ("rowsum", [(64, 1000), (1024, 1024)]),
    "softmax_rows": ("softmax", [(64, 1000), (1024, 1024)]),
}


def specialise(text: str, shape: tuple[int, int]) -> str:
    """The program with its `?` sizes written in: rows first, then a second `?` (columns)."""
    rows, cols = shape
    text = text.replace("tensor<?x?x", f"tensor<{rows}x{cols}x")
    text = text.replace("tensor<?x", f"tensor<{rows}x")
    return re.sub(r"tensor\.empty\([^)]*\)", "tensor.empty()", text)


def inputs(name: str, shape: tuple[int, int], rng) -> list[np.ndarray]:
    args = [rng.standard_normal(shape, dtype=np.float32)]
    if name == "add_dx4":
        args.append(rng.standard_normal(shape, dtype=np.float32))
    if name == "mlp_batch":
        args.append(rng.standard_normal(shape[1], dtype=np.float32))
    if name == "dense_relu_batch":
        args.append(rng.standard_normal((64, 32), dtype=np.float32))
        args.append(rng.standard_normal(32, dtype=np.float32))
    return args


def median_ms(call, calls: int) -> float:
    for _ in range(max(calls // 10, 3)):
        call()
    samples = []
    for _ in range(calls):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--device", default="local-task")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    print(f"{'program':14} {'size':>12} {'dynamic ms':>11} {'static ms':>10} {'ratio':>6}")
    for name, (function, shapes) in CASES.items():
        text = (PROGRAMS / f"{name}.mlir").read_text()
        dynamic = getattr(ireelab.compile(text), function)
        for shape in shapes:
            static = getattr(ireelab.compile(specialise(text, shape)), function)
            xs = inputs(name, shape, rng)
            d = median_ms(lambda f=dynamic, xs=xs: f(*xs, device=args.device), args.calls)
            s = median_ms(lambda f=static, xs=xs: f(*xs, device=args.device), args.calls)
            size = "x".join(str(n) for n in shape)
            print(f"{name:14} {size:>12} {d:11.3f} {s:10.3f} {d / s:6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
