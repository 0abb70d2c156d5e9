"""A module with `?` sizes run at size N against the same program compiled for size N.

Issue 17's speed goal: the dynamic module within 1.3x of the static one. Each program of
`tests/dynamic/programs` is compiled once with its `?` sizes; for every size the same text with
the sizes written in (`tensor<?x4xf32>` -> `tensor<4096x4xf32>`, `tensor.empty(%d)` ->
`tensor.empty()`) is compiled too, and both run on the same inputs, side by side in one run.

    python benchmarks/dynamic_shapes.py [--calls 200] [--device local-task] [--rounds 5]
        [--programs add_dx4 ...]

Prints the median time per call of each and the ratio dynamic / static; with `--rounds N`,
N interleaved rounds (dynamic, then static, each `--calls` calls) and the median over rounds
of the wall-time ratio and of the CPU-time ratio (`time.process_time`, every thread of the
process), which a loaded machine moves less. Not a timed test: other processes on the
machine move the absolute numbers.
"""

from __future__ import annotations

import argparse
import functools
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
    "layernorm_dxd": ("layernorm", [(64, 256), (1024, 1024)]),
    "matmul_dxd": ("mmk", [(64, 64), (1024, 512)]),  # (M, K); N is 16
    "batch_matmul_batch": ("bmm", [(64,), (65536,)]),  # the batch of 4x8 @ 8x5
    "concat_rows_dx4": ("cat", [(1000, 24), (262144, 4096)]),  # the two inputs' rows
    "attention_seq": ("attention", [(1, 16, 16, 16, 16), (4, 256, 64, 256, 64)]),
    "depthwise_nhwc_channels": ("conv", [(57, 57, 32), (113, 113, 200)]),  # H, W, C; stride 2
    "conv_nhwc_channels": ("conv", [(1, 17, 17, 8, 16), (4, 64, 64, 32, 64)]),  # N, H, W, C, F
}

_ORDERED = {
    # program: shape -> the sizes of every `?`-sized type, in the order the text writes them
    "matmul_dxd": lambda m, k: (
        [f"{m}x{k}", f"{k}x16", f"{m}x16", f"{m}x{k}", f"{m}x16"]
        + [f"{m}x16"] * 2
        + [f"{m}x{k}", f"{k}x16"]
        + [f"{m}x16"] * 3
    ),
    "concat_rows_dx4": lambda a, b: [f"{a}x4", f"{b}x4", f"{a + b}x4"] * 2 + [f"{a + b}x4"],
    "attention_seq": lambda b, m, k1, n_kv, n: [
        *(f"{b}x{m}x{k1}", f"{b}x{n_kv}x{k1}", f"{b}x{n_kv}x{n}", f"{b}x{m}x{n}"),
        *(f"{b}x{m}x{k1}",) * 2,
        *(f"{b}x{n_kv}x{n}", f"{b}x{m}x{n}"),
        *(f"{b}x{m}x{k1}", f"{b}x{n_kv}x{k1}", f"{b}x{n_kv}x{n}", f"{b}x{m}x{n}"),
        *(f"{b}x{m}x{n}",) * 2,
    ],
    "depthwise_nhwc_channels": lambda h, w, c: _conv_types(
        f"1x{h}x{w}x{c}",
        f"3x3x{c}",
        f"1x{(h - 3) // 2 + 1}x{(w - 3) // 2 + 1}x{c}",
        "XWOXXXOOOXWOOO",
    ),
    "conv_nhwc_channels": lambda n, h, w, c, f: _conv_types(
        f"{n}x{h}x{w}x{c}",
        f"2x2x{c}x{f}",
        f"{n}x{(h - 2) // 2 + 1}x{(w - 2) // 2 + 1}x{f}",
        "XWOXXXWOOOXWOOO",
    ),
}
"""Programs whose `?`s are not all rows-then-columns: their static text spelled out."""


def _conv_types(image: str, filt: str, out: str, order: str) -> list[str]:
    """A convolution's `?`-sized types in text order: X the image, W the filter, O the output."""
    return [{"X": image, "W": filt, "O": out}[kind] for kind in order]


_DYNAMIC_TYPE = re.compile(r"tensor<([0-9?x]*\?[0-9?x]*)x(\w+)>")


