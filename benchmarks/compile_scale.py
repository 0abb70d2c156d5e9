"""Compile time against program size: ireelab (cold and warm) beside `iree-compile`, in one run.

    python benchmarks/compile_scale.py                     # N = 1, 4, 16, 64 and the 48-layer goal
    python benchmarks/compile_scale.py --layers 1,64 --repeat 5 --before /work/main
    python benchmarks/compile_scale.py --markdown docs/benchmarks.md

The programs are N-layer MLPs, each layer `matmul + bias + tanh` on a batch of 8: "same" layers
all 64 wide (their dispatches deduplicate to one executable), "distinct" layers each one
wider than the last (N distinct dispatches, as a real model has). Every figure is the median of
`--repeat` fresh processes, the contenders interleaved turn by turn so a change in the
machine's load weighs on all of them alike. Each figure is wall seconds and CPU seconds (of
the process and the processes it waited for: kernel workers, IREE's threads); on a machine
shared with other work, CPU time is the comparable one, wall time is what an idle machine's
user waits for (kernel workers make it shorter than CPU time there):

- `iree-compile`: IREE 3.13 on the same file (`llvm-cpu`, host CPU), to a `.vmfb`;
- `ireelab-compile`: the command-line compile to a module file (no kernel is compiled then);
- cold: a fresh process with empty kernel and numba caches, from start to the first result
  (compile, load, numba compiling every kernel, the call);
- warm: the same with the caches that run left behind.

The ireelab processes keep their modules' compiled bytecode in a scratch folder
(`PYTHONPYCACHEPREFIX`), written by an untimed compile first, as an installed package has its
`.pyc` files; an environment with `PYTHONDONTWRITEBYTECODE=1` would otherwise make every
process compile ireelab's sources again (0.3-0.4 s CPU here). `--no-bytecode-cache` times the
environment as it is.

With `--before DIR` (a checkout of another version, e.g. the main branch) the ireelab
contenders also run on that tree, for before / after in one run. The first call's result is
checked against numpy (1e-4) every time. Nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TREE = HERE.parent

BATCH = 8
WIDTH = 64


def mlp_source(layers: int, distinct: bool) -> str:
    """An MLP of `layers` layers (matmul + bias + tanh), weights as arguments."""
    widths = [WIDTH + (i if distinct else 0) for i in range(layers + 1)]
    args = [f"%x: tensor<{BATCH}x{widths[0]}xf32>"]
    lines = ["  %zero = arith.constant 0.0 : f32"]
    previous = "%x"
    for i in range(layers):
        k, n = widths[i], widths[i + 1]
        t = f"tensor<{BATCH}x{n}xf32>"
        args += [f"%w{i}: tensor<{k}x{n}xf32>", f"%b{i}: tensor<{n}xf32>"]
        lines += [
            f"  %e{i} = tensor.empty() : {t}",
            f"  %f{i} = linalg.fill ins(%zero : f32) outs(%e{i} : {t}) -> {t}",
            f"  %m{i} = linalg.matmul ins({previous}, %w{i} : tensor<{BATCH}x{k}xf32>, "
            f"tensor<{k}x{n}xf32>) outs(%f{i} : {t}) -> {t}",
            f"  %g{i} = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, "
            "affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], "
            f'iterator_types = ["parallel", "parallel"]}} ins(%m{i}, %b{i} : {t}, '
            f"tensor<{n}xf32>) outs(%e{i} : {t}) {{",
            "  ^bb0(%in: f32, %bias: f32, %out: f32):",
            "    %s = arith.addf %in, %bias : f32",
            "    %h = math.tanh %s : f32",
            "    linalg.yield %h : f32",
            f"  }} -> {t}",
        ]
        previous = f"%g{i}"
    result = f"tensor<{BATCH}x{widths[-1]}xf32>"
    header = f"func.func @mlp({', '.join(args)}) -> {result} {{"
    return "\n".join([header, *lines, f"  return {previous} : {result}", "}"]) + "\n"


FIRST_RESULT = f"""
import sys, time
start = time.perf_counter()
import numpy as np
import ireelab
source = open(sys.argv[1]).read()
layers, distinct = int(sys.argv[2]), sys.argv[3] == "distinct"
widths = [{WIDTH} + (i if distinct else 0) for i in range(layers + 1)]
rng = np.random.default_rng(0)
x = rng.standard_normal(({BATCH}, widths[0])).astype(np.float32)
args, expected = [x], x
for k, n in zip(widths, widths[1:]):
    w = (rng.standard_normal((k, n)) / np.sqrt(k)).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32) * np.float32(0.1)
    args += [w, b]
    expected = np.tanh(expected @ w + b)
module = ireelab.compile(source)
result = module.mlp(*args)
seconds = time.perf_counter() - start
error = float(np.abs(result - expected).max())
assert error < 1e-4, f"first result differs from numpy by {{error}}"
print(seconds)
"""


def timed(command: list[str], env: dict | None = None, cwd: Path | None = None) -> tuple:
    """(wall seconds, CPU seconds of the process and the children it waited for) of
    `command` run to completion (it must succeed). CPU time is what this shared machine's
    load distorts least; wall time is what a user of an idle machine waits."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[:4])} ... failed:\n{done.stderr[-3000:]}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return seconds, cpu


BYTECODE: Path | None = None
"""Where the ireelab contenders keep their modules' compiled bytecode (`--bytecode-cache`);
None: as the environment says."""


