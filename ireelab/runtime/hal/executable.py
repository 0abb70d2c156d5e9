"""`!hal.executable`: the loaded kernels of one `hal.executable.binary`
(IREE's `iree_hal_executable_t`, as the local executable loaders make it).

The binary is the "numba-python" format of docs/internals.md (JSON with an export table and the
kernel module source); `ireelab.runtime.hal.executable_loader.load_executable` (the codegen
side) turns it into numba functions, one per export ordinal. Loaded executables are cached per
process by the binary's hash, so re-loading a module does not compile again.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable
from functools import partial

from ireelab.runtime.errors import HALError
from ireelab.runtime.hal import kernel_faults, kernel_pool
from ireelab.runtime.hal.blas_threads import SingleThreadedBlas
from ireelab.runtime.hal.native_tasks import call_entry

FORMAT = "numba-python"
"""The only executable format ireelab's local devices load."""


_CACHE: dict[str, Executable] = {}
_CACHE_LOCK = threading.Lock()


class Executable:
    __slots__ = (
        "names",
        "functions",
        "ordinals",
        "blas",
        "_kernels",
        "looked_up",
        "_module",
        "_operands",
        "_entries",
        "_source",
        "_upgrade",
        "lifted",
        "one_shot_blocks",
    )

    def __init__(
        self,
        names: list[str],
        functions: list[Callable],
        blas: SingleThreadedBlas | None = None,
        module: str | None = None,
        operands: list[tuple[int, int, int]] | None = None,
        source: str = "",
    ):
        self.names = names
        """Export names by ordinal (IREE's names, as the host code looks them up)."""
        self.functions = functions
        """Kernel entry points by ordinal (numba dispatchers)."""
        self.ordinals = {name: i for i, name in enumerate(names)}
        self.blas = blas
        """A `blas_threads.SingleThreadedBlas` held around each kernel call, when the kernels
        call BLAS."""
        self._kernels: list[Callable | None] = [None] * len(functions)
        self.looked_up: dict[bytes, int] = {}
        """Export name bytes -> ordinal, of the names `lookup_data` found (read on every
        call of a `?` function by `hal.executable.lookup.function`)."""
        self._module = module
        """The kernel module's name in the kernel cache (None: no native entries)."""
        self._operands = operands or []
        """`(ordinal, bindings, push constants)` of every export."""
        self._entries: list[int] | None | bool = False
        """C entry point addresses by ordinal (`native_entries`); False until asked for."""
        self._source = source
        """The kernel module source (for its generic form, `generic_kernels`)."""
        self._upgrade: str | None = None
        """The specialised companion module compiling in the background while the generic
        kernel runs; None when the entries are final."""
        self.lifted: tuple[tuple[int, ...], ...] = ()
        """By ordinal: the sizes a generic kernel takes after the push constants (passed on
        after a swap too: the specialised entry does not read past its own operands)."""
        self.one_shot_blocks: dict = {}
        """The argument blocks its one-shot dispatches reuse, by sizes
        (`execution.OneShotBlock`)."""

    def native_entries(self) -> list[int] | None:
        """Addresses of the exports' C entry points (built on first use), or None. While
        the specialised kernels compile in the background, those of the generic kernel
        (`generic_kernels`); then, once they are compiled, theirs."""
        entries = self._entries
        if entries is False:
            entries = self._entries = self._first_entries()
        elif self._upgrade is not None and kernel_pool.ready(self._upgrade):
            entries = self._swap()
        return entries

    def _first_entries(self) -> list[int] | None:
        if self._module is None:
            return None
        kernel_faults.install()  # what a C entry point raises reaches its submission
        from ireelab.runtime.hal import generic_kernels
        from ireelab.runtime.hal.native_entries import entries_module, entry_addresses

        specialised = entries_module(self._module)
        tiers = generic_kernels.mode()
        if tiers == "always" or (
            kernel_pool.tiered(specialised) is not None and not kernel_pool.ready(specialised)
        ):
            generic = generic_kernels.generic_kernel(self._source, self._operands)
            entries = None
            if generic is not None:
                entries = entry_addresses(generic.module, list(generic.operands), block=True)
            if entries is not None:
                self.lifted = generic.lifted
                self._upgrade = specialised if tiers == "on" else None
                return entries
        return entry_addresses(self._module, self._operands)

    def _swap(self) -> list[int] | None:
        """Run the specialised kernels from now on (loaded from numba's cache)."""
        from ireelab.runtime.hal.native_entries import entry_addresses

        self._upgrade = None
        entries = entry_addresses(self._module, self._operands)
        if entries is None:  # keep the generic kernel
            return self._entries
        self._kernels = [None] * len(self.functions)
        self._entries = entries
        return entries

    def kernel(self, ordinal: int) -> Callable:
        """What to call for export `ordinal`: its C entry point when the executable has them
        (`native_entries`; called with `(wg_begin, wg_end, argument block address)`), else,
        once numba has compiled the kernel, its compiled entry point (skips the dispatcher's
        per-call type resolution), else the dispatcher."""
        kernel = self._kernels[ordinal]
        if kernel is not None:
            return kernel
        entries = self.native_entries()
        if entries is not None:
            # The C entry point: `(wg_begin, wg_end, argument block address)`, the very code
            # native plans run, so every path computes the same bits.
            if self.blas is not None:
                entry = self.blas.entry_call(entries[ordinal])
            else:
                entry = partial(call_entry, entries[ordinal])
            self._kernels[ordinal] = entry
            return entry
        from ireelab.runtime.hal.executable_loader import compiled_entry

        function = self.functions[ordinal]
        entry = compiled_entry(function)
        if entry is None:
            return function if self.blas is None else _holding(self.blas, function)
        if self.blas is not None:
            entry = _holding(self.blas, entry)
        self._kernels[ordinal] = entry
        return entry

    def lookup_data(self, name: bytes) -> int:
        """`lookup` for the name bytes a program passes (cached: called on every call)."""
        ordinal = self.looked_up.get(name)
        if ordinal is None:
            ordinal = self.lookup(bytes(name).decode("utf-8", "replace"))
            self.looked_up[name] = ordinal
        return ordinal

    def lookup(self, name: str) -> int:
        ordinal = self.ordinals.get(name)
        if ordinal is None:
            raise HALError(f"executable has no export named '{name}'", code="NOT_FOUND")
        return ordinal

    def __repr__(self) -> str:
        return f"<hal.executable {', '.join(self.names)}>"


