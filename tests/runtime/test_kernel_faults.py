"""A kernel that fails inside its C entry point fails the call (`runtime/hal/kernel_faults.py`).

numba's C entry points cannot return an exception: numba's wrapper reports it through
`sys.unraisablehook` and returns as if the kernel had finished, so without the runtime
catching that report the call would hand back its output buffer unwritten. (Found with a
dynamic expand whose size, read from a tensor, disagreed with its source: the kernel's view
of its binding failed. Since dynamic reshapes are carried on the host, that program no longer
reaches a kernel with a short binding, so these tests drive the hook directly.)
"""

from __future__ import annotations

import sys

import pytest

from ireelab.runtime.errors import DispatchError
from ireelab.runtime.hal import execution, kernel_faults


class _Dispatch:
    name = "f_dispatch_0_elementwise_D_f32"


def test_a_reported_kernel_exception_fails_its_dispatch():
    kernel_faults.install()
    report = type(
        "Report",
        (),
        {
            "object": "<numba.core.cpu.CPUContext>",
            "exc_value": ValueError("total size of new array must be unchanged"),
        },
    )()
    sys.unraisablehook(report)
    with pytest.raises(DispatchError, match="f_dispatch_0_elementwise_D_f32.*ValueError"):
        execution._raise_fault(_Dispatch())
    execution._raise_fault(_Dispatch())  # reported once, raised once
    assert kernel_faults.take() is None


def test_other_unraisable_reports_reach_the_previous_hook(monkeypatch):
    seen = []
    monkeypatch.setattr(sys, "unraisablehook", seen.append)
    monkeypatch.setattr(kernel_faults, "_previous", None)
    kernel_faults.install()
    report = type("Report", (), {"object": object(), "exc_value": RuntimeError("x")})()
    sys.unraisablehook(report)
    assert seen == [report] and kernel_faults.take() is None
    numba_report = type(
        "Report", (), {"object": "<numba.core.cpu.CPUContext>", "exc_value": ValueError("y")}
    )()
    sys.unraisablehook(numba_report)
    assert seen == [report] and isinstance(kernel_faults.take(), ValueError)
