"""ONNX's backend node tests through IREE's importer, then the real IREE and ireelab, side by side.

    python benchmarks/onnx_node_tests.py                       # the deterministic sample (1 in 8)
    python benchmarks/onnx_node_tests.py --every 1             # all 1884 node tests
    python benchmarks/onnx_node_tests.py --names test_gemm_default_no_bias,test_relu
    python benchmarks/onnx_node_tests.py --json out.json --markdown docs/onnx_node_tests.md
    python benchmarks/onnx_node_tests.py --dynamic-batch --every 1   # first dims as `N`

Each test model (`onnx.backend.test.loader.load_model_tests(kind="node")`, built in memory) is
imported by `iree-import-onnx` and taken to IREE's input phase by the real `iree-compile
--compile-to=input --iree-torch-emit-async-entry-points=false`. The same input-phase program
then goes through the real IREE 3.13 (`iree-compile` to the end, run on local-task) and
through ireelab (compile, run on local-sync). Both are held to ONNX's expected outputs with
the test's own tolerances (rtol 1e-3, atol 1e-7 unless the test says otherwise; shapes must
match, values are compared in float64: IREE demotes f64 to f32, so dtypes are not compared,
and an f64 input of an argument IREE demoted is passed to both as f32).

A test whose import or input conversion fails counts for neither compiler. The figure of
interest (issue 15) is how many of the tests the real IREE passes ireelab also passes.
Nothing here is a pass/fail test; `tests/iree/test_onnx_node_sample.py` runs a small sample.

`--dynamic-batch` runs the single-node tests of batch-carrying ops with their first dims made
the `dim_param` `N` (`onnx_dynamic_batch.py`: the rewrite, and ireelab's outcomes bucketed as
passed, refused, wrong, crashed, each beside IREE's); `tests/dynamic/test_onnx_dynamic_batch.py`
runs a sample.
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

TIMEOUT_S = 120
"""A compile or run taking longer than this fails the test."""


@dataclass
class Outcome:
    name: str
    stage: str
    """`imported` (both compilers tried), or where the front end stopped: `import`, `input`,
    `inputs` (a sequence / optional input the runners cannot pass)."""
    iree: str = ""
    """`pass`, or the first line of why not."""
    ireelab: str = ""
    seconds: float = 0.0


def load_tests(every: int, names: set[str] | None, offset: int = 0):
    if names:
        return named_tests(names)
    from onnx.backend.test.loader import load_model_tests

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tests = sorted(load_model_tests(kind="node"), key=lambda t: t.name)
    return tests[offset::every]


def named_tests(names: set[str]) -> list:
    """ONNX's node tests `names`, sorted by name, building only the case modules that define
    them. `load_model_tests(kind="node")` imports every case module of
    `onnx.backend.test.case.node`, and each runs its exports (reference outputs included) as
    it is imported: 7 s of CPU for all 1884 tests, 0.5 s for one op's. A test's module is one
    whose name, underscores dropped, starts its name (`test_reduce_sum_...` in `reducesum`),
    or whose source spells the name (`test_mvn` in `meanvariancenormalization`); every export
    seeds numpy's generator itself, so a case comes out the same whichever modules are built.
    Names still missing then (built from parts in the source) build the lot, as before."""
    import importlib
    import pkgutil

    import onnx.backend.test.case.node as cases
    from onnx.backend.test.loader import load_model_tests

    def squashed(text: str) -> str:
        return text.replace("_", "").lower()

    wanted = {squashed(n.removeprefix("test_")) for n in names}
    folder = Path(cases.__file__).parent
    modules = []
    for info in pkgutil.iter_modules(cases.__path__):
        if info.ispkg:
            continue
        source = (folder / f"{info.name}.py").read_text(encoding="utf-8")
        if any(w.startswith(squashed(info.name)) for w in wanted) or any(
            f'"{n}"' in source for n in names
        ):
            modules.append(f"{cases.__name__}.{info.name}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for module in modules:
            importlib.import_module(module)
        found = {t.name: t for t in cases._NodeTestCases if t.name in names}
        if len(found) < len(names):
            found = {t.name: t for t in load_model_tests(kind="node") if t.name in names}
    return [found[n] for n in sorted(found)]


def _first_line(text: str) -> str:
    for line in str(text).splitlines():
        if line.strip():
            return line.strip()[:200]
    return str(text)[:200] or "failed"


def front_end(model, folder: Path, in_process: bool = False) -> tuple[str | None, str]:
    """IREE's input-phase program for `model`, or None and where it failed. `in_process`: run
    `iree-import-onnx`'s own `main` here instead of in a new Python (which costs 0.35 s of
    CPU to start and import IREE's bindings, more than most imports; the tests, whose models
    are known to import, do that; the benchmark keeps a crash or a hang in its process)."""
    model_path, imported = folder / "model.onnx", folder / "model.mlir"
    model_path.write_bytes(model.SerializeToString())
    arguments = [str(model_path), "-o", str(imported)]
    if in_process:
        problem = _import_here(arguments)
        if problem:
            return None, "import: " + problem
    else:
        command = [sys.executable, "-m", "iree.compiler.tools.import_onnx", *arguments]
        proc = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_S)
        if proc.returncode != 0:
            return None, "import: " + _first_line(proc.stderr)
    from iree.compiler.tools import binaries

    tool = binaries.find_tool("iree-compile")
    proc = subprocess.run(
        [
            tool,
            str(imported),
            "--compile-to=input",
            "--iree-torch-emit-async-entry-points=false",
            "-o",
            str(folder / "input.mlir"),
        ],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    if proc.returncode != 0:
        return None, "input: " + _first_line(proc.stderr)
    return (folder / "input.mlir").read_text(), ""


def _import_here(arguments: list[str]) -> str:
    """`iree-import-onnx arguments` run in this process: "" or the first line of its error."""
    from iree.compiler.tools.import_onnx import __main__ as cli

    try:
        cli.main(cli.parse_arguments(arguments))
    except Exception as err:  # noqa: BLE001 - a failing import is a result, not a crash
        return _first_line(err)
    return ""


def matches(got, expected: list[np.ndarray], rtol: float, atol: float) -> str:
    got = list(got) if isinstance(got, tuple | list) else [got]
    if len(got) != len(expected):
        return f"{len(got)} results, expected {len(expected)}"
    for i, (mine, want) in enumerate(zip(got, expected, strict=True)):
        mine, want = np.asarray(mine), np.asarray(want)
        if mine.shape != want.shape:
            return f"result {i}: shape {mine.shape}, expected {want.shape}"
        if want.dtype.kind in "biu" or want.dtype == np.bool_:
            if not np.array_equal(mine.astype(np.int64), want.astype(np.int64)):
                return f"result {i}: wrong values"
            continue
        try:
            np.testing.assert_allclose(
                mine.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol
            )
        except AssertionError:
            return f"result {i}: wrong values"
        except (TypeError, ValueError) as err:
            return f"result {i}: {_first_line(err)}"
    return "pass"


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def attempt(run) -> str:
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIMEOUT_S)
    try:
        return run()
    except _Timeout:
        return f"timeout ({TIMEOUT_S} s)"
    except Exception as err:  # noqa: BLE001 - a failing test is a result, not a crash
        return f"{type(err).__name__}: {_first_line(err)}"
    finally:
        signal.alarm(0)


def function_name(source: str) -> str:
    import re

    return re.search(r"util\.func public @([\w$.-]+)\(", source).group(1)


def _argument_types(source: str, name: str) -> list[str]:
    """Element types of `@name`'s arguments (`f32`, `i64`, ...), as the input phase left them."""
    import re

    header = re.search(rf"util\.func public @{re.escape(name)}\(([^)]*)\)", source).group(1)
    return re.findall(r"%[\w$.-]+: (?:tensor<(?:[?\d]+x)*)?(\w+)", header)