def tree_env(tree: Path, caches: Path | None = None) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    if BYTECODE is not None:  # what an installed package has: its .pyc files
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(BYTECODE)
    if caches is not None:
        env.update(IREELAB_CACHE_DIR=str(caches / "kernels"), NUMBA_CACHE_DIR=str(caches / "nb"))
    return env


def iree_compile() -> str | None:
    from ireelab.iree.availability import iree_compile_path

    return iree_compile_path()


def measure(
    program: Path, layers: int, kind: str, trees: dict[str, Path], repeat: int, cold: bool
) -> dict:
    """Median (wall, CPU) seconds of every contender on one program, interleaved over
    `repeat` turns; every process runs in a scratch folder (so `python -m` and `-c` import
    the tree named by PYTHONPATH, not one in the current folder)."""
    samples: dict[str, list[tuple]] = {}
    iree = iree_compile()
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        for turn in range(repeat):
            if iree:
                command = [iree, str(program), "--iree-hal-target-backends=llvm-cpu",
                           "--iree-llvmcpu-target-cpu=host", "-o", str(scratch / "m.vmfb")]  # fmt: skip
                samples.setdefault("iree-compile", []).append(timed(command, cwd=scratch))
            for label, tree in trees.items():
                compile_cli = [sys.executable, "-m", "ireelab.tools.compile", str(program)]
                command = [*compile_cli, "-o", str(scratch / "m.ilvm")]
                samples.setdefault(f"{label} compile", []).append(
                    timed(command, tree_env(tree), scratch)
                )
                if not cold:
                    continue
                caches = scratch / f"{label}-{turn}"
                first = [sys.executable, "-c", FIRST_RESULT, str(program), str(layers), kind]
                for what in ("cold", "warm"):  # the cold run fills the caches the warm one uses
                    samples.setdefault(f"{label} {what}", []).append(
                        timed(first, tree_env(tree, caches), scratch)
                    )
    return {
        name: (statistics.median(v[0] for v in values), statistics.median(v[1] for v in values))
        for name, values in samples.items()
    }


def table(rows: list[tuple[str, int, dict]], labels: list[str]) -> str:
    """One row per program: wall / CPU seconds of each contender, then the last tree's
    ratios to `iree-compile` (wall and CPU)."""
    columns = ["iree-compile"]
    for label in labels:
        columns += [f"{label} compile", f"{label} cold", f"{label} warm"]
    head = "| layers | kind | " + " | ".join(f"{c} s (wall / cpu)" for c in columns)
    head += " | compile / IREE | cold / IREE |"
    lines = [head, "|" + "---|" * (len(columns) + 4)]
    last = labels[-1]
    for kind, layers, figures in rows:
        cells = [
            f"{figures[c][0]:.2f} / {figures[c][1]:.2f}" if c in figures else "-" for c in columns
        ]
        iree = figures.get("iree-compile")
        ratios = []
        for what in ("compile", "cold"):
            mine = figures.get(f"{last} {what}")
            ratios.append(
                f"{mine[0] / iree[0]:.2f} / {mine[1] / iree[1]:.2f}" if iree and mine else "-"
            )
        lines.append(f"| {layers} | {kind} | " + " | ".join(cells + ratios) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", default="1,4,16,64", help="comma-separated N")
    parser.add_argument("--kinds", default="same,distinct")
    parser.add_argument("--goal", type=int, default=48, help="also this many distinct layers")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--cold-layers",
        type=int,
        default=64,
        help="time cold / warm first results only up to this many layers (and the goal)",
    )
    parser.add_argument("--before", type=Path, help="another checkout to time beside this one")
    parser.add_argument(
        "--no-bytecode-cache",
        action="store_true",
        help="leave PYTHONDONTWRITEBYTECODE as the environment has it (by default the ireelab "
        "processes cache their modules' bytecode in a scratch folder, as an installed package "
        "has its .pyc files)",
    )
    parser.add_argument("--markdown", type=Path, help="append the table to this file")
    parser.add_argument("--json", type=Path, help="write the figures as JSON")
    args = parser.parse_args()
    trees = {"ireelab": TREE}
    if args.before:
        trees = {"before": args.before.resolve(), "ireelab": TREE}
    programs = [(k, int(n)) for k in args.kinds.split(",") for n in args.layers.split(",")]
    if args.goal and ("distinct", args.goal) not in programs:
        programs.append(("distinct", args.goal))
    rows = []
    global BYTECODE
    with tempfile.TemporaryDirectory() as folder:
        if not args.no_bytecode_cache:
            BYTECODE = Path(folder) / "pycache"
        for kind, layers in programs:
            path = Path(folder) / f"mlp{layers}_{kind}.mlir"
            path.write_text(mlp_source(layers, kind == "distinct"))
            if BYTECODE is not None:  # an untimed compile writes each tree's bytecode
                for tree in trees.values():
                    warm = [sys.executable, "-m", "ireelab.tools.compile", str(path), "-o"]
                    timed([*warm, str(Path(folder) / "warm.ilvm")], tree_env(tree), Path(folder))
            cold = layers <= args.cold_layers or (kind, layers) == ("distinct", args.goal)
            figures = measure(path, layers, kind, trees, args.repeat, cold)
            rows.append((kind, layers, figures))
            rounded = {k: [round(x, 2) for x in v] for k, v in figures.items()}
            print(kind, layers, json.dumps(rounded), flush=True)
    text = table(rows, list(trees))
    print(text)
    if args.json:
        args.json.write_text(json.dumps([{"kind": k, "layers": n, **f} for k, n, f in rows]))
    if args.markdown:
        with open(args.markdown, "a", encoding="utf-8") as stream:
            stream.write("\n" + text + "\n")


if __name__ == "__main__":
    main()
