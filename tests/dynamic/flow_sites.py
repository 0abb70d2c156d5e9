"""What the dynamic conv tests compare with iree-compile: a program's Flow IR from both
compilers, its dispatch exports, and how many entries each dispatch's workload has."""

from __future__ import annotations

import re
import shutil

import pytest

needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)

_EXPORT = re.compile(r"flow\.executable\.export public @(\w+)")
_WORKLOAD = re.compile(r"flow\.dispatch @[\w:@]+\[([^\]]*)\]")


def flow_of_both(path: str) -> tuple[str, str]:
    """`--compile-to=flow` IR of the program at `path`: ireelab's, then the real IREE's."""
    import ireelab.iree

    ours = ireelab.compile(path, compile_to="flow").ir()
    return ours, ireelab.iree.compile(path, compile_to="flow", trace=False).ir()


def exports(ir: str) -> list[str]:
    return _EXPORT.findall(ir)


def workload_counts(ir: str) -> list[int]:
    """The number of workload entries of each `flow.dispatch`, in order."""
    return [len(w.split(",")) for w in _WORKLOAD.findall(ir)]
