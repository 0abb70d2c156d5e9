"""`ireelab-compile`: iree-compile's command line over ireelab's pipeline.

Flags are IREE's where the job is the same (`--compile-to`, `--iree-hal-target-backends`,
`--mlir-print-ir-*`, `-o`); a few IREE flags that tune what ireelab does not model are accepted
and ignored so IREE command lines run unchanged. Output is written to a temporary file and
renamed into place, so an error never leaves a half-written or truncated output behind.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import tempfile
import traceback

from ireelab.compiler import pipeline
from ireelab.compiler.gc_budget import fewer_collections
from ireelab.diagnostics import CompileError, SourceLocation, bug_report_note
from ireelab.frontends.input_type import INPUT_TYPES
from ireelab.input_limit import check_file

_IGNORED_IREE_FLAGS = (
    "--mlir-disable-threading",
    "--iree-llvmcpu-target-cpu",
    "--iree-llvmcpu-target-cpu-features",
    "--iree-llvmcpu-target-triple",
    "--iree-opt-level",
    "--mlir-elide-elementsattrs-if-larger",
    "--mlir-print-debuginfo",
)


def _true_or_false(text: str) -> bool:
    if text not in ("true", "false"):
        raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from 'true', 'false')")
    return text == "true"


def _bool_flag(p: argparse.ArgumentParser, flag: str, default: bool, help: str) -> None:
    """An MLIR-style boolean option: `--flag`, `--flag=true` or `--flag=false`."""
    p.add_argument(
        flag,
        nargs="?",
        const=True,
        default=default,
        type=_true_or_false,
        metavar="true|false",
        help=help,
    )


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ireelab-compile",
        description="Compile MLIR (linalg/tensor/arith/math/func) through IREE's stages.",
        allow_abbrev=False,
    )
    p.add_argument("input", help="input .mlir or .onnx file, or - for stdin")
    p.add_argument("-o", dest="output", default="-", help="output file (default: stdout)")
    p.add_argument(
        "--compile-to",
        default="end",
        choices=pipeline.PHASES,
        metavar="PHASE",
        help=f"stop after this phase: {', '.join(pipeline.PHASES)}",
    )
    p.add_argument(
        "--iree-hal-target-backends",
        default="numba-cpu",
        metavar="BACKENDS",
        help="comma-separated target backends: numba-cpu (llvm-cpu is an alias)",
    )
    _bool_flag(
        p,
        "--iree-opt-data-tiling",
        False,
        "data tiling: matmul operands packed for the target, matmuls as linalg.mmt4d",
    )
    _bool_flag(
        p,
        "--iree-hal-indirect-command-buffers",
        True,
        "record reusable command buffers once, with binding-table slots (false: per call)",
    )
    _bool_flag(
        p,
        "--iree-llvmcpu-reassociate-fp-reductions",
        True,
        "let kernels reorder floating-point reductions (false: loop order, exact sums)",
    )
    p.add_argument(
        "--iree-input-type",
        default="auto",
        choices=INPUT_TYPES,
        metavar="TYPE",
        help=f"input dialect: {', '.join(INPUT_TYPES)} (default auto: detected as IREE does); "
        "torch, stablehlo, tosa and onnx go through the real IREE's input conversion "
        "(pip install 'ireelab[frontends]')",
    )
    p.add_argument(
        "--iree-torch-emit-async-entry-points",
        choices=("true", "false"),
        default=None,
        help="passed to IREE's torch input conversion (IREE's default: true, $async entry "
        "points on fences with a sync wrapper)",
    )
    p.add_argument("--mlir-print-ir-after-all", action="store_true")
    p.add_argument("--mlir-print-ir-before-all", action="store_true")
    p.add_argument(
        "--mlir-print-ir-after",
        action="append",
        default=[],
        metavar="PASS",
        help="pass flag (iree-stream-conversion) or class name (ConvertToStreamPass)",
    )
    p.add_argument("--mlir-print-ir-before", action="append", default=[], metavar="PASS")
    p.add_argument("--mlir-print-ir-after-change", action="store_true")
    p.add_argument("--mlir-print-ir-module-scope", action="store_true")
    p.add_argument(
        "--dump-dispatch-graph",
        metavar="FILE",
        help="write the dispatch graph (DOT; SVG, PNG, ... by suffix)",
    )
    p.add_argument(
        "--dump-timepoint-graph",
        metavar="FILE",
        help="write the timepoint graph (DOT; SVG, PNG, ... by suffix)",
    )
    p.add_argument("--debug", action="store_true", help="show Python tracebacks of internal errors")
    for flag in _IGNORED_IREE_FLAGS:
        p.add_argument(flag, nargs="?", const=True, help=argparse.SUPPRESS)
    return p


def _pass_names(values: list[str]) -> frozenset[str]:
    names = set()
    for value in values:
        names.update(v.strip() for v in value.split(",") if v.strip())
    if not names:  # the table imports every pass, those that will not run too (and numpy)
        return frozenset()
    table = pipeline.pass_table()
    unknown = sorted(n for n in names if n not in table)
    if unknown:
        raise CompileError(f"unknown pass '{unknown[0]}' in --mlir-print-ir-after/before")
    return frozenset(names)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser().parse_args(argv)
    try:
        with fewer_collections():  # the imports too: most of what they make stays alive
            return _run(args)
    except CompileError as err:
        if err.internal:
            err.note = bug_report_note(_debug_command(argv))
        print(str(err), file=sys.stderr)
        return 1
    except Exception as err:  # an ireelab bug: one line and how to report it, unless --debug
        if args.debug:
            traceback.print_exc()
        else:
            first = f"{type(err).__name__}: {err}".splitlines()[0]
            print(f"ireelab-compile: internal error: {first}", file=sys.stderr)
            print(f"note: {bug_report_note(_debug_command(argv))}", file=sys.stderr)
        return 1


def _debug_command(argv: list[str]) -> str:
    """The command line that reproduces this run with the traceback shown."""
    rerun = argv if "--debug" in argv else [*argv, "--debug"]
    return shlex.join(["ireelab-compile", *rerun])


def _read_input(path: str):
    """(text, file name, the `ImportedOnnx` for an ONNX model, else None)."""
    if path == "-":
        return sys.stdin.read(), "<stdin>", None
    check_file(path)  # before reading, importing or converting it
    if path.endswith(".onnx"):
        from ireelab.frontends.onnx_import import import_onnx_program

        if not os.path.isfile(path):
            raise CompileError(f"cannot read input file '{path}': No such file")
        imported = import_onnx_program(path)
        return imported.text, path, imported
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as err:
        raise CompileError(f"cannot read input file '{path}': {err.strerror}") from None
    try:
        return data.decode("utf-8"), path, None
    except UnicodeDecodeError as err:
        raise _not_utf8(path, data, err.start) from None


def _not_utf8(path: str, data: bytes, at: int) -> CompileError:
    """Point at the first byte that is not UTF-8, as a located error."""
    line_start = data.rfind(b"\n", 0, at) + 1
    line_end = data.find(b"\n", at)
    text = data[line_start : line_end if line_end >= 0 else len(data)]
    where = SourceLocation(
        path, data.count(b"\n", 0, at) + 1, at - line_start + 1, text.decode("utf-8", "replace")
    )
    return CompileError(f"invalid UTF-8 byte 0x{data[at]:02x}: the input must be UTF-8 text", where)


def _run(args: argparse.Namespace) -> int:
    from ireelab.compiler.driver import CompileOptions, PrintOptions
    from ireelab.frontends.compile_program import compile_program

    printing = PrintOptions(
        after_all=args.mlir_print_ir_after_all,
        before_all=args.mlir_print_ir_before_all,
        after=_pass_names(args.mlir_print_ir_after),
        before=_pass_names(args.mlir_print_ir_before),
        after_change=args.mlir_print_ir_after_change,
        module_scope=args.mlir_print_ir_module_scope,
        stream=sys.stderr,
    )
    backends = tuple(b.strip() for b in args.iree_hal_target_backends.split(",") if b.strip())
    input_flags = ()
    if args.iree_torch_emit_async_entry_points is not None:
        input_flags = (
            f"--iree-torch-emit-async-entry-points={args.iree_torch_emit_async_entry_points}",
        )
    options = CompileOptions(
        compile_to=args.compile_to,
        target_backends=backends,
        printing=printing,
        debug=args.debug,
        input_type=args.iree_input_type,
        input_flags=input_flags,
        data_tiling=args.iree_opt_data_tiling,
        reassociate_fp_reductions=args.iree_llvmcpu_reassociate_fp_reductions,
        indirect_command_buffers=args.iree_hal_indirect_command_buffers,
        keep_ir=bool(args.dump_dispatch_graph or args.dump_timepoint_graph),  # what reads it
    )
    text, filename, imported = _read_input(args.input)
    try:
        result = compile_program(text, filename, options)
    except CompileError as err:
        raise (imported.name_node(err, filename) if imported else err) from None
    if args.dump_dispatch_graph:
        _write_graph(args.dump_dispatch_graph, result.dispatch_graph())
    if args.dump_timepoint_graph:
        _write_graph(args.dump_timepoint_graph, result.timepoint_graph())
    data = result.output_bytes()
    if imported is not None and args.compile_to == "end":  # ONNX names kept in the file
        from ireelab.frontends.saved_signature import with_entry_signature

        data = with_entry_signature(data, text, imported.signature)
    _write_output(args.output, data, binary=args.compile_to == "end")
    return 0


def _write_graph(path: str, graph) -> None:
    from ireelab.viz.render import graph_bytes

    _write_output(path, graph_bytes(graph, os.path.splitext(path)[1]), binary=True)


def _write_output(path: str, data: bytes, binary: bool) -> None:
    if path == "-":
        if binary and sys.stdout.isatty():
            raise CompileError("refusing to write a binary module to a terminal; use -o FILE")
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    if os.path.exists(path) and not os.path.isfile(path):
        with open(path, "wb") as f:  # a device or pipe (/dev/null, /dev/stdout): no rename
            f.write(data)
        return
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".ireelab-", suffix=".tmp")
    except OSError as err:
        raise CompileError(f"cannot write output file '{path}': {err.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the file ordinary permissions
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def cli() -> None:
    """The `ireelab-compile` program: `main()`, then an exit without the interpreter's
    teardown (`ireelab.tools.exit_fast`)."""
    from ireelab.tools.exit_fast import exit_now

    exit_now(main())


if __name__ == "__main__":
    cli()
