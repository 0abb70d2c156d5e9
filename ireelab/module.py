"""`CompiledModule`: what `ireelab.compile` returns and a notebook cell binds.

It holds the compile (IR after every pass, the final IR) and, for a full compile, the loaded
runtime module; exported functions are attributes taking and returning numpy arrays, the way
`iree.runtime` exposes a module's functions.
"""

from __future__ import annotations

from collections.abc import Callable

from ireelab.compiler.api import CompileResult
from ireelab.compiler.trace import Trace


class CompiledModule:
    def __init__(
        self, result: CompileResult | None, module_bytes: bytes | None, device: str = "local-task"
    ):
        self._result = result
        self._bytes = module_bytes
        self.device = device
        self._loaded = None
        self.signatures: dict = {}
        self.last_run: dict[str, tuple[tuple, tuple]] = {}
        """Function name -> the argument and result shapes of its last call (what the
        pictures show for `?` sizes, `viz.last_run`; kept for functions with such sizes)."""
        """Function name -> `frontends.signature.Signature`, for a model a framework exported:
        that function takes and returns what the framework names (ONNX names, torch / JAX
        pytrees) instead of flat arrays."""

    # ---- the compile --------------------------------------------------------------------
    @property
    def trace(self) -> Trace:
        if self._result is None:
            raise AttributeError("a module loaded from a file has no compile trace")
        return self._result.trace

    @property
    def phase(self) -> str:
        return self._result.phase if self._result else "end"

    def ir(self) -> str:
        """The module's IR at the phase the compile stopped (`vm` IR for a full compile)."""
        if self._result is None:
            raise AttributeError("a module loaded from a file keeps no IR")
        return self._result.ir()

    def dispatch_graph(self, **kwargs):
        """The dispatch graph (`viz.dispatch_graph`); after a call, `?` sizes on its edges
        also say the sizes of the last call of each function."""
        from ireelab.viz.dispatch_graph import dispatch_graph

        kwargs.setdefault("last_run", self.last_run)
        return dispatch_graph(self.trace, **kwargs)

    def timepoint_graph(self, **kwargs):
        from ireelab.viz.timepoint_graph import timepoint_graph

        kwargs.setdefault("last_run", self.last_run)
        return timepoint_graph(self.trace, **kwargs)

    def follow(self, op, **kwargs):
        """Where one input op went in every stage (its dispatch, stream dispatch, HAL export,
        VM call); `op` is its index among the input's linalg ops or its name."""
        from ireelab.viz.follow import follow

        return follow(self.trace, op, **kwargs)

    def stepper(self):
        from ireelab.notebook.stepper import Stepper

        return Stepper(self.trace)

    # ---- the module file and the runtime -------------------------------------------------
    @property
    def module_bytes(self) -> bytes:
        if self._bytes is None:
            raise RuntimeError(
                f"this module was compiled to '{self.phase}', not to a runnable module; "
                "compile with compile_to='end' to run or save it"
            )
        return self._bytes

    def save(self, path: str) -> None:
        from ireelab.tools.compile import _write_output

        _write_output(path, self.module_bytes, binary=True)

    def set_signature(self, name: str, signature) -> None:
        """Call `name` with `signature` (a framework's names and structure) and keep it in
        the module file, as a reflection string of the export (`saved_signature.py`), so a
        saved module loads with it."""
        self.signatures[name] = signature
        self.__dict__.pop(name, None)  # the plain call `__getattr__` kept, if any
        if self._bytes is not None:
            from ireelab.frontends.saved_signature import with_signature

            self._bytes = with_signature(self._bytes, name, signature)
            self._loaded = None

    def restore_signatures(self) -> None:
        """The signatures a loaded module file keeps (see `set_signature`)."""
        from ireelab.frontends.saved_signature import saved_signatures

        self.signatures.update(saved_signatures(self.loaded.image))

    @property
    def loaded(self):
        if self._loaded is None:
            from ireelab.runtime import load_module

            self._loaded = load_module(self.module_bytes)
        return self._loaded

    @property
    def functions(self) -> list[str]:
        return list(self.loaded.functions)

    def invoke(self, name: str, *args, device: str | None = None):
        results = self.loaded.invoke(name, *args, device=device or self.device)
        self.last_run[name] = (_shapes(args), _shapes(results))
        return results[0] if len(results) == 1 else results

    def profile(self, *args, function: str | None = None, device: str | None = None):
        """Run one call while recording what the runtime did: a `Profile` with the results,
        `.trace_events` (Chrome trace), `.timeline()`, `.save(path)` and the call's memory.
        `function` may be omitted when the module exports one function."""
        if function is None:
            if len(self.functions) != 1:
                raise TypeError(
                    f"profile() needs function= (the module exports {', '.join(self.functions)})"
                )
            (function,) = self.functions
        return self.loaded.profile(function, *args, device=device or self.device)

    def __getattr__(self, name: str) -> Callable:
        if name.startswith("_"):
            raise AttributeError(name)
        if self._bytes is not None and name in self.loaded.functions:
            signature = self.signatures.get(name)
            if signature is None:
                call = self._plain_call(name)
                self.__dict__[name] = call  # later lookups skip __getattr__
                return call

            def call(*args, device=None, **named):
                arrays = signature.bind(args, named)
                results = self.loaded.invoke(name, *arrays, device=device or self.device)
                self.last_run[name] = (_shapes(arrays), _shapes(results))
                return signature.pack(results)

            call.__name__ = name
            return call
        raise AttributeError(f"module has no function or attribute '{name}'")

    def _plain_call(self, name: str) -> Callable:
        """`mod.<name>` for a function taking and returning flat arrays (`invoke`, made once
        per name rather than on every attribute lookup)."""

        invoke = self.loaded.invoke
        prepared = self.loaded.calls
        if not _sized_per_call(self.loaded.functions.get(name)):
            # Every size is in the declaration: nothing for `last_run` to add (the pictures
            # label only `?` sizes with it), so the call does not spend its time recording.
            # A call prepared on this device runs without `invoke`'s frame.
            def call(*args, device=None):
                device = device or self.device
                run = prepared.get((name, device))
                results = invoke(name, *args, device=device) if run is None else run(args)
                return results[0] if len(results) == 1 else results

            call.__name__ = name
            return call

        # `?` sizes: the call also records its shapes for `last_run`. The first call on a
        # device prepares it and records them here; the prepared call then records them
        # itself (`Call.record`), off the buffer views it has in hand.
        last_run = self.last_run

        def call(*args, device=None):
            device = device or self.device
            run = prepared.get((name, device))
            if run is not None:
                results = run(args)
                return results[0] if len(results) == 1 else results
            results = invoke(name, *args, device=device)
            last_run[name] = (_shapes(args), _shapes(results))
            run = prepared.get((name, device))
            if run is not None:
                run.record = last_run
            return results[0] if len(results) == 1 else results

        call.__name__ = name
        return call

    def __dir__(self):
        names = list(super().__dir__())
        if self._bytes is not None:
            names += self.functions
        return names

    def __repr__(self) -> str:
        if self._result is None:
            return f"<CompiledModule (loaded) functions={self.functions}>"
        return f"<CompiledModule phase={self.phase} passes={len(self.trace)}>"


def _sized_per_call(signature) -> bool:
    """Whether a function's shapes are only known per call: a `?` dim, or no declaration."""
    if signature is None:
        return True
    specs = (*signature.inputs, *signature.outputs)
    return any(None in getattr(spec, "shape", ()) for spec in specs)


def _shapes(values) -> tuple[tuple[int, ...], ...]:
    return tuple([getattr(v, "shape", ()) for v in values])