def demoted_inputs(inputs: list[np.ndarray], source: str, name: str) -> list[np.ndarray]:
    """ONNX's f64 inputs as f32 where IREE's input conversion demoted the argument (its
    DemoteF64ToF32Pass): a caller of the compiled program passes f32 there. Both runners get
    the same arrays."""
    types = _argument_types(source, name)
    return [
        a.astype(np.float32) if a.dtype == np.float64 and t == "f32" else a
        for a, t in zip(inputs, types, strict=False)
    ]


def _array(value):
    """A test's input or output as numpy (some tests keep them as `TensorProto`s or numpy
    scalars); sequences
    and optionals stay as they are (the runners cannot pass them)."""
    from onnx import TensorProto, numpy_helper

    if isinstance(value, np.generic):  # a 0-d input stored as a numpy scalar
        return np.asarray(value)
    return numpy_helper.to_array(value) if isinstance(value, TensorProto) else value


def run_test(test, in_process_import: bool = False, model=None) -> Outcome:
    """`test` (its `model`, or `model` in its place: the same test with other types)."""
    import ireelab
    from ireelab.iree import compile as iree_compile

    start = time.perf_counter()
    inputs, expected = ([_array(a) for a in arrays] for arrays in test.data_sets[0])
    outcome = Outcome(test.name, "imported")
    if any(not isinstance(a, np.ndarray) for a in [*inputs, *expected]):
        outcome.stage = "inputs"
        return outcome
    with tempfile.TemporaryDirectory(prefix="onnx-node-") as folder:
        try:
            source, problem = front_end(model or test.model, Path(folder), in_process_import)
        except subprocess.TimeoutExpired:
            source, problem = None, "import: timeout"
    if source is None:
        outcome.stage = problem.split(":", 1)[0]
        outcome.iree = outcome.ireelab = problem
        outcome.seconds = time.perf_counter() - start
        return outcome
    name = function_name(source)
    inputs = demoted_inputs(inputs, source, name)
    rtol, atol = test.rtol, test.atol
    outcome.iree = attempt(
        lambda: matches(
            iree_compile(source, trace=False).invoke_all(name, *inputs), expected, rtol, atol
        )
    )
    outcome.ireelab = attempt(
        lambda: matches(ireelab.compile(source).invoke(name, *inputs), expected, rtol, atol)
    )
    outcome.seconds = time.perf_counter() - start
    return outcome


