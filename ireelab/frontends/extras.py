"""The `frontends` extra: the real IREE's importers and input conversion, and the frameworks.

A framework program (torch, StableHLO, TOSA, ONNX) is brought into linalg by the real IREE
(`iree-base-compiler`, with its ONNX importer), and the helpers export from PyTorch
(iree-turbine) and JAX. None of it is needed for linalg input, so it is an optional extra and
is imported only when used; without it the one-line error names the extra to install.
"""

from __future__ import annotations

import importlib

from ireelab.diagnostics import CompileError

INSTALL_HINT = "pip install 'ireelab[frontends]'"


class FrontendNotInstalledError(CompileError):
    """A front end is needed for this and its package is not installed."""

    def __init__(self, what: str, package: str):
        super().__init__(
            f"{what} needs {package}, which is not installed: {INSTALL_HINT}", stage="input"
        )


def require(module: str, what: str, package: str | None = None):
    """Import `module` (e.g. `onnx`), or raise `FrontendNotInstalledError` naming the extra."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise FrontendNotInstalledError(what, package or module.split(".")[0]) from None


def require_iree_compile(what: str) -> str:
    """The path of the real `iree-compile`, or `FrontendNotInstalledError`."""
    from ireelab.iree.availability import iree_compile_path

    path = iree_compile_path()
    if path is None:
        raise FrontendNotInstalledError(what, "iree-base-compiler (IREE's input conversion)")
    return path
