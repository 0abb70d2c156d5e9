"""`ireelab-benchmark-module`: time repeated calls of one function, reported the way IREE's
`iree-benchmark-module` (Google Benchmark) does, with the median over repetitions.

    ireelab-benchmark-module --module=m.ilvm --function=matmul --input=2x4xf32=1 --input=4x2xf32=2
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Sequence

from ireelab.tools.run_module import USER_ERRORS, build_parser, load, read_inputs


def _measure(call, min_time: float) -> tuple[float, float, int]:
    """(real seconds per call, cpu seconds per call, iterations) over at least `min_time`."""
    iterations = 1
    while True:
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(iterations):
            call()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        if wall >= min_time or iterations >= 1 << 24:
            return wall / iterations, cpu / iterations, iterations
        iterations = max(iterations * 2, int(iterations * min_time / max(wall, 1e-9) * 1.2))


def _row(name: str, real: float, cpu: float, iterations: int | str) -> str:
    return f"{name:<48} {real * 1e3:10.4f} ms {cpu * 1e3:10.4f} ms {iterations:>12}"


def run(argv: Sequence[str] | None = None) -> int:
    parser = build_parser("ireelab-benchmark-module", "Benchmark a function of a module.")
    parser.add_argument("--benchmark_repetitions", type=int, default=5)
    parser.add_argument("--benchmark_min_time", type=float, default=0.2, help="seconds")
    args = parser.parse_args(argv)
    module = load(args.module)
    inputs = read_inputs(args.input, module.signature(args.function))
    module.invoke(args.function, *inputs, device=args.device)  # warm up: init, kernel compile

    def call() -> None:
        module.invoke(args.function, *inputs, device=args.device)

    name = f"BM_{args.function}/process_time/real_time"
    line = "-" * 86
    print(line)
    print(f"{'Benchmark':<48} {'Time':>13} {'CPU':>13} {'Iterations':>12}")
    print(line)
    samples = []
    for _ in range(max(1, args.benchmark_repetitions)):
        sample = _measure(call, args.benchmark_min_time)
        samples.append(sample)
        print(_row(name, *sample))
    reals, cpus = [s[0] for s in samples], [s[1] for s in samples]
    count = len(samples)
    print(_row(f"{name}_mean", statistics.fmean(reals), statistics.fmean(cpus), count))
    print(_row(f"{name}_median", statistics.median(reals), statistics.median(cpus), count))
    spread = statistics.pstdev
    print(_row(f"{name}_stddev", spread(reals), spread(cpus), count))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return run(argv)
    except USER_ERRORS as err:
        print(f"ireelab-benchmark-module: error: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
