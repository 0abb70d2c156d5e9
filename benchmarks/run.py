"""Speed and memory of ireelab against numpy and the real IREE, measured side by side.

    python benchmarks/run.py                      # every reference program
    python benchmarks/run.py --programs a0_matmul_tiny,b_mlp_layer --repeat 50
    python benchmarks/run.py --markdown docs/benchmarks.md
    python benchmarks/run.py --best-flags --no-cold   # + data tiling, IREE's best CPU flags

For each program in the reference folder: median ms per call of ireelab (local-task, or
`--device local-sync`, from Python), numpy eager (the program written in numpy by hand where
`numpy_programs.py` has it, else ireelab's op-by-op numpy evaluator), and the real IREE
through its Python API on the same device (when `ireelab[iree]` is installed), timed in
interleaved turns; ratios; GFLOP/s of contractions; peak memory of one ireelab call (device
bytes at the HAL allocator's peak: results and transients); cold compile (the median of three
fresh processes, each with an empty kernel cache) and warm recompile (same program again,
kernels cached). With `--best-flags`, the GEMM- and conv-heavy programs also run with data
tiling: ireelab with `--iree-opt-data-tiling`, IREE with it and with it plus
`--iree-llvmcpu-enable-ukernels=all` (a second table, against the faster IREE). Nothing here is a
pass/fail test; absolute numbers drift between machines, ratios measured in one run do not.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from numpy_programs import NUMPY_PROGRAMS  # noqa: E402

import ireelab  # noqa: E402
from ireelab.eager import run_function  # noqa: E402


def reference_dir() -> Path:
    for candidate in (HERE.parent.parent / "shared" / "reference", Path("/work/shared/reference")):
        if candidate.exists():
            return candidate
    raise SystemExit("reference programs not found (../shared/reference)")


ROUNDS = 5
"""Each contender is timed in this many turns, interleaved with the others."""
SETTLE_S = 0.2
"""Pause before each turn: the previous contender's idle threads stop spinning by then (numpy's
OpenBLAS threads poll for about 0.1 s after a call, IREE's and ireelab's workers for less), so
no contender is timed against another one's spinning threads."""


def side_by_side_ms(contenders: dict, repeat: int, min_seconds: float = 1.0) -> dict:
    """Median ms per call of each contender, measured in `ROUNDS` interleaved turns (each turn
    at least `repeat / ROUNDS` calls and `min_seconds / ROUNDS` seconds), so a change in the
    machine's load during the run weighs on all of them alike (this VM's speed drifts by tens
    of percent from one second to the next), each after a pause (`SETTLE_S`)."""
    samples: dict = {name: [] for name in contenders}
    for fn in contenders.values():
        fn()  # warm up
    for _ in range(ROUNDS):
        for name, fn in contenders.items():
            time.sleep(SETTLE_S)
            fn()  # the first call after the pause wakes the contender's threads: not timed
            times = samples[name]
            wanted = len(times) + max(1, repeat // ROUNDS)
            deadline = time.perf_counter() + min_seconds / ROUNDS
            while len(times) < wanted or time.perf_counter() < deadline:
                start = time.perf_counter()
                fn()
                times.append(time.perf_counter() - start)
                if len(times) >= wanted * 10:
                    break
    return {name: statistics.median(times) * 1e3 for name, times in samples.items()}


def contraction_flops(source: str) -> int:
    """2 * iterations of every contraction (matmul-like or convolution) in the program."""
    from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation

    from ireelab.compiler.source import parse_source

    flops = 0
    for op in parse_source(source, "<bench>").walk():
        if not isinstance(op, LinalgStructuredOperation):
            continue
        iterators = [str(t.data) for t in op.get_iterator_types().data]
        names = {o.name for o in op.body.block.ops}
        if "reduction" in iterators and names & {"arith.mulf", "arith.muli"}:
            flops += 2 * int(np.prod(op.get_static_loop_ranges()))
    return flops


IREE_BEST_FLAGS = {
    "iree_dt_ms": ["--iree-opt-data-tiling"],
    "iree_dt_uk_ms": ["--iree-opt-data-tiling", "--iree-llvmcpu-enable-ukernels=all"],
}
"""IREE's best CPU flags, measured both ways (issue 19 takes the faster per program)."""
GEMM_CONV_HEAVY = (
    "a1_matmul_1024",
    "b_mlp_layer",
    "c_two_matmuls_add",
    "d_mlp3",
    "j_attention",
    "k_batch_matmul",
    "f_conv_bias_relu",
)
"""The programs issue 19 compares against IREE's best flags (`--best-flags`)."""


def iree_runner(source: str, function: str, device: str = "local-task", flags=()):
    try:
        from iree import compiler, runtime
    except ImportError:
        return None
    vmfb = compiler.compile_str(
        source,
        target_backends=["llvm-cpu"],
        extra_args=["--iree-llvmcpu-target-cpu=host", *flags],
    )
    config = runtime.Config(device)
    ctx = runtime.SystemContext(config=config)
    ctx.add_vm_module(runtime.VmModule.copy_buffer(ctx.instance, vmfb))
    return getattr(ctx.modules.module, function)


COLD_RUNS = 3
"""Fresh processes per cold-compile figure (the median is reported: one process on this VM
sometimes takes a third longer than the next)."""


def cold_compile_seconds(path: Path, function: str, shapes: list) -> float:
    """Compile, load and make the first call (numba compiles every kernel then) in a fresh
    process with an empty kernel cache: what a new user waits for before the first result.
    The median of `COLD_RUNS` such processes, each with its own empty cache."""
    code = (
        "import time, numpy as np, ireelab; t = time.perf_counter(); "
        f"m = ireelab.compile(open({str(path)!r}).read()); "
        f"m.invoke({function!r}, *[np.ones(s, np.float32) for s in {shapes!r}]); "
        "print(time.perf_counter() - t)"
    )
    seconds = []
    for _ in range(COLD_RUNS):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, IREELAB_CACHE_DIR=cache)
            out = subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            )
            seconds.append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(seconds)


