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

from ireelab.runtime.errors import HALError

FORMAT = "numba-python"
"""The only executable format ireelab's local devices load."""

_CACHE: dict[str, Executable] = {}
_CACHE_LOCK = threading.Lock()


class Executable:
    __slots__ = ("names", "functions", "ordinals")

    def __init__(self, names: list[str], functions: list[Callable]):
        self.names = names
        """Export names by ordinal (sanitised IREE names)."""
        self.functions = functions
        """Kernel entry points by ordinal."""
        self.ordinals = {name: i for i, name in enumerate(names)}

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
        executable = Executable(names, functions)
        _CACHE[key] = executable
        return executable
