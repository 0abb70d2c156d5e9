"""What `%%ireecompile` shows by default: the compile at a glance.

IREE's closest counterparts are `--mlir-timing` (time per pass) and the dispatch names that
`AnnotateDispatchesPass` gives; this gathers the ireelab equivalents into one compact view: a
table of the seven stages (passes run, passes that changed the IR, time), the dispatches the
Flow stage formed (IREE's export names, the ops fused into each, how many call sites), and
how to call the compiled function. It renders as HTML in Jupyter and as aligned text elsewhere.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from ireelab.compiler import pipeline
from ireelab.compiler.trace import Trace

_DTYPES = {"f16": "float16", "f32": "float32", "f64": "float64", "i1": "bool_"}
"""MLIR element types -> numpy dtype names (integers are derived from their width)."""


@dataclass(frozen=True)
class Argument:
    name: str
    """The SSA name the program gave the argument (`%lhs` -> `lhs`), else `argN`."""
    type: str
    """The MLIR type as printed, e.g. `tensor<2x4xf32>`."""
    shape: tuple[int, ...] | None
    """Static shape of a ranked tensor; `()` for a scalar; None when not known statically."""
    dtype: str | None
    """numpy dtype name, or None when numpy has no counterpart."""

    def example(self) -> str:
        """A numpy expression building a value of this type (zeros), for the call hint."""
        if self.dtype is None or self.shape is None:
            return f"{self.name}  # {self.type}"
        if self.shape == ():
            return f"np.{self.dtype}(0)"
        return f"np.zeros({self.shape!r}, np.{self.dtype})"


@dataclass(frozen=True)
class Signature:
    name: str
    arguments: tuple[Argument, ...]
    results: tuple[str, ...]


@dataclass(frozen=True)
class Dispatch:
    executable: str
    export: str
    ops: tuple[str, ...]
    """The linalg ops inside the dispatch body, in order (what was fused into it)."""
    sites: int
    """How many `flow.dispatch` ops call this export."""


@dataclass
class CompileSummary:
    """The default view of one `%%ireecompile` cell (see the module docstring)."""

    name: str
    phase: str
    stages: list[tuple[str, int, int, float]]
    dispatches: list[Dispatch] = field(default_factory=list)
    signatures: list[Signature] = field(default_factory=list)

    @property
    def runnable(self) -> bool:
        return self.phase == "end"

    # ---- rendering ------------------------------------------------------------------------
    def stage_rows(self) -> list[tuple[str, str, str, str]]:
        rows = []
        for stage, passes, changed, seconds in self.stages:
            letter = pipeline.STAGE_LETTERS.get(stage, "?")
            rows.append((f"{letter} {stage}", str(passes), str(changed), f"{seconds * 1e3:.1f}"))
        total = sum(s[3] for s in self.stages)
        count = sum(s[1] for s in self.stages)
        changed = sum(s[2] for s in self.stages)
        rows.append(("total", str(count), str(changed), f"{total * 1e3:.1f}"))
        return rows

    def call_lines(self) -> list[str]:
        """How to run the module, or why it cannot be run yet."""
        if not self.runnable:
            return [
                f"compiled to '{self.phase}', so there is nothing to run yet; "
                "drop --compile-to (or use --compile-to=end) to build a runnable module"
            ]
        lines = []
        for sig in self.signatures:
            args = ", ".join(a.name for a in sig.arguments)
            lines.append(
                f"{self.name}.{sig.name}({args})    or    %ireerun {self.name}.{sig.name} {' '.join(a.name for a in sig.arguments)}"
            )
            for arg in sig.arguments:
                lines.append(f"    {arg.name} = {arg.example()}    # {arg.type}")
        return lines

    def __repr__(self) -> str:
        header = ("stage", "passes", "changed", "ms")
        rows = [header, *self.stage_rows()]
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        out = [f"{self.name}: compiled to '{self.phase}'"]
        for row in rows:
            cells = [row[0].ljust(widths[0])] + [
                c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
            ]
            out.append("  " + "  ".join(cells))
        if self.dispatches:
            out.append(f"dispatches ({len(self.dispatches)}):")
            for d in self.dispatches:
                out.append(f"  {d.export}  [{', '.join(d.ops) or 'no linalg ops'}]  x{d.sites}")
        out.append("call:" if self.runnable else "run:")
        out.extend("  " + line for line in self.call_lines())
        return "\n".join(out)

    def _repr_html_(self) -> str:
        esc = html.escape
        rows = "".join(
            "<tr>"
            + f"<td style='text-align:left'>{esc(r[0])}</td>"
            + "".join(f"<td style='text-align:right'>{esc(c)}</td>" for c in r[1:])
            + "</tr>"
            for r in self.stage_rows()
        )
        table = (
            "<table style='border-collapse:collapse;font-size:90%'>"
            "<tr><th style='text-align:left'>stage</th><th>passes</th><th>changed</th><th>ms</th></tr>"
            f"{rows}</table>"
        )
        parts = [f"<div><b>{esc(self.name)}</b>: compiled to <code>{esc(self.phase)}</code>", table]
        if self.dispatches:
            items = "".join(
                f"<li><code>{esc(d.export)}</code>: {esc(', '.join(d.ops) or 'no linalg ops')}"
                + (f" ({d.sites} call sites)" if d.sites != 1 else "")
                + "</li>"
                for d in self.dispatches
            )
            parts.append(
                f"<div>dispatches ({len(self.dispatches)}):<ul style='margin:0'>{items}</ul></div>"
            )
        call = esc("\n".join(self.call_lines()))
        parts.append(
            f"<div>{'call' if self.runnable else 'run'}:<pre style='margin:0'>{call}</pre></div>"
        )
        return "".join(parts) + "</div>"


# ---- gathering ---------------------------------------------------------------------------
def summarize(name: str, module) -> CompileSummary:
    """The summary of a `CompiledModule` bound to `name`."""
    trace: Trace = module.trace
    return CompileSummary(
        name=name,
        phase=module.phase,
        stages=trace.summary(),
        dispatches=flow_dispatches(trace),
        signatures=public_signatures(_linalg_input(trace)),
    )


def _linalg_input(trace: Trace) -> str:
    """The program ireelab's stages started from: the input, or for a framework program
    (whose first passes the real IREE ran) the IR after ireelab's first pass on IREE's output."""
    if not trace.records or trace.records[0].tool != "iree":
        return trace.input_ir
    first_ours = next((r for r in trace if r.tool != "iree"), None)
    return first_ours.ir if first_ours is not None else ""


def public_signatures(input_ir: str) -> list[Signature]:
    """The public functions of the input program with their argument types (an `$async`
    entry point is left out: its sync wrapper is the one to call)."""
    from xdsl.dialects import func
    from xdsl.dialects.builtin import TensorType
    from xdsl.parser import Parser

    from ireelab.compiler.context import make_context
    from ireelab.dialects import util

    module = Parser(make_context(), input_ir, "<summary>").parse_module()
    signatures = []
    for op in module.ops:
        if (
            not isinstance(op, func.FuncOp | util.FuncOp)
            or op.sym_visibility is not None
            and op.sym_visibility.data == "private"
            or op.sym_name.data.endswith("$async")
        ):
            continue
        if not op.body.blocks:
            continue
        args = []
        for i, value in enumerate(op.body.blocks[0].args):
            hint = value.name_hint
            arg_name = hint if hint and hint.isidentifier() else f"arg{i}"
            type_ = _imported_type(value) or value.type
            shape, dtype = _numpy_view(type_, TensorType)
            args.append(Argument(arg_name, str(type_), shape, dtype))
        results = tuple(str(t) for t in op.function_type.outputs.data)
        signatures.append(Signature(op.sym_name.data, tuple(args), results))
    return signatures


def _imported_type(value, depth: int = 0):
    """The tensor a `!hal.buffer_view` argument is imported as (`hal.tensor.import`), also
    through the call a sync wrapper makes to its `$async` entry point; None if not found."""
    from xdsl.traits import SymbolTable

    from ireelab.dialects import hal, util

    for use in value.uses:
        user = use.operation
        if isinstance(user, hal.TensorImportOp):
            return user.target.type
        if isinstance(user, util.CallOp) and depth == 0:
            callee = SymbolTable.lookup_symbol(user, user.callee)
            if isinstance(callee, util.FuncOp) and callee.body.blocks:
                arg = callee.body.blocks[0].args[use.index]
                return _imported_type(arg, depth + 1)
    return None


def _numpy_view(type_, tensor_type) -> tuple[tuple[int, ...] | None, str | None]:
    if isinstance(type_, tensor_type):
        shape = tuple(type_.get_shape())
        return (shape if all(d >= 0 for d in shape) else None), _dtype(str(type_.element_type))
    return (), _dtype(str(type_))


def _dtype(element: str) -> str | None:
    if element in _DTYPES:
        return _DTYPES[element]
    match = re.fullmatch(r"i(8|16|32|64)", element)
    return f"int{match.group(1)}" if match else None


_EXECUTABLE = re.compile(r"^(\s*)flow\.executable\s+(?:private\s+|public\s+)?@([\w$.-]+)")
_EXPORT = re.compile(r"flow\.executable\.export\s+(?:public\s+|private\s+)?@([\w$.-]+)")
_SITE = re.compile(r"flow\.dispatch\s+@([\w$.-]+)::@([\w$.-]+)")
_LINALG = re.compile(r"^\s*(?:%[^=]*=\s*)?(linalg\.[a-z_]+)", re.MULTILINE)
"""A linalg op at the start of a line (not `#linalg.iterator_type` inside an attribute)."""
_NOT_FUSED = {"linalg.yield", "linalg.index"}


def flow_dispatches(trace: Trace) -> list[Dispatch]:
    """The dispatches in the IR the Flow stage left (none if the compile stopped before it)."""
    flow = trace.stage("flow")
    if not flow:
        return []
    return dispatches_in(flow[-1].ir)


def dispatches_in(ir: str) -> list[Dispatch]:
    """`flow.executable`s of a Flow-phase module text: exports, fused linalg ops, call sites.

    Reads the printed IR line by line (an executable ends at the closing brace at its own
    indentation), so it works on IREE's own `--compile-to=flow` output as well as ours.
    """
    sites: dict[tuple[str, str], int] = {}
    for match in _SITE.finditer(ir):
        key = (match.group(1), match.group(2))
        sites[key] = sites.get(key, 0) + 1
    dispatches: list[Dispatch] = []
    lines = ir.splitlines()
    i = 0
    while i < len(lines):
        match = _EXECUTABLE.match(lines[i])
        i += 1
        if not match:
            continue
        indent, executable = match.group(1), match.group(2)
        body: list[str] = []
        while i < len(lines) and lines[i].rstrip() != indent + "}":
            body.append(lines[i])
            i += 1
        text = "\n".join(body)
        ops = tuple(m.group(1) for m in _LINALG.finditer(text) if m.group(1) not in _NOT_FUSED)
        for export in _EXPORT.findall(text):
            dispatches.append(Dispatch(executable, export, ops, sites.get((executable, export), 0)))
    return dispatches