def best_flag_contenders(source: str, function: str, args: list, device: str) -> dict:
    """ireelab with `--iree-opt-data-tiling`, and IREE with each of `IREE_BEST_FLAGS`."""
    tiled = getattr(ireelab.compile(source, device=device, data_tiling=True), function)
    plain = getattr(ireelab.compile(source, device=device), function)
    ours, theirs = np.asarray(tiled(*args)), np.asarray(plain(*args))
    # rounding differs (other summation order): bound the error by the result's scale
    if np.abs(ours - theirs).max() > 1e-5 * max(1.0, float(np.abs(theirs).max())):
        raise SystemExit("ireelab with data tiling: a result differs from the default's")
    contenders = {"ireelab_dt_ms": lambda: tiled(*args)}
    for name, flags in IREE_BEST_FLAGS.items():
        fn = iree_runner(source, function, device, flags)
        if fn is not None:
            contenders[name] = lambda fn=fn: fn(*args)
    return contenders


def bench_program(
    path: Path,
    entry: dict,
    repeat: int,
    cold: bool,
    best_flags: bool = False,
    device: str = "local-task",
) -> dict:
    source = path.read_text()
    name = path.stem
    rng = np.random.default_rng(0)
    args = [rng.standard_normal(s, dtype=np.float32) for s in entry["input_shapes"]]
    function = entry["function"]
    row: dict = {"program": name}

    start = time.perf_counter()
    mod = ireelab.compile(source, device=device)
    fn = getattr(mod, function)
    fn(*args)  # first call compiles / loads kernels
    row["first_compile_s"] = time.perf_counter() - start
    start = time.perf_counter()
    again = ireelab.compile(source, device=device)
    getattr(again, function)(*args)
    row["warm_compile_s"] = time.perf_counter() - start
    if cold:
        row["cold_compile_s"] = cold_compile_seconds(path, function, entry["input_shapes"])

    contenders = {"ireelab_ms": lambda: fn(*args)}
    by_hand = NUMPY_PROGRAMS.get(name)
    if by_hand is not None:
        contenders["numpy_ms"] = lambda: by_hand(*args)
        row["numpy_kind"] = "by hand"
    else:
        from ireelab.compiler.source import parse_source

        module = parse_source(source, "<bench>")
        contenders["numpy_ms"] = lambda: run_function(module, function, *args)
        row["numpy_kind"] = "eager evaluator"
    iree_fn = iree_runner(source, function, device)
    if iree_fn is not None:
        contenders["iree_ms"] = lambda: iree_fn(*args)
    if best_flags and name in GEMM_CONV_HEAVY:
        contenders.update(best_flag_contenders(source, function, args, device))
    row.update(side_by_side_ms(contenders, repeat))
    iree_best = [row[k] for k in IREE_BEST_FLAGS if k in row]
    if iree_best:
        row["iree_best_ms"] = min(iree_best)
    # The HAL allocator's own count (tracemalloc cannot see buffers the pool reuses).
    row["peak_mb"] = mod.profile(*args).peak_bytes / 2**20

    flops = contraction_flops(source)
    if flops:
        row["gflops"] = flops / (row["ireelab_ms"] * 1e-3) / 1e9
        if by_hand is not None:
            row["numpy_gflops"] = flops / (row["numpy_ms"] * 1e-3) / 1e9
    return row


def table(rows: list[dict]) -> str:
    head = ("program", "ireelab ms", "numpy ms", "IREE ms", "/numpy", "/IREE", "GFLOP/s",
            "peak MB", "cold s", "warm s")  # fmt: skip
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        iree = r.get("iree_ms")
        cells = [
            r["program"], f"{r['ireelab_ms']:.4g}", f"{r['numpy_ms']:.4g}",
            f"{iree:.4g}" if iree else "-", f"{r['ireelab_ms'] / r['numpy_ms']:.2f}",
            f"{r['ireelab_ms'] / iree:.2f}" if iree else "-",
            f"{r['gflops']:.1f}" if "gflops" in r else "-", f"{r['peak_mb']:.1f}",
            f"{r['cold_compile_s']:.2f}" if "cold_compile_s" in r else "-",
            f"{r['warm_compile_s']:.2f}",
        ]  # fmt: skip
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines += summary(rows)
    best = [r for r in rows if "iree_best_ms" in r]
    if best:
        lines += ["", best_flags_table(best)]
    return "\n".join(lines)


