"""Does a change leave the compiler's output alone? Module bytes and every pass's IR, two trees.

    python benchmarks/ir_identity.py --before /tmp/before-checkout
    python benchmarks/ir_identity.py --before DIR --programs 'tests/dynamic/programs/*.mlir'

For a speed change that must not change what the compiler makes: each tree compiles every
program (the reference programs, the test suite's MLIR programs, its bad inputs and the two
64-layer MLPs of `compile_scale.py`) with `ireelab-compile --mlir-print-ir-after-all` in a
process of its own (one process per tree, so this takes minutes, not hours), and the two
trees' module files, IR dumps and messages are compared byte for byte. The pass timings are
not in the dumps, so equal trees give equal files. Prints the programs that differ and exits
non-zero if any does. Not a test: the suite does not have two trees.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import io
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
TREE = HERE.parent
REFERENCES = [up / "shared" / "reference" / "programs" for up in TREE.parents]
"""Where the project's reference programs are (`/work/shared` beside a checkout or worktree)."""
PROGRAMS = (
    "tests/e2e/**/*.mlir",
    "tests/dynamic/programs/*.mlir",
    "tests/flow/programs/*.mlir",
    "tests/check/*.mlir",
    "tests/bad_inputs/compile/*.mlir",
)


def programs(patterns: list[str], out: Path) -> list[Path]:
    """The programs to compile; the 64-layer MLPs are written into `out`."""
    found = []
    for pattern in patterns:
        found += sorted(Path(p) for p in glob.glob(str(TREE / pattern), recursive=True))
    if patterns == list(PROGRAMS):
        reference = next((r for r in REFERENCES if r.is_dir()), None)
        found = (sorted(reference.glob("*.mlir")) if reference else []) + found
        sys.path.insert(0, str(HERE))
        from compile_scale import mlp_source

        for kind in ("same", "distinct"):
            path = out / f"mlp64_{kind}.mlir"
            path.write_text(mlp_source(64, kind == "distinct"))
            found.append(path)
    return found


def compile_all(paths: list[Path], out: Path) -> None:
    """Worker: compile each program in this process, its dumps and messages to files."""
    from ireelab.tools.compile import main

    for index, path in enumerate(paths):
        stem = out / f"{index:03d}_{path.stem}"
        log = io.StringIO()
        with contextlib.redirect_stderr(log), contextlib.redirect_stdout(log):
            code = main([str(path), "--mlir-print-ir-after-all", "-o", f"{stem}.module"])
        (Path(f"{stem}.log")).write_text(f"exit {code}\n{log.getvalue()}")


def differing(paths: list[Path], first: Path, second: Path) -> list[str]:
    names = sorted({p.name for p in (*first.iterdir(), *second.iterdir())} - {"done"})
    bad = []
    for name in names:
        a, b = first / name, second / name
        if not (a.exists() and b.exists() and a.read_bytes() == b.read_bytes()):
            bad.append(f"{name}: {paths[int(name[:3])]}")
    return bad


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="the other tree (required)")
    parser.add_argument("--after", type=Path, default=TREE, help="this tree, by default")
    parser.add_argument("--programs", nargs="*", default=list(PROGRAMS), help="globs in the tree")
    parser.add_argument(
        "--keep",
        type=Path,
        help="keep the outputs here; a `before` kept for the same programs is reused",
    )
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        listing, out = args.worker
        compile_all([Path(p) for p in Path(listing).read_text().splitlines()], Path(out))
        return
    if args.before is None:
        parser.error("--before is required")
    with tempfile.TemporaryDirectory(prefix="ir-identity-") as scratch:
        scratch = args.keep or Path(scratch)
        scratch.mkdir(parents=True, exist_ok=True)
        paths = programs(args.programs, scratch)
        listing = scratch / "programs.txt"
        text = "\n".join(map(str, paths))
        reuse = args.keep and listing.exists() and listing.read_text() == text
        listing.write_text(text)
        outs = []
        for label, tree in (("before", args.before), ("after", args.after)):
            out = scratch / label
            outs.append(out)
            if label == "before" and reuse and (out / "done").exists():
                continue
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir()
            env = dict(os.environ, PYTHONPATH=str(tree.resolve()))
            worker = [sys.executable, __file__, "--worker", str(listing), str(out)]
            subprocess.run(worker, env=env, cwd=scratch, check=True)
            (out / "done").write_text("")
        bad = differing(paths, *outs)
    print(f"{len(paths)} programs, {len(paths) - len(bad)} identical")
    for line in bad:
        print("differs:", line)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
