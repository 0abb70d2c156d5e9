"""local-task's two ways of running a submission, A/B in one process: native plans
(`runtime/hal/native_tasks.py`) against Python tasks, toggled every turn so both see the same
machine.

    python benchmarks/task_paths.py                       # MLP layer, softmax, attention, batch matmul
    python benchmarks/task_paths.py --programs j_attention --turns 20
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import reference_dir  # noqa: E402

import ireelab  # noqa: E402
from ireelab.runtime.hal.drivers import get_device  # noqa: E402

DEFAULT = "b_mlp_layer,e_softmax,j_attention,k_batch_matmul"


def compare(path: Path, entry: dict, turns: int, calls: int) -> dict:
    rng = np.random.default_rng(0)
    args = [rng.standard_normal(s, dtype=np.float32) for s in entry["input_shapes"]]
    fn = getattr(ireelab.compile(path.read_text(), device="local-task"), entry["function"])
    device = get_device("local-task")
    samples: dict[bool, list[float]] = {True: [], False: []}
    try:
        for _ in range(turns):
            for native in (True, False):
                device.native = native
                fn(*args)  # the first call of a turn warms the path: not timed
                for _ in range(calls):
                    start = time.perf_counter()
                    fn(*args)
                    samples[native].append(time.perf_counter() - start)
    finally:
        device.native = True
    row = {"program": path.stem}
    for native, times in samples.items():
        times.sort()
        key = "native" if native else "python"
        row[key] = statistics.median(times) * 1e3
        row[key + "_p90"] = times[9 * len(times) // 10] * 1e3
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", default=DEFAULT)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--calls", type=int, default=60, help="timed calls per turn")
    args = parser.parse_args(argv)
    ref = reference_dir()
    info = json.loads((ref / "iree-3.13.json").read_text())["programs"]
    print("| program | native ms | p90 | Python tasks ms | p90 | native / Python |")
    print("|---|---|---|---|---|---|")
    for name in (p for p in args.programs.split(",") if p):
        r = compare(ref / "programs" / f"{name}.mlir", info[name], args.turns, args.calls)
        print(
            f"| {name} | {r['native']:.3f} | {r['native_p90']:.3f} | {r['python']:.3f} "
            f"| {r['python_p90']:.3f} | {r['native'] / r['python']:.2f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
