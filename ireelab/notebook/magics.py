"""`%%ireecompile` and `%ireerun`: `iree-compile` and `iree-run-module` as IPython magics.

`%load_ext ireelab` registers them. A `%%ireecompile` cell holds MLIR; the magic line takes the
options of `ireelab-compile` that make sense in a notebook (`--compile-to`,
`--iree-hal-target-backends`, `--device`), compiles the cell with `ireelab.compile`, binds the
`CompiledModule` to a name in the notebook and shows what was asked for (`--show`). `%ireerun`
calls an exported function with notebook values, like `iree-run-module --function=... --input=...`.
"""

from __future__ import annotations

import keyword
import re
import weakref

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring
from IPython.display import display

import ireelab
from ireelab.compiler import pipeline
from ireelab.diagnostics import CompileError, RuntimeInputError
from ireelab.notebook.errors import CellCompileError, CellUsageError
from ireelab.notebook.progress import PassProgress, status

SHOW_CHOICES = ("summary", "ir", "dispatches", "timepoints", "stepper", "none")
"""What `--show` can display after a compile (comma-separated for several)."""

DEVICES = ("local-task", "local-sync")
"""The HAL devices of ireelab's runtime, named as IREE's `--device` names them."""

_SHOW_NEEDS_PHASE = {"dispatches": "flow", "timepoints": "stream"}
"""Views that exist only once the compile has reached a phase."""

_FUNC = re.compile(r"\bfunc\.func\s+(?:(public|private|nested)\s+)?@\"?([\w$.\-]+)")


def default_name(cell: str) -> str | None:
    """The name of the cell's first public `func.func` (comments ignored), or None."""
    code = "\n".join(line.split("//", 1)[0] for line in cell.splitlines())
    for match in _FUNC.finditer(code):
        if match.group(1) != "private":
            return match.group(2)
    return None


def parse_show(value: str) -> list[str]:
    """`--show=summary,dispatches` -> ["summary", "dispatches"]; a usage error on unknown views."""
    views = [v.strip() for v in value.split(",") if v.strip()]
    unknown = [v for v in views if v not in SHOW_CHOICES]
    if unknown or not views:
        raise UsageError(
            f"--show: unknown view '{unknown[0] if unknown else value}'; "
            f"choose from {', '.join(SHOW_CHOICES)} (comma-separated)"
        )
    return [] if "none" in views else views


def _check_binding_name(name: str) -> str:
    if not name.isidentifier() or keyword.iskeyword(name):
        raise UsageError(
            f"cannot bind the module to '{name}': not a Python identifier; "
            "name it on the magic line: %%ireecompile NAME"
        )
    return name


def _backends(value: str) -> tuple[str, ...]:
    from ireelab.compiler.driver import TARGET_BACKENDS

    names = tuple(b.strip() for b in value.split(",") if b.strip())
    unknown = [b for b in names if b not in TARGET_BACKENDS]
    if unknown or not names:
        raise UsageError(
            f"--iree-hal-target-backends: unknown backend '{unknown[0] if unknown else value}'; "
            f"known: {', '.join(TARGET_BACKENDS)}"
        )
    return names


def _reached(phase: str, needed: str) -> bool:
    order = pipeline.PHASES
    return order.index(phase) >= order.index(needed)