def specialise(text: str, shape: tuple[int, ...], name: str | None = None) -> str:
    """The program with its `?` sizes written in: rows first, then a second `?` (columns);
    for a program of `_ORDERED`, each `?`-sized type in turn."""
    ordered = _ORDERED.get(name)
    if ordered is not None:
        sizes = iter(ordered(*shape))
        text = _DYNAMIC_TYPE.sub(lambda m: f"tensor<{next(sizes)}x{m.group(2)}>", text)
        if next(sizes, None) is not None:
            raise ValueError(f"{name}: fewer `?`-sized types than sizes")
    else:
        rows, cols = shape if len(shape) == 2 else (shape[0], None)
        if cols is not None:
            text = text.replace("tensor<?x?x", f"tensor<{rows}x{cols}x")
        text = text.replace("tensor<?x", f"tensor<{rows}x")
    if "?" in "".join(re.findall(r"tensor<[^>]*>", text)):
        raise ValueError(f"{name}: a `?` is left in the static text")
    return re.sub(r"tensor\.empty\([^)]*\)", "tensor.empty()", text)


def inputs(name: str, shape: tuple[int, ...], rng) -> list[np.ndarray]:
    normal = functools.partial(rng.standard_normal, dtype=np.float32)
    if name == "layernorm_dxd":
        return [normal(shape), np.full((shape[0], 1), shape[1], np.float32)]
    if name == "matmul_dxd":
        return [normal(shape), normal((shape[1], 16))]
    if name == "batch_matmul_batch":
        return [normal((shape[0], 4, 8)), normal((shape[0], 8, 5))]
    if name == "concat_rows_dx4":
        return [normal((shape[0], 4)), normal((shape[1], 4))]
    if name == "attention_seq":
        b, m, k1, n_kv, n = shape
        return [normal((b, m, k1)), normal((b, n_kv, k1)), normal((b, n_kv, n))]
    if name == "depthwise_nhwc_channels":
        h, w, c = shape
        return [normal((1, h, w, c)), normal((3, 3, c))]
    if name == "conv_nhwc_channels":
        n, h, w, c, f = shape
        return [normal((n, h, w, c)), normal((2, 2, c, f))]
    args = [rng.standard_normal(shape, dtype=np.float32)]
    if name == "add_dx4":
        args.append(rng.standard_normal(shape, dtype=np.float32))
    if name == "mlp_batch":
        args.append(rng.standard_normal(shape[1], dtype=np.float32))
    if name == "dense_relu_batch":
        args.append(rng.standard_normal((64, 32), dtype=np.float32))
        args.append(rng.standard_normal(32, dtype=np.float32))
    return args


def _results(result) -> tuple:
    return result if isinstance(result, tuple) else (result,)


def median_ms(call, calls: int) -> float:
    for _ in range(max(calls // 10, 3)):
        call()
    samples = []
    for _ in range(calls):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e3


def cpu_and_wall_ms(call, calls: int) -> tuple[float, float]:
    for _ in range(max(calls // 10, 3)):
        call()
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(calls):
        call()
    return (time.process_time() - cpu) / calls * 1e3, (time.perf_counter() - wall) / calls * 1e3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--device", default="local-task")
    parser.add_argument("--rounds", type=int, default=1, help="interleaved rounds (median)")
    parser.add_argument("--programs", nargs="+", choices=sorted(CASES), help="default: all")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    if args.rounds > 1:
        print(f"{'program':24} {'size':>15} {'cpu ratio':>9} {'wall ratio':>10}")
    else:
        print(f"{'program':24} {'size':>15} {'dynamic ms':>11} {'static ms':>10} {'ratio':>6}")
    for name, (function, shapes) in CASES.items():
        if args.programs and name not in args.programs:
            continue
        text = (PROGRAMS / f"{name}.mlir").read_text()
        dynamic = getattr(ireelab.compile(text), function)
        for shape in shapes:
            static = getattr(ireelab.compile(specialise(text, shape, name)), function)
            xs = inputs(name, shape, rng)
            size = "x".join(str(n) for n in shape)
            run_d = functools.partial(dynamic, *xs, device=args.device)
            run_s = functools.partial(static, *xs, device=args.device)
            # the same computation: the static text is the dynamic one with the sizes in
            for got, want in zip(_results(run_d()), _results(run_s()), strict=True):
                np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
            if args.rounds > 1:
                cpu, wall = [], []
                for _ in range(args.rounds):
                    (dc, dw), (sc, sw) = (cpu_and_wall_ms(r, args.calls) for r in (run_d, run_s))
                    cpu.append(dc / sc)
                    wall.append(dw / sw)
                cpu_ratio, wall_ratio = statistics.median(cpu), statistics.median(wall)
                print(f"{name:24} {size:>15} {cpu_ratio:9.2f} {wall_ratio:10.2f}", flush=True)
                continue
            d = median_ms(run_d, args.calls)
            s = median_ms(run_s, args.calls)
            print(f"{name:24} {size:>15} {d:11.3f} {s:10.3f} {d / s:6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
