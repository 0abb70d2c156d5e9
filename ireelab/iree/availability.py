"""Whether the real IREE (the optional extra `ireelab[iree]`) is installed, and how to get it.

ireelab works without it; only the functions that run IREE's compiler or runtime need it, and
they raise `IREENotInstalledError` with the install command rather than an ImportError
traceback. The compiler is `iree-compile` from `iree-base-compiler` (found next to the Python
package, or on PATH); the runtime is the `iree.runtime` Python package.
"""

from __future__ import annotations

import importlib.util
import shutil
from functools import cache

from ireelab.diagnostics import CompileError

INSTALL_HINT = "pip install 'ireelab[iree]'  (iree-base-compiler and iree-base-runtime 3.13)"


class IREENotInstalledError(CompileError):
    """The real IREE is needed for this and is not installed."""

    def __init__(self, what: str):
        super().__init__(f"{what} needs the real IREE, which is not installed: {INSTALL_HINT}")


def is_available() -> bool:
    """True when both IREE's compiler and runtime can be used."""
    return iree_compile_path() is not None and _has_module("iree.runtime")


@cache
def iree_compile_path() -> str | None:
    """The `iree-compile` executable of the installed iree-base-compiler, or None."""
    if _has_module("iree.compiler"):
        try:
            from iree.compiler.tools.binaries import find_tool

            return find_tool("iree-compile")
        except Exception:  # a broken install: fall back to PATH
            pass
    return shutil.which("iree-compile")


def require_compiler(what: str) -> str:
    path = iree_compile_path()
    if path is None:
        raise IREENotInstalledError(what)
    return path


def require_runtime(what: str):
    if not _has_module("iree.runtime"):
        raise IREENotInstalledError(what)
    import iree.runtime

    return iree.runtime


def _has_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False