@magics_class
class IreeMagics(Magics):
    def __init__(self, shell):
        super().__init__(shell)
        self._warm: weakref.WeakSet = weakref.WeakSet()
        """Modules whose kernels have run once (numba has compiled or loaded them)."""

    # ---- %%ireecompile -------------------------------------------------------------------
    @magic_arguments()
    @argument(
        "name",
        nargs="?",
        help="notebook name to bind the CompiledModule to (default: the cell's first public "
        "function name)",
    )
    @argument(
        "--compile-to",
        default="end",
        choices=pipeline.PHASES,
        metavar="PHASE",
        help=f"stop after this phase, as iree-compile's --compile-to: {', '.join(pipeline.PHASES)} "
        "(default: end, a runnable module)",
    )
    @argument(
        "--iree-hal-target-backends",
        default="numba-cpu",
        metavar="BACKENDS",
        help="comma-separated target backends: numba-cpu (default; llvm-cpu is accepted as its alias)",
    )
    @argument(
        "--iree-opt-data-tiling",
        action="store_true",
        help="data tiling, as iree-compile's flag: matmul operands packed for the target, "
        "matmuls as linalg.mmt4d",
    )
    @argument(
        "--iree-input-type",
        default="auto",
        metavar="TYPE",
        help="input dialect, as iree-compile's flag: auto (default: detected as IREE does), "
        "none (linalg), torch, stablehlo, tosa, onnx; framework dialects go through the real "
        "IREE's input conversion (needs `pip install 'ireelab[frontends]'`)",
    )
    @argument(
        "--device",
        default="local-task",
        choices=DEVICES,
        help="HAL device that runs the module: local-task (workgroups on a thread pool, "
        "the default) or local-sync (inline, one thread)",
    )
    @argument(
        "--backend",
        default="ireelab",
        choices=("ireelab", "iree"),
        help="which compiler: ireelab (default) or the real IREE (needs `pip install "
        "'ireelab[iree]'`; binds an IREEModule with the same trace, graphs and stepper)",
    )
    @argument(
        "--compare",
        action="store_true",
        help="also compile and run the cell with the real IREE and show both side by side "
        "(passes per stage, dispatches, stream schedule, results, run time), differences marked",
    )
    @argument(
        "--show",
        default="summary",
        metavar="VIEWS",
        help="what to show after compiling, comma-separated: summary (stages with pass counts "
        "and times, dispatches, how to call; the default), ir (the IR at the phase reached), "
        "dispatches (the dispatch-region graph, from flow on), timepoints (the timepoint "
        "graph, from stream on), stepper (pass-by-pass viewer), none",
    )
    @cell_magic
    def ireecompile(self, line: str, cell: str):
        """Compile the MLIR in this cell through IREE's stages and bind the module to a name.

        Example::

            %%ireecompile matmul --compile-to=flow --show=dispatches
            func.func @matmul(%lhs: tensor<2x4xf32>, %rhs: tensor<4x2xf32>) -> tensor<2x2xf32> {
              ...
            }

        A compile error shows the located message with the offending cell line highlighted;
        nothing is bound then. Run the result with `matmul.matmul(a, b)` or `%ireerun matmul a b`.
        """
        args = parse_argstring(self.ireecompile, line)
        views = parse_show(args.show)
        if not cell.strip():
            raise UsageError("the cell is empty: write MLIR below the %%ireecompile line")
        name = args.name or default_name(cell)
        if name is None:
            raise UsageError("no public func.func in the cell; name the module: %%ireecompile NAME")
        _check_binding_name(name)
        backends = _backends(args.iree_hal_target_backends)

        cell_file = f"In[{self.shell.execution_count}]"
        # Line 1 of the source stands for the magic line, so error lines match the cell's.
        source = f"// %%ireecompile {line}\n{cell}"
        progress = PassProgress(f"compiling {name}")
        try:
            if args.backend == "iree":
                from ireelab import iree as real_iree

                module = real_iree.compile(source, compile_to=args.compile_to, device=args.device)
            else:
                module = ireelab.compile(
                    source,
                    compile_to=args.compile_to,
                    target_backends=backends,
                    device=args.device,
                    filename=cell_file,
                    progress=progress,
                    input_type=args.iree_input_type,
                    data_tiling=args.iree_opt_data_tiling,
                )
        except CompileError as err:
            raise CellCompileError(err, source.splitlines(), cell_file, name) from None
        finally:
            progress.close()
        self.shell.user_ns[name] = module
        for view in views:
            self._show(view, name, module)
        if args.compare:
            from ireelab import iree as real_iree

            try:
                display(real_iree.compare(source, device=args.device))
            except CompileError as err:
                raise CellCompileError(err, source.splitlines(), cell_file, name) from None

    def _show(self, view: str, name: str, module) -> None:
        needed = _SHOW_NEEDS_PHASE.get(view)
        if needed and not _reached(module.phase, needed):
            print(
                f"--show={view}: there is nothing to draw before the '{needed}' phase "
                f"(this cell compiled to '{module.phase}')"
            )
            return
        if view == "summary":
            from ireelab.notebook.summary import summarize

            display(summarize(name, module))
        elif view == "ir":
            from ireelab.notebook.ir_text import IRText

            display(IRText(module.ir(), f"{name} after --compile-to={module.phase}"))
        elif view == "dispatches":
            display(module.dispatch_graph())
        elif view == "timepoints":
            display(module.timepoint_graph())
        elif view == "stepper":
            display(module.stepper())

    # ---- %ireerun ------------------------------------------------------------------------
    @magic_arguments()
    @argument("target", help="MODULE or MODULE.FUNCTION: a name bound by %%ireecompile")
    @argument(
        "inputs",
        nargs="*",
        help="arguments: Python expressions evaluated in the notebook (names, or quoted "
        'expressions such as "np.ones((2, 4), np.float32)")',
    )
    @argument("--device", default=None, choices=DEVICES, help="override the module's device")
    @line_magic
    def ireerun(self, line: str):
        """Call an exported function of a compiled module, like iree-run-module --function.

        Example: `%ireerun matmul a b` calls `matmul.matmul(a, b)` and returns its result
        (a numpy array, or a tuple for several results). The first call of a module shows
        progress while numba compiles (or loads from its disk cache) the kernels.
        """
        from ireelab.module import CompiledModule

        args = parse_argstring(self.ireerun, line)
        module_name, _, function = args.target.partition(".")
        module = self.shell.user_ns.get(module_name)
        if not isinstance(module, CompiledModule):
            raise UsageError(f"'{module_name}' is not a module compiled with %%ireecompile")
        if module.phase != "end":
            raise UsageError(
                f"'{module_name}' was compiled to '{module.phase}'; recompile it without "
                "--compile-to to run it"
            )
        function = function or _default_function(module_name, module.functions)
        if function not in module.functions:
            raise UsageError(
                f"'{module_name}' has no function '{function}'; it exports {', '.join(module.functions)}"
            )
        values = [self._evaluate(expr) for expr in args.inputs]
        return self._invoke(module, f"{module_name}.{function}", function, values, args.device)

    def _evaluate(self, expr: str):
        try:
            return self.shell.ev(expr)
        except Exception as err:
            raise UsageError(
                f"cannot evaluate argument '{expr}': {type(err).__name__}: {err}"
            ) from None

    def _invoke(self, module, label: str, function: str, values: list, device: str | None):
        from ireelab.runtime.errors import HALError, ModuleFileError, VMError

        first = module not in self._warm
        message = f"first call of {label}: numba compiles its kernels (cached on disk afterwards)"
        try:
            if first:
                with status(message):
                    result = module.invoke(function, *values, device=device)
            else:
                result = module.invoke(function, *values, device=device)
        except (RuntimeInputError, HALError, VMError, ModuleFileError) as err:
            raise CellUsageError(f"{label}: {err}") from None
        self._warm.add(module)
        return result


def _default_function(module_name: str, functions: list[str]) -> str:
    if module_name in functions:
        return module_name
    if len(functions) == 1:
        return functions[0]
    raise UsageError(
        f"'{module_name}' exports several functions ({', '.join(functions)}); "
        f"say which: %ireerun {module_name}.FUNCTION ..."
    )


def load_ipython_extension(ipython) -> None:
    """`%load_ext ireelab`: register `%%ireecompile` and `%ireerun`."""
    ipython.register_magics(IreeMagics)
