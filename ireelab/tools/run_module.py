"""`ireelab-run-module`: load a module, call one function, print the results, as IREE's
`iree-run-module` does (`runtime/src/iree/tooling/run_module.c`).

    ireelab-run-module --module=m.ilvm --function=matmul --input=2x4xf32=1.5 --input=@b.npy
    EXEC @matmul
    result[0]: hal.buffer_view
    2x2xf32=[22 28][49 64]

`--output=@out.npy` (once per result, in order) writes a result to a .npy file instead of
printing its values. `--trace-file=trace.json` writes a Chrome trace of the call (a complete
event per dispatch per worker, fence arrows; Perfetto opens it). `--print_statistics` (IREE's
flag; `--print-statistics` is accepted too) prints the device and the allocator's memory
statistics for the call to stderr after the results, in IREE's table. Any error is one line
on stderr and exit status 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ireelab.diagnostics import RuntimeInputError
from ireelab.runtime.errors import HALError, ModuleFileError, VMError

USER_ERRORS = (RuntimeInputError, ModuleFileError, HALError, VMError, OSError)


def build_parser(prog: str, description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--module", required=True, help="module file (.ilvm)")
    parser.add_argument("--function", required=True, help="exported function to call")
    parser.add_argument(
        "--input", action="append", default=[], help="2x4xf32=1.5, 2x4xf32=@raw.bin or @a.npy"
    )
    parser.add_argument("--device", default="local-sync", choices=("local-sync", "local-task"))
    return parser


def load(path: str):
    from ireelab.runtime import load_module

    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise RuntimeInputError(f"module file not found: {path}") from None
    return load_module(data)


def read_inputs(specs: Sequence[str], signature=None) -> list:
    """The `--input=` values; an argument the function's declaration (`signature`, a
    `FunctionSignature`) says is a scalar is read as a bare number (`--input=2.5`)."""
    from ireelab.runtime.hal.string_util import parse_input, parse_scalar
    from ireelab.runtime.vm.abi import ScalarSpec

    declared = list(signature.inputs) if signature is not None else []
    values = []
    for index, spec in enumerate(specs):
        arg = declared[index] if index < len(declared) else None
        if isinstance(arg, ScalarSpec):
            values.append(parse_scalar(spec, arg.element))
        else:
            values.append(parse_input(spec))
    return values


def _print_result(index: int, result, element: str | None, written: bool, limit: int) -> None:
    from ireelab.runtime.hal.string_util import format_array, format_scalar

    if element is not None:
        print(f"result[{index}]: {format_scalar(result, element)}")
        return
    print(f"result[{index}]: hal.buffer_view")
    if not written:
        print(format_array(result, limit))


def _write_outputs(targets: Sequence[str], results: Sequence[np.ndarray]) -> list[bool]:
    """Write results named by `--output=@file.npy`; True for each result written."""
    written = [False] * len(results)
    if len(targets) > len(results):
        raise RuntimeInputError(f"{len(targets)} --output given for {len(results)} result(s)")
    for index, target in enumerate(targets):
        if not target.startswith("@") or not target.endswith(".npy"):
            raise RuntimeInputError(f"--output must be @FILE.npy, got `{target}`")
        np.save(target[1:], results[index])
        written[index] = True
    return written


def run(argv: Sequence[str] | None = None) -> int:
    from ireelab.runtime.vm.abi import ScalarSpec

    parser = build_parser("ireelab-run-module", "Run a function of an ireelab module.")
    parser.add_argument("--output", action="append", default=[], help="@FILE.npy per result")
    parser.add_argument("--output_max_element_count", type=int, default=1024)
    parser.add_argument("--trace-file", default=None, help="write a Chrome trace of the call")
    parser.add_argument(
        "--print_statistics",
        "--print-statistics",
        action="store_true",
        help="print the allocator's memory statistics for the call (stderr)",
    )
    args = parser.parse_args(argv)
    module = load(args.module)
    # unknown function: fail before printing EXEC, as IREE
    signature = module.signature(args.function)
    inputs = read_inputs(args.input, signature)
    print(f"EXEC @{args.function}")
    profile = None
    if args.trace_file or args.print_statistics:
        profile = module.profile(args.function, *inputs, device=args.device)
        results = profile.results
    else:
        results = module.invoke(args.function, *inputs, device=args.device)
    written = _write_outputs(args.output, results)
    outputs = list(signature.outputs) if signature is not None else []
    for index, (result, done) in enumerate(zip(results, written, strict=True)):
        spec = outputs[index] if index < len(outputs) else None
        element = spec.element if isinstance(spec, ScalarSpec) else None
        _print_result(index, result, element, done, args.output_max_element_count)
    if profile is not None and args.trace_file:
        profile.save(args.trace_file)
    if profile is not None and args.print_statistics:
        sys.stdout.flush()
        print(f"Device: {args.device}", file=sys.stderr)
        print(profile.statistics_text(), file=sys.stderr)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return run(argv)
    except USER_ERRORS as err:
        sys.stdout.flush()
        print(f"ireelab-run-module: error: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