def summary(outcomes: list[Outcome]) -> dict:
    tried = [o for o in outcomes if o.stage == "imported"]
    iree_pass = [o for o in tried if o.iree == "pass"]
    both = [o for o in iree_pass if o.ireelab == "pass"]
    return {
        "tests": len(outcomes),
        "front_end_failed": len(outcomes) - len(tried),
        "tried": len(tried),
        "iree_pass": len(iree_pass),
        "ireelab_pass": sum(o.ireelab == "pass" for o in tried),
        "ireelab_pass_of_iree_pass": len(both),
        "share": round(len(both) / len(iree_pass), 3) if iree_pass else None,
        "ireelab_only": [o.name for o in tried if o.ireelab == "pass" and o.iree != "pass"],
    }


def _reason_key(reason: str) -> str:
    """The reason without the exception class and the source location."""
    import re

    reason = re.sub(r"^\w+(Error|Exception): ", "", reason)
    reason = re.sub(r"^\S+:\d+:\d+: ", "", reason)
    return re.sub(r" \(\d+(\.\d+)? s\)$", "", reason).strip()[:110]


def markdown(outcomes: list[Outcome], figures: dict, command: str) -> str:
    misses = [o for o in outcomes if o.iree == "pass" and o.ireelab != "pass"]
    reasons = Counter(_reason_key(o.ireelab) for o in misses)
    lines = [
        "# ONNX node tests: ireelab against the real IREE 3.13",
        "",
        f"Command: `{command}` (see the script's docstring for what it does).",
        "",
        "| tests | front end failed | tried | IREE passes | ireelab passes | ireelab of IREE's |",
        "|---|---|---|---|---|---|",
        f"| {figures['tests']} | {figures['front_end_failed']} | {figures['tried']} "
        f"| {figures['iree_pass']} | {figures['ireelab_pass']} "
        f"| {figures['ireelab_pass_of_iree_pass']} ({figures['share']:.0%}) |",
        "",
        "Where ireelab fails a test the real IREE passes, by reason:",
        "",
        "| count | reason (first line) | tests |",
        "|---|---|---|",
    ]
    for reason, count in reasons.most_common():
        names = [o.name for o in misses if _reason_key(o.ireelab) == reason]
        shown = ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")
        lines.append(f"| {count} | `{reason.replace('|', '/')}` | {shown} |")
    return "\n".join(lines) + "\n"


