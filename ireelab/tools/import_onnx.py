"""`ireelab-import-onnx`: IREE's `iree-import-onnx`, ONNX protobuf -> torch-dialect MLIR.

Same command line as IREE's tool for what it does without externalised parameters
(`INPUT.onnx -o OUT.mlir`, `--opset-version`, `--data-prop` / `--no-data-prop`); it runs IREE's
own importer (`ireelab.frontends.onnx_import`), and its output is what `ireelab-compile`
(or `iree-compile`) takes with `--iree-input-type=onnx` (detected by default). A failure is
one line and exit status 1.
"""

from __future__ import annotations

import argparse
import sys

from ireelab.diagnostics import CompileError


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ireelab-import-onnx",
        description="Import an ONNX model to torch-dialect MLIR with IREE's ONNX importer.",
        allow_abbrev=False,
    )
    p.add_argument("input_file", help="ONNX protobuf input")
    p.add_argument("-o", dest="output_file", default="-", help="output path (or - for stdout)")
    p.add_argument(
        "--opset-version",
        type=int,
        help="upgrade the model to this opset version first (if newer than its own)",
    )
    p.add_argument(
        "--data-prop",
        default=True,
        action=argparse.BooleanOptionalAction,
        help="data propagation in ONNX shape inference (default: on)",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from ireelab.frontends.onnx_import import import_onnx
    from ireelab.tools.compile import _write_output

    try:
        text = import_onnx(args.input_file, args.opset_version, args.data_prop)
        _write_output(args.output_file, (text + "\n").encode(), binary=False)
    except CompileError as err:
        print(str(err), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
