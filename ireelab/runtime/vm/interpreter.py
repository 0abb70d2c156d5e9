"""Running a context's functions (IREE's `iree/vm/bytecode/dispatch.c` stands here).

`link_functions` turns every decoded function of a module into a Python function, once per
context (see `ireelab.runtime.vm.translate` for why translation rather than an instruction
loop): all sources are compiled together, in a namespace holding the context's resolved
imports, globals and rodata, and `F[i]` there is function `i`, so internal calls are direct.
A call then does no decoding, no name lookups and no dispatch on opcodes.
"""

from __future__ import annotations

from collections.abc import Callable

from ireelab.runtime.errors import VMError
from ireelab.runtime.vm.decoder import DecodedFunction
from ireelab.runtime.vm.translate import FunctionTranslator, Namespace, Program


class Function:
    """One `vm.func`, ready to run: call it with the argument values, get a result tuple."""

    __slots__ = ("name", "run", "arity", "source")

    def __init__(self, name: str, run: Callable[..., tuple], arity: int, source: str):
        self.name = name
        self.run = run
        """The translated function itself (what hot paths call)."""
        self.arity = arity
        self.source = source
        """The generated Python source, for reading and debugging."""

    def __call__(self, *args) -> tuple:
        if len(args) != self.arity:
            raise VMError(
                f"INVALID_ARGUMENT; function `{self.name}` takes {self.arity} argument(s), "
                f"got {len(args)}"
            )
        return self.run(*args)

    def __repr__(self) -> str:
        return f"<vm.func {self.name}/{self.arity}>"


def link_functions(
    decoded: list[DecodedFunction],
    imports: list[Callable],
    import_names: list[str],
    globals_by_kind: dict[str, list],
    rodata: list[bytes],
    result_ranges: dict[str, tuple[int, int]] | None = None,
    fused_commands: tuple[Callable, Callable] | None = None,
    inline_calls: dict[str, tuple[str, tuple[int, ...]]] | None = None,
    nonnull_results: frozenset[str] = frozenset(),
) -> list[Function]:
    """Translate and compile every function of one context (`result_ranges`: import name ->
    the range the runtime keeps its integer result in; `fused_commands`, `inline_calls`,
    `nonnull_results`: see `Program`)."""
    names = [d.name for d in decoded]
    program = Program(
        imports,
        import_names,
        len(decoded),
        names,
        globals_by_kind,
        rodata,
        result_ranges or {},
        fused_commands,
        nonnull_results,
        inline_calls or {},
    )
    namespace = Namespace()
    sources = [
        FunctionTranslator(program, namespace, d).source(f"f{i}") for i, d in enumerate(decoded)
    ]
    table: list[Callable] = []
    scope: dict[str, object] = {"__builtins__": {}, "VMError": VMError, "F": table}
    scope.update(namespace.values)
    code = compile("\n".join(sources), "<ireelab vm module>", "exec")
    exec(code, scope)  # noqa: S102 - generated from decoded bytecode: names and integers only
    table.extend(scope[f"f{i}"] for i in range(len(decoded)))
    return [Function(d.name, table[i], len(d.arguments), sources[i]) for i, d in enumerate(decoded)]