def _export_names(binary: bytes) -> list[str]:
    try:
        header = json.loads(binary.decode("utf-8"))
        exports = sorted(header["exports"], key=lambda e: int(e["ordinal"]))
        return [str(e["name"]) for e in exports]
    except (UnicodeDecodeError, ValueError, KeyError, TypeError) as err:
        raise HALError(
            f"executable binary is not valid {FORMAT}: {err}", "INVALID_ARGUMENT"
        ) from err


def _holding(scope: SingleThreadedBlas, kernel: Callable) -> Callable:
    return scope.holding(kernel)


def create_executable(executable_format: str, binary: bytes) -> Executable:
    if executable_format != FORMAT:
        raise HALError(
            f"executable format '{executable_format}' is not supported by the local devices "
            f"(they load '{FORMAT}')",
            code="INCOMPATIBLE",
        )
    key = hashlib.sha256(binary).hexdigest()
    with _CACHE_LOCK:
        cached = _CACHE.get(key)
        if cached is not None:
            return cached
        names = _export_names(binary)
        from ireelab.runtime.hal.executable_loader import load_executable

        try:
            loaded = load_executable(binary)
        except HALError:
            raise
        except Exception as err:  # the loader compiles user-derived code: report, don't crash
            raise HALError(f"loading executable failed: {type(err).__name__}: {err}") from err
        functions = list(loaded.functions)
        if len(functions) < len(names):
            raise HALError(
                f"executable declares {len(names)} exports but the loader produced "
                f"{len(functions)} functions",
                code="INVALID_ARGUMENT",
            )
        operands = [(e.ordinal, e.bindings, e.constants) for e in loaded.exports]
        executable = Executable(
            names, functions, loaded.blas, loaded.module_name, operands, loaded.source
        )
        _CACHE[key] = executable
        return executable
