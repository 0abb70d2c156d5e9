"""The runtime's user-facing errors, each one line: IREE's `iree_status_t` seen from Python.

IREE's runtime returns a status (code + message + annotations) from every call; ireelab raises
one of these instead. `str(err)` is the one-line message the tools print after `error: `.
"""

from __future__ import annotations


class ModuleFileError(Exception):
    """The module file is empty, truncated, corrupted, foreign or from another version."""


class HALError(Exception):
    """A HAL call failed (IREE: a non-OK `iree_status_t` from the hal module)."""

    def __init__(self, message: str, code: str = "INTERNAL"):
        super().__init__(message)
        self.code = code

    def __str__(self) -> str:
        return f"{self.code}; {self.args[0]}"


class DispatchError(HALError):
    """A kernel raised while a command buffer ran; carries the dispatch (export) name."""

    def __init__(self, dispatch: str, cause: BaseException):
        message = f"dispatch '{dispatch}' failed: {type(cause).__name__}: {cause}".strip()
        super().__init__(message.splitlines()[0], code="ABORTED")
        self.dispatch = dispatch
        self.cause = cause


class VMError(Exception):
    """The program itself failed (`vm.fail`, a bad ref, an import that raised)."""