def best_flags_table(rows: list[dict]) -> str:
    """ireelab (default and `--iree-opt-data-tiling`) against IREE's best flags."""
    head = ("program", "ireelab ms", "ireelab DT ms", "IREE DT ms", "IREE DT+uk ms",
            "IREE best ms", "/IREE best", "DT /IREE best", "better of two /IREE best")  # fmt: skip
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    ratios: dict[str, list[float]] = {"ireelab": [], "dt": [], "either": []}
    for r in rows:
        best = r["iree_best_ms"]
        either = min(r["ireelab_ms"], r["ireelab_dt_ms"])
        for key, ms in (
            ("ireelab", r["ireelab_ms"]),
            ("dt", r["ireelab_dt_ms"]),
            ("either", either),
        ):
            ratios[key].append(ms / best)
        cells = [
            r["program"], f"{r['ireelab_ms']:.4g}", f"{r['ireelab_dt_ms']:.4g}",
            f"{r.get('iree_dt_ms', float('nan')):.4g}", f"{r.get('iree_dt_uk_ms', float('nan')):.4g}",
            f"{best:.4g}", f"{ratios['ireelab'][-1]:.2f}", f"{ratios['dt'][-1]:.2f}",
            f"{ratios['either'][-1]:.2f}",
        ]  # fmt: skip
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    for key, label in (("ireelab", "ireelab default"), ("dt", "ireelab data tiling"),
                       ("either", "ireelab, the better of the two")):  # fmt: skip
        values = ratios[key]
        geo = float(np.exp(np.mean(np.log(values))))
        worst = max(range(len(values)), key=values.__getitem__)
        lines.append(
            f"- {label} / IREE best flags: geometric mean {geo:.2f} "
            f"(worst {values[worst]:.2f}, {rows[worst]['program']})"
        )
    return "\n".join(lines)


FUSION_HEAVY = (
    "b_mlp_layer",
    "e_softmax",
    "i_elementwise_chain",
    "h_transpose_add",
    "j_attention",
    "f_conv_bias_relu",
)
"""The programs the targets want faster than numpy eager (fusion pays off there)."""


def summary(rows: list[dict]) -> list[str]:
    """The targets, measured: geomean and worst vs IREE, fusion-heavy vs numpy, matmul BLAS."""
    lines = []
    iree = {r["program"]: r["ireelab_ms"] / r["iree_ms"] for r in rows if r.get("iree_ms")}
    if iree:
        geo = float(np.exp(np.mean(np.log(list(iree.values())))))
        worst = max(iree, key=iree.get)
        lines.append(
            f"- geometric mean ireelab / IREE: {geo:.2f} (worst {iree[worst]:.2f}, {worst})"
        )
    fusion = [r for r in rows if r["program"] in FUSION_HEAVY]
    if fusion:
        slower = [r["program"] for r in fusion if r["ireelab_ms"] > r["numpy_ms"]]
        lines.append(
            f"- fusion-heavy programs slower than numpy eager: {', '.join(slower) or 'none'}"
        )
    for r in rows:
        if r.get("numpy_gflops") and r["program"] == "a1_matmul_1024":
            share = r["gflops"] / r["numpy_gflops"]
            lines.append(
                f"- 1024^3 matmul: {r['gflops']:.0f} GFLOP/s, {share:.0%} of numpy's BLAS "
                f"({r['numpy_gflops']:.0f} GFLOP/s)"
            )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", default="", help="comma-separated program names")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--no-cold", action="store_true", help="skip the cold-compile subprocess")
    parser.add_argument("--markdown", help="also write the table to this file")
    parser.add_argument("--json", help="also write the raw rows to this file")
    parser.add_argument(
        "--device",
        default="local-task",
        choices=("local-task", "local-sync"),
        help="ireelab's and IREE's device (local-sync: one thread, steadier on a loaded machine)",
    )
    parser.add_argument(
        "--best-flags",
        action="store_true",
        help="GEMM/conv programs also with data tiling: ireelab's, and IREE's with and without "
        "--iree-llvmcpu-enable-ukernels=all (issue 19)",
    )
    args = parser.parse_args(argv)
    ref = reference_dir()
    info = json.loads((ref / "iree-3.13.json").read_text())["programs"]
    wanted = [p for p in args.programs.split(",") if p] or sorted(info)
    rows = []
    for name in wanted:
        print(f"... {name}", file=sys.stderr, flush=True)
        rows.append(
            bench_program(
                ref / "programs" / f"{name}.mlir",
                info[name],
                args.repeat,
                not args.no_cold,
                args.best_flags,
                args.device,
            )
        )
    text = table(rows)
    print(text)
    if args.markdown:
        command = " ".join(["python", "benchmarks/run.py", *(argv or sys.argv[1:])])
        Path(args.markdown).write_text(f"Command: `{command}`\n\n{text}\n")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
