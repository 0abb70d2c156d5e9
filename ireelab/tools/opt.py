"""`ireelab-opt`: run named passes on MLIR text, like `iree-opt --pass-pipeline=...`.

Used by the golden IR tests (lit-style `// RUN: ireelab-opt %s -p PASS | filecheck %s`) and by
anyone prototyping a pass: `-p` takes IREE's flag (`iree-abi-wrap-entry-points`) or the class
name (`WrapEntryPointsPass`), comma-separated, run in order.
"""

from __future__ import annotations

import argparse
import sys

from ireelab.diagnostics import CompileError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ireelab-opt", description=__doc__.splitlines()[0])
    parser.add_argument("input", nargs="?", default="-")
    parser.add_argument("-p", "--passes", default="", help="comma-separated pass flags or names")
    parser.add_argument("--debug", action="store_true")
    args = parser.parse_args(argv)
    try:
        print(run(args.input, args.passes), end="")
    except CompileError as err:
        print(str(err), file=sys.stderr)
        return 1
    return 0


def run(path: str, passes: str) -> str:
    from ireelab.compiler import pipeline
    from ireelab.compiler.context import make_context
    from ireelab.compiler.driver import print_ir
    from ireelab.compiler.source import parse_source, verify

    text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    module = parse_source(text, "<stdin>" if path == "-" else path)
    table = pipeline.pass_table()
    ctx = make_context()
    for name in filter(None, (p.strip() for p in passes.split(","))):
        if name not in table:
            raise CompileError(f"unknown pass '{name}'")
        stage, cls = table[name]
        cls().apply(ctx, module)
        verify(module, stage=stage)
    return print_ir(module) + "\n"


if __name__ == "__main__":
    sys.exit(main())
