"""What a shape-generic kernel costs at run time: each program's module with its specialised
kernels beside the same module running the generic ones (`runtime/hal/generic_kernels.py`),
side by side in one process.

    python benchmarks/generic_kernels.py                      # every reference program
    python benchmarks/generic_kernels.py --programs b_mlp_layer,e_softmax --device local-sync

Both contenders are the same module file loaded twice: one with `IREELAB_GENERIC_KERNELS=0`
(the specialised kernels, what runs once they are compiled), one with `=always` (the generic
kernels a first run uses while those compile). Median ms per call in interleaved turns
(`run.side_by_side_ms`), the ratio generic / specialised, and their largest difference in
the results (they compute the same arithmetic; fast-math reassociation may round apart).
Nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import reference_dir, side_by_side_ms  # noqa: E402

import ireelab  # noqa: E402
from ireelab.runtime.hal import executable  # noqa: E402
from ireelab.runtime.loaded_module import load_module  # noqa: E402


def loaded(module_bytes: bytes, mode: str):
    """A fresh load of the module whose executables run in generic-kernel `mode`."""
    os.environ["IREELAB_GENERIC_KERNELS"] = mode
    executable._CACHE.clear()  # the executables are made again, under this mode
    return load_module(module_bytes)


def bench(path: Path, entry: dict, repeat: int, device: str) -> dict:
    module_bytes = ireelab.compile(path.read_text()).module_bytes
    rng = np.random.default_rng(0)
    args = [rng.standard_normal(s, dtype=np.float32) for s in entry["input_shapes"]]
    function = entry["function"]
    calls, results = {}, {}
    for label, mode in (("specialised", "0"), ("generic", "always")):
        module = loaded(module_bytes, mode)
        results[label] = module.invoke(function, *args, device=device)  # compiles its kernels
        calls[label] = lambda m=module: m.invoke(function, *args, device=device)
    ms = side_by_side_ms(calls, repeat)
    difference = max(
        float(np.abs(a.astype(np.float64) - b).max()) if a.size else 0.0
        for a, b in zip(results["specialised"], results["generic"], strict=True)
    )
    return {"program": path.stem, **ms, "max_abs_diff": difference}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", default="", help="comma-separated program names")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--device", default="local-task")
    args = parser.parse_args(argv)
    ref = reference_dir()
    info = json.loads((ref / "iree-3.13.json").read_text())["programs"]
    rows = []
    for name in [p for p in args.programs.split(",") if p] or sorted(info):
        print(f"... {name}", file=sys.stderr, flush=True)
        rows.append(bench(ref / "programs" / f"{name}.mlir", info[name], args.repeat, args.device))
    lines = ["| program | specialised ms | generic ms | generic / specialised | max abs diff |",
             "|---|---|---|---|---|"]  # fmt: skip
    for r in rows:
        ratio = r["generic"] / r["specialised"]
        lines.append(f"| {r['program']} | {r['specialised']:.4g} | {r['generic']:.4g} | "
                     f"{ratio:.2f} | {r['max_abs_diff']:.2g} |")  # fmt: skip
    ratios = [r["generic"] / r["specialised"] for r in rows]
    geo = float(np.exp(np.mean(np.log(ratios))))
    lines.append(f"\ngeometric mean generic / specialised: {geo:.2f} ({args.device})")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
