"""One compile, start to finish: source text -> (module IR, trace, output bytes).

The command-line tool and `ireelab.compile` both call `compile_text`; what they do with the
result (write a file, bind a notebook name, run it) is theirs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp

from ireelab.compiler.driver import CompileOptions, print_ir, run_pipeline
from ireelab.compiler.gc_budget import fewer_collections
from ireelab.compiler.source import parse_source
from ireelab.compiler.trace import Trace


@dataclass
class CompileResult:
    source: str
    filename: str
    phase: str
    module: ModuleOp
    trace: Trace

    def ir(self) -> str:
        return print_ir(self.module)

    def module_bytes(self) -> bytes:
        """The binary module file (`--compile-to=end` only)."""
        from ireelab.compiler.vm.module_file import write_module

        if self.phase != "end":
            raise ValueError(f"a module file needs --compile-to=end, not '{self.phase}'")
        return write_module(self.module, None)

    def output_bytes(self) -> bytes:
        return self.module_bytes() if self.phase == "end" else self.ir().encode()

    def dispatch_graph(self):
        from ireelab.viz.dispatch_graph import dispatch_graph

        return dispatch_graph(self.trace)

    def timepoint_graph(self):
        from ireelab.viz.timepoint_graph import timepoint_graph

        return timepoint_graph(self.trace)


def compile_text(
    text: str,
    filename: str = "<input>",
    options: CompileOptions | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    after_pass: Callable[[str, ModuleOp], None] | None = None,
) -> CompileResult:
    options = options or CompileOptions()
    with fewer_collections():
        module = parse_source(text, filename)
        trace = run_pipeline(module, options, progress, after_pass)
    return CompileResult(text, filename, options.compile_to, module, trace)