def write_json(path: Path, outcomes: list[Outcome], figures: dict | None = None) -> None:
    data = {"summary": figures or summary(outcomes), "outcomes": [asdict(o) for o in outcomes]}
    path.write_text(json.dumps(data, indent=1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=8, help="take every n-th test by name")
    parser.add_argument("--offset", type=int, default=0, help="with --every: start at this one")
    parser.add_argument("--names", default="", help="comma-separated test names instead")
    parser.add_argument("--skip", type=int, default=0, help="start after this many tests")
    parser.add_argument("--limit", type=int, default=None, help="run at most this many")
    parser.add_argument("--json", type=Path, help="write every outcome here")
    parser.add_argument(
        "--merge", default="", help="comma-separated JSON files of shards: report them together"
    )
    parser.add_argument("--markdown", type=Path, help="write the summary table here")
    parser.add_argument(
        "--dynamic-batch", action="store_true", help="first dims as a dim_param (a ? batch)"
    )
    args = parser.parse_args(argv)
    if args.merge:
        merged: dict[str, Outcome] = {}
        for path in args.merge.split(","):
            for o in json.loads(Path(path).read_text())["outcomes"]:
                merged.setdefault(o["name"], Outcome(**o))  # shards may overlap
        return report(sorted(merged.values(), key=lambda o: o.name), args, argv)
    names = {n for n in args.names.split(",") if n} or None
    tests = load_tests(args.every, names, args.offset)
    models = {}
    if args.dynamic_batch:
        from onnx_dynamic_batch import dynamic_batch

        models = {t.name: dynamic_batch(t.model) for t in tests}
        tests = [t for t in tests if models[t.name] is not None]
    tests = tests[args.skip :][: args.limit]
    outcomes = []
    for i, test in enumerate(tests):
        outcome = run_test(test, model=models.get(test.name))
        outcomes.append(outcome)
        print(
            f"[{i + 1}/{len(tests)}] {outcome.name}: iree={outcome.iree or outcome.stage} "
            f"ireelab={outcome.ireelab or outcome.stage} ({outcome.seconds:.1f} s)",
            flush=True,
        )
        if args.json:  # after every test, so an interrupted run keeps what it measured
            write_json(args.json, outcomes)
    return report(outcomes, args, argv)


def report(outcomes: list[Outcome], args, argv: list[str] | None) -> int:
    tables = markdown
    figures = summary(outcomes)
    if args.dynamic_batch:
        from onnx_dynamic_batch import markdown as tables
        from onnx_dynamic_batch import tally

        figures = tally(outcomes)
    print(json.dumps(figures, indent=1))
    if args.json:
        write_json(args.json, outcomes, figures)
    if args.markdown:
        command = "python benchmarks/onnx_node_tests.py " + " ".join(argv or sys.argv[1:])
        args.markdown.write_text(tables(outcomes, figures, command.strip()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
